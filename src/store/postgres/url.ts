/**
 * The shared store's address: `--store postgres://…` or CORTEX_DATABASE_URL. A URL may carry a password,
 * so everything cortex prints (logs, errors, doctor) shows it through maskUrl.
 */
import { CortexError } from "../../core/errors.ts";

const SCHEMES = ["postgres:", "postgresql:"];

/**
 * The URL with its password replaced by `***`, the user-info's and a `?password=` parameter's (libpq's
 * other way of giving it); unchanged when it has none.
 */
export function maskUrl(url: string): string {
  // the parameter first, on the text: the URL class would re-encode the other parameters
  const masked = url.replace(/([?&]password=)[^&#]*/gi, "$1***");
  try {
    const u = new URL(masked);
    if (u.password === "") return masked;
    u.password = "***";
    return u.toString();
  } catch {
    // not a URL we can parse: hide whatever sits between "://user:" and "@"
    return masked.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@");
  }
}

/** The PostgreSQL URL to use: the flag's, else the environment's; undefined for the local SQLite store. */
export function storeUrl(flag: string | undefined, env: Record<string, string | undefined> = process.env): string | undefined {
  const url = flag ?? env.CORTEX_DATABASE_URL;
  if (url === undefined || url === "") return undefined;
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw new CortexError("INVALID_INPUT", `store: '${maskUrl(url)}' is not a URL (expected postgres://user@host:port/database)`);
  }
  if (!SCHEMES.includes(scheme)) {
    throw new CortexError("INVALID_INPUT", `store: '${maskUrl(url)}' is not a PostgreSQL URL (expected postgres://user@host:port/database)`);
  }
  return url;
}
