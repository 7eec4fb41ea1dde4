/**
 * Reading and writing a client's configuration file: what it holds for cortex (doctor and setup), and
 * the write itself: a timestamped backup beside the file first, then an atomic replace that keeps the
 * file's permissions (~/.claude.json is private to its owner).
 */
import { chmodSync, constants, copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
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

/** cortex's entry in a client's configuration text; throws when the text does not parse. */
function entryIn(client: McpClient, text: string, path: string): unknown {
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

/** cortex's entry over the one the file has: its keys win; a table both have (env) keeps the user's other keys. */
function mergeEntry(had: Record<string, unknown>, entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...had };
  for (const [k, v] of Object.entries(entry)) out[k] = isTable(v) && isTable(had[k]) ? { ...had[k], ...v } : v;
  return out;
}

/** Merges cortex's entry into the client's file, or creates the file; never writes a file that would not parse. */
export function writeClientConfig(client: McpClient, path: string, entry: Record<string, unknown>, now = new Date()): WriteOutcome {
  const exists = existsSync(path);
  let text = "";
  if (exists) {
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `cannot read ${path}: ${(e as Error).message}`);
    }
  }
  // what the user added to cortex's entry (env, timeouts, enabled) stays; cortex's own keys are replaced
  // (a text that does not parse is left to the merge below, which says so)
  let had: unknown;
  try {
    had = text.trim() === "" ? undefined : entryIn(client, text, path);
  } catch {}
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
  if (exists) {
    mode = statSync(path).mode & 0o7777;
    outcome.backup = backupPath(path, now);
    copyFileSync(path, outcome.backup, constants.COPYFILE_EXCL);
  }
  writeFileAtomic(path, next);
  if (mode !== undefined) chmodSync(path, mode);
  return outcome;
}
