/**
 * Reading and writing a client's configuration file: what it holds for cortex (doctor and setup), and
 * the write itself: a timestamped backup beside the file first, then an atomic replace that keeps the
 * file's permissions (~/.claude.json is private to its owner).
 */
import { chmodSync, chownSync, constants, copyFileSync, existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename } from "node:path";
import { writeFileAtomic } from "../../core/fs-atomic.ts";
import { CortexError } from "../../core/errors.ts";
import { SERVER_NAME, type McpClient } from "./clients.ts";
import { jsonEntry, mergeJsonEntry, parseJsonConfig } from "./merge-json.ts";
import { mergeTomlEntry, parseTomlConfig } from "./merge-toml.ts";
import { isDeepStrictEqual } from "node:util";

export interface ClientConfigState {
  path: string;
  exists: boolean;
  /** cortex's entry as the file has it. */
  entry?: unknown;
  /** Why the file could not be read or parsed. */
  error?: string;
}

/** A UTF-8 byte-order mark, which Windows editors write at the start of a file. */
const BOM = "\uFEFF";

/** cortex's entry in a client's configuration text; throws when the text does not parse. */
function entryIn(client: McpClient, text: string, path: string): unknown {
  if (text.startsWith(BOM)) text = text.slice(1);
  const config = client.format === "toml" ? parseTomlConfig(text, path) : parseJsonConfig(text, path);
  return jsonEntry(config, client.serversKey, SERVER_NAME);
}

export function readClientConfig(client: McpClient, path: string): ClientConfigState {
  if (!existsSync(path)) return { path, exists: false };
  try {
    const entry = entryIn(client, readFileSync(path, "utf8"), path);
    return entry === undefined ? { path, exists: true } : { path, exists: true, entry };
  } catch (e) {
    return { path, exists: true, error: (e as Error).message };
  }
}

export interface WriteOutcome {
  path: string;
  /** The copy of the file as it was, when there was one to change. */
  backup?: string;
  /** The file already held exactly this entry: nothing was written. */
  unchanged: boolean;
}

function backupPath(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  let candidate = `${path}.cortex-backup-${stamp}`;
  for (let i = 1; existsSync(candidate); i++) candidate = `${path}.cortex-backup-${stamp}-${i}`;
  return candidate;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Why an entry named cortex is not one of ours, or undefined when it is: a remote server (a url, an
 * http or sse transport), or a command that is not cortex, npx/bun running cortex, or a launcher named
 * so. Merging into such an entry made a hybrid of both (a url beside a command), silently.
 */
export function foreignEntry(had: Record<string, unknown>): string | undefined {
  for (const key of ["url", "serverUrl", "httpUrl"]) if (typeof had[key] === "string") return `a remote server at ${had[key]}`;
  if (typeof had.type === "string" && had.type !== "stdio") return `a server of type '${had.type}'`;
  const command = had.command;
  if (command === undefined) return undefined;
  if (typeof command !== "string") return "a command that is not a string";
  const args = Array.isArray(had.args) ? had.args.filter((a): a is string => typeof a === "string") : [];
  const name = basename(command)
    .replace(/\.(exe|cmd|cjs|js)$/i, "")
    .toLowerCase();
  if (/^cortex([-_.].*)?$/.test(name)) return undefined;
  // npx cortex-code, or cortex run from source (bun …/src/cli/main.ts, wherever the checkout is)
  if (["npx", "bun", "bunx", "node"].includes(name) && args.some((a) => /cortex/i.test(a) || /(^|[\\/])src[\\/]cli[\\/]main\.ts$/.test(a))) return undefined;
  return `the command ${command}`;
}

/** cortex's entry over the one the file has: its keys win; a table both have (env) keeps the user's other keys. */
function mergeEntry(had: Record<string, unknown>, entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...had };
  for (const [k, v] of Object.entries(entry)) out[k] = isTable(v) && isTable(had[k]) ? { ...had[k], ...v } : v;
  return out;
}

/** Merges cortex's entry into the client's file, or creates the file; never writes a file that would not parse. */
export function writeClientConfig(client: McpClient, path: string, entry: Record<string, unknown>, now = new Date()): WriteOutcome {
  // a symlinked file (dotfiles managed by stow, chezmoi, home-manager) is written where it points, and stays a link
  const target = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? realpathOrRefuse(path) : path;
  const exists = existsSync(target);
  let text = "";
  if (exists) {
    try {
      text = readFileSync(target, "utf8");
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `cannot read ${path}: ${(e as Error).message}`);
    }
  }
  const bom = text.startsWith(BOM) ? BOM : "";
  text = text.slice(bom.length);
  // what the user added to cortex's entry (env, timeouts, enabled) stays; cortex's own keys are replaced
  // (a text that does not parse is left to the merge below, which says so)
  let had: unknown;
  try {
    had = text.trim() === "" ? undefined : entryIn(client, text, path);
  } catch {}
  const foreign = isTable(had) ? foreignEntry(had) : undefined;
  if (foreign)
    throw new CortexError(
      "INVALID_INPUT",
      `${path} already has a server named "${SERVER_NAME}" that is not this cortex (${foreign}); rename or remove that entry, then run setup again; nothing was written`,
    );
  const merged = isTable(had) ? mergeEntry(had, entry) : entry;
  if (had !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(had)), JSON.parse(JSON.stringify(merged)))) return { path, unchanged: true };
  const merge = client.format === "toml" ? mergeTomlEntry : mergeJsonEntry;
  let next: string;
  try {
    next = merge(text, client.serversKey, SERVER_NAME, merged, path);
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `${(e as Error).message}; nothing was written`);
  }
  if (exists && next === text) return { path, unchanged: true };
  const outcome: WriteOutcome = { path, unchanged: false };
  let mode: number | undefined;
  let owner: { uid: number; gid: number } | undefined;
  if (exists) {
    const st = statSync(target);
    mode = st.mode & 0o7777;
    // a read-only file says "do not change me"; root writing a user's file (sudo cortex setup) keeps it the user's
    if ((mode & 0o200) === 0)
      throw new CortexError("INVALID_INPUT", `${path} is read-only; make it writable (chmod u+w) to let setup change it; nothing was written`);
    if (process.getuid?.() === 0 && (st.uid !== 0 || st.gid !== 0)) owner = { uid: st.uid, gid: st.gid };
    outcome.backup = backupPath(path, now);
    try {
      copyFileSync(target, outcome.backup, constants.COPYFILE_EXCL);
    } catch (e) {
      throw new CortexError("IO", `cannot write the backup ${outcome.backup}: ${(e as Error).message}; nothing was written`);
    }
    if (owner) chownSync(outcome.backup, owner.uid, owner.gid);
  }
  try {
    writeFileAtomic(target, bom + next, mode);
  } catch (e) {
    throw new CortexError(
      "IO",
      `cannot write ${path}: ${(e as Error).message}; it is unchanged${outcome.backup ? ` (and ${outcome.backup} is a copy of it)` : ""}`,
    );
  }
  if (mode !== undefined) chmodSync(target, mode);
  if (owner) chownSync(target, owner.uid, owner.gid);
  return outcome;
}

function realpathOrRefuse(path: string): string {
  try {
    return realpathSync(path);
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `${path} is a symbolic link that leads nowhere (${(e as Error).message}); nothing was written`);
  }
}
