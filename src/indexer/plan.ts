/**
 * The plan of an index run without writing anything (`cortex index --dry-run`): which files would be
 * indexed, by language, and what is left out and why, so a user can check that nothing important is
 * missing and no build output gets in.
 */
import { openSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";
import { canonicalRoot } from "../core/paths.ts";
import { loadConfig, type CortexConfig } from "../core/config.ts";
import { walkProject, looksBinary, utf16Encoding, BINARY_CHECK_BYTES, type Exclusion } from "./walk.ts";
import { languageFor } from "../lang/registry.ts";

export interface IndexPlan {
  root: string;
  files: number;
  bytes: number;
  languages: Array<{ language: string; files: number; bytes: number; parsed: boolean }>;
  excluded: {
    total: number;
    byReason: Record<string, number>;
    entries: Array<{ path: string; reason: string; detail: string; isDir: boolean }>;
  };
  settings: { max_file_size: number; exclude: string[] };
}

function head(abs: string): Uint8Array {
  const fd = openSync(abs, "r");
  try {
    const buf = new Uint8Array(BINARY_CHECK_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

export function planIndex(rootArg: string, configArg?: CortexConfig): IndexPlan {
  const root = canonicalRoot(rootArg);
  const config = configArg ?? loadConfig(root);
  const walked = walkProject(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });
  const excluded: Exclusion[] = [...walked.excluded];
  const langs = new Map<string, { files: number; bytes: number; parsed: boolean }>();
  let files = 0;
  let bytes = 0;
  for (const f of walked.files) {
    let h: Uint8Array;
    try {
      h = head(join(root, f.path));
    } catch (e) {
      excluded.push({ path: f.path, reason: "unreadable", detail: (e as Error).message, isDir: false });
      continue;
    }
    const utf16 = utf16Encoding(h);
    if (looksBinary(h) && !utf16) {
      excluded.push({ path: f.path, reason: "binary", detail: "NUL byte in the first 8 KB", isDir: false, size: f.size });
      continue;
    }
    const choice = languageFor(f.path, new TextDecoder(utf16 ?? "utf-8").decode(h));
    const l = langs.get(choice.language) ?? { files: 0, bytes: 0, parsed: choice.module !== undefined };
    l.files++;
    l.bytes += f.size;
    langs.set(choice.language, l);
    files++;
    bytes += f.size;
  }
  const byReason: Record<string, number> = {};
  for (const e of excluded) byReason[e.reason] = (byReason[e.reason] ?? 0) + 1;
  excluded.sort((a, b) => (a.path < b.path ? -1 : 1));
  return {
    root,
    files,
    bytes,
    languages: [...langs.entries()].map(([language, v]) => ({ language, ...v })).sort((a, b) => b.files - a.files || a.language.localeCompare(b.language)),
    excluded: { total: excluded.length, byReason, entries: excluded.map(({ path, reason, detail, isDir }) => ({ path, reason, detail, isDir })) },
    settings: { max_file_size: config.index.max_file_size, exclude: config.index.exclude },
  };
}
