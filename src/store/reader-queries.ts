/**
 * Batched read queries of the SQLite reader (sqlite-reader.ts) that no older module asked: parse-tier
 * file rows, recorded file states and stored texts for many paths at once. Lists of paths go through
 * json_each, so one statement serves any count.
 */
import { contentText } from "./content-codec.ts";
import type { FileInfo } from "./contract.ts";
import type { IndexStore } from "./index-store.ts";
import { sqliteOf } from "./sqlite-access.ts";
import type { FileState } from "./types.ts";

const json = (values: Iterable<unknown>): string => JSON.stringify([...values]);

const FILE_INFO = "SELECT file_path AS path, language, module_path AS modulePath, is_test AS isTest FROM files";

type FileInfoRow = Omit<FileInfo, "isTest"> & { isTest: number };
const fileInfo = (r: FileInfoRow): FileInfo => ({ path: r.path, language: r.language, modulePath: r.modulePath, isTest: r.isTest === 1 });

/** Parse-tier rows of the given files that are indexed. */
export function filesInfo(store: IndexStore, paths: readonly string[]): Map<string, FileInfo> {
  const out = new Map<string, FileInfo>();
  if (paths.length === 0) return out;
  const rows = sqliteOf(store).query(`${FILE_INFO} WHERE file_path IN (SELECT value FROM json_each(?))`).all(json(paths)) as FileInfoRow[];
  for (const r of rows) out.set(r.path, fileInfo(r));
  return out;
}

/** Every parse-tier file, in path order. */
export function allFiles(store: IndexStore): FileInfo[] {
  return (sqliteOf(store).query(`${FILE_INFO} ORDER BY file_path`).all() as FileInfoRow[]).map(fileInfo);
}

/** Files with parsed facts (a definition or an import), in path order. */
export function codeFileInfos(store: IndexStore): FileInfo[] {
  return (
    sqliteOf(store)
      .query(
        `${FILE_INFO} f WHERE EXISTS (SELECT 1 FROM file_state s WHERE s.file_path = f.file_path)
          AND (EXISTS (SELECT 1 FROM symbols x WHERE x.file_path = f.file_path) OR EXISTS (SELECT 1 FROM imports i WHERE i.file_path = f.file_path))
         ORDER BY f.file_path`,
      )
      .all() as FileInfoRow[]
  ).map(fileInfo);
}

/** Files whose module is one of these, in path order. */
export function filesOfModules(store: IndexStore, modules: readonly string[]): string[] {
  if (modules.length === 0) return [];
  return (
    sqliteOf(store)
      .query("SELECT file_path AS path FROM files WHERE module_path IN (SELECT value FROM json_each(?)) ORDER BY file_path")
      .all(json(modules)) as Array<{ path: string }>
  ).map((r) => r.path);
}

/** Recorded state of the given files that are indexed. */
export function fileStatesOf(store: IndexStore, paths: readonly string[]): Map<string, FileState> {
  if (paths.length === 0) return new Map();
  const rows = sqliteOf(store)
    .query(
      `SELECT file_id AS fileId, file_path AS path, content_hash AS contentHash, mtime_ms AS mtimeMs, size_bytes AS sizeBytes FROM file_state
       WHERE file_path IN (SELECT value FROM json_each(?))`,
    )
    .all(json(paths)) as FileState[];
  return new Map(rows.map((r) => [r.path, r]));
}

/** Stored texts of the given files that are indexed. */
export function contentsOf(store: IndexStore, paths: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const rows = sqliteOf(store)
    .query(
      `SELECT s.file_path AS path, c.z AS z FROM contents c JOIN file_state s ON s.file_id = c.file_id
       WHERE s.file_path IN (SELECT value FROM json_each(?))`,
    )
    .all(json(paths)) as Array<{ path: string; z: Uint8Array }>;
  for (const r of rows) out.set(r.path, contentText(r.z));
  return out;
}
