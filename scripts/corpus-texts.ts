/**
 * A folder's files as the parse tier meets them, for the parse measurements (parse-check.ts, parse-split.ts):
 * the files indexing walks (the same ignore rules, the default size limit), read and decoded beforehand as
 * the text tier does, with the project facts parsing needs.
 */
import { resolve } from "node:path";
import { walkProject } from "../src/indexer/walk.ts";
import { buildProjectInfo } from "../src/indexer/project-info.ts";
import { readTextFile } from "../src/indexer/file-record.ts";
import { contentText } from "../src/store/content-codec.ts";
import type { ProjectInfo } from "../src/lang/project.ts";

export function readCorpusTexts(
  root: string,
  options: { only?: string; limit?: number } = {},
): { project: ProjectInfo; files: Array<{ path: string; text: string }> } {
  const abs = resolve(root);
  const walked = walkProject(abs, { maxFileSize: 1024 * 1024, extraExcludes: [] }).files;
  const project = buildProjectInfo(
    abs,
    walked.map((f) => f.path),
  );
  const limit = options.limit ?? Infinity;
  const files: Array<{ path: string; text: string }> = [];
  for (const f of walked) {
    if (files.length >= limit) break;
    const r = readTextFile({ path: f.path, abs: `${abs}/${f.path}`, mtimeMs: f.mtimeMs });
    if (r.kind !== "text") continue;
    if (options.only && r.file.language !== options.only) continue;
    files.push({ path: f.path, text: contentText(r.file.content) });
  }
  return { project, files };
}
