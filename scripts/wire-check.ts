/**
 * Parses up to N files of a folder on one thread (the parse tier as a worker runs it), then measures how
 * they would travel back to the indexer: structured cloning of each ParsedFile (what parse workers sent
 * before) against the wire form (src/indexer/parsed-file-wire.ts), this thread's CPU to send and to read
 * back, and the bytes; and checks that every file reads back strictly equal. Issue 19.
 *
 *   bun scripts/wire-check.ts <folder> [files, default 3000]
 */
import { resolve } from "node:path";
import { deserialize, serialize } from "bun:jsc";
import { deepEquals } from "bun";
import { walkProject } from "../src/indexer/walk.ts";
import { buildProjectInfo } from "../src/indexer/project-info.ts";
import { parseStoredFile, readTextFile } from "../src/indexer/file-record.ts";
import { decodeParsedFile, encodeParsedFile } from "../src/indexer/parsed-file-wire.ts";
import { FactsParser } from "../src/lang/parser.ts";
import type { ParsedFile } from "../src/store/types.ts";

const root = process.argv[2];
if (!root) {
  console.error("usage: bun scripts/wire-check.ts <folder> [files]");
  process.exit(1);
}
const limit = Number(process.argv[3] ?? 3000);
const abs = resolve(root);
const walked = walkProject(abs, { maxFileSize: 1024 * 1024, extraExcludes: [] }).files;
const project = buildProjectInfo(
  abs,
  walked.map((f) => f.path),
);
const parser = await FactsParser.create();
const files: ParsedFile[] = [];
for (const f of walked) {
  const mtimeMs = Math.trunc(f.mtimeMs);
  const r = readTextFile({ path: f.path, abs: `${abs}/${f.path}`, mtimeMs });
  if (r.kind !== "text") continue;
  files.push(await parseStoredFile({ fileId: files.length + 1, path: f.path, sizeBytes: r.file.sizeBytes, mtimeMs, content: r.file.content }, parser, project));
  if (files.length >= limit) break;
}

let differ = 0;
for (const f of files) if (!deepEquals(decodeParsedFile(encodeParsedFile(f)), f, true)) differ++;
console.log(`files: ${files.length}, read back different: ${differ}`);

const cpu = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e6;
};
// three rounds: the first pays for compiling both paths
for (let round = 1; round <= 3; round++) {
  let t = cpu();
  const clones = files.map((f) => serialize(f));
  const cloneSend = cpu() - t;
  t = cpu();
  for (const c of clones) deserialize(c);
  const cloneRead = cpu() - t;
  t = cpu();
  const wires = files.map((f) => encodeParsedFile(f));
  const wireSend = cpu() - t;
  t = cpu();
  for (const w of wires) decodeParsedFile(w);
  const wireRead = cpu() - t;
  const cloneBytes = clones.reduce((a, c) => a + c.byteLength, 0);
  // the numbers and the strings' UTF-8 bytes, one buffer a file
  const wireBytes = wires.reduce((a, w) => a + w.ints.byteLength + w.bytes.byteLength, 0);
  const s = (x: number) => `${x.toFixed(2)} s`;
  const mb = (x: number) => `${(x / 1e6).toFixed(0)} MB`;
  console.log(
    `round ${round}: structured clone ${s(cloneSend)} to send, ${s(cloneRead)} to read back, ${mb(cloneBytes)}; wire ${s(wireSend)}, ${s(wireRead)}, ${mb(wireBytes)}`,
  );
}
