/**
 * Opening a shared-store reader by its source string, `postgres:<schema>:<repositories>`, as
 * store/open-reader.ts does for any reader (a verification worker opens the same index this way). The
 * source names no server: the server is CORTEX_DATABASE_URL of this process (the CLI sets it from
 * --store), so a password never travels in a string that could be printed.
 */
import { CortexError } from "../../core/errors.ts";
import { connectPostgres } from "./client.ts";
import { PgIndexReader, type RepoScope } from "./reader.ts";
import { storeUrl } from "./url.ts";
import { POSTGRES_SOURCE_PREFIX } from "./source-prefix.ts";

/** @public (open-reader.ts requires it where a source names a shared store; knip does not see that use) */
export function openPostgresReader(source: string, env: Record<string, string | undefined> = process.env): PgIndexReader {
  const rest = source.slice(POSTGRES_SOURCE_PREFIX.length);
  const colon = rest.indexOf(":");
  const schema = rest.slice(0, colon);
  const scopeText = rest.slice(colon + 1);
  let scope: RepoScope;
  try {
    scope = scopeText === "*" ? "all" : (JSON.parse(scopeText) as string[]);
  } catch {
    throw new CortexError("INVALID_INPUT", `not a shared-store reader source: ${source}`);
  }
  const url = storeUrl(undefined, env);
  if (url === undefined) throw new CortexError("INVALID_INPUT", "a shared-store reader needs CORTEX_DATABASE_URL (or --store) to name the server");
  const client = connectPostgres(url, { maxConnections: 2 });
  return new PgIndexReader(client, scope, schema, { close: () => client.close() });
}
