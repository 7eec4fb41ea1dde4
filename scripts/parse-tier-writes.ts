/**
 * The parse tier's writes alone: what the indexer's thread spends writing parsed files into a new index
 * (IndexStore.insertParsed in transactions of 256 files or 4 MiB, as the pipeline's), without the parse
 * workers beside it. On a shared 2-core machine a whole build's CPU times drift by more than a change to
 * the writer moves them; replaying the same parsed files in the same order does not (issue 19, items 4-5).
 *
 *   bun scripts/parse-tier-writes.ts capture <folder> <file>
 *       parses every file of the folder with the parse workers and saves each parsed file's wire form
 *       (src/indexer/parsed-file-wire.ts) in the order they finished
 *   bun scripts/parse-tier-writes.ts replay <folder> <file> [--reps 3] [--src <checkout>] [--db <path>]
 *       writes the text tier of the folder into a new database once, then REPS times over a copy of it
 *       writes the captured files as the bulk parse tier does (words staged, a quarter of the page cache)
 *       and prints this thread's CPU seconds in the writes (the wire forms' decoding is not counted); the
 *       last copy gets its indexes and keyword load (kept at --db, for scripts/index-canon.ts and
 *       scripts/index-space.ts). `--src`: another checkout whose store code writes (compare two versions
 *       on one capture).
 */
import { closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { deserialize, serialize } from "bun:jsc";

const [command, folder, file] = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
if ((command !== "capture" && command !== "replay") || !folder || !file) {
  console.error("usage: bun scripts/parse-tier-writes.ts capture|replay <folder> <file> [--reps N] [--src <checkout>] [--db <path>]");
  process.exit(1);
}
const root = resolve(folder);
const src = resolve(flag("--src") ?? join(import.meta.dir, ".."), "src");
const { walkProject } = await import(`${src}/indexer/walk.ts`);
const { readTextFile } = await import(`${src}/indexer/file-record.ts`);
const { buildProjectInfo } = await import(`${src}/indexer/project-info.ts`);
const { encodeParsedFile, decodeParsedFile } = await import(`${src}/indexer/parsed-file-wire.ts`);
const { IndexStore } = await import(`${src}/store/index-store.ts`);
const { sqliteOf } = await import(`${src}/store/sqlite-access.ts`);
const { loadConfig } = await import(`${src}/core/config.ts`);

const removeDb = (path: string) => {
  for (const end of ["", "-wal", "-shm", "-stage"]) rmSync(path + end, { force: true });
};

/** A new build database holding the folder's text tier, in the walk's order (the capture's file ids). */
function textTier(path: string): { store: InstanceType<typeof IndexStore>; files: string[] } {
  const config = loadConfig(root);
  const walked = walkProject(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });
  removeDb(path);
  const store = IndexStore.createForBuild(path);
  store.transaction(() => {
    for (const f of walked.files) {
      const outcome = readTextFile({ path: f.path, abs: join(root, f.path), mtimeMs: Math.trunc(f.mtimeMs) });
      if (outcome.kind === "text") store.insertText(outcome.file);
    }
  });
  return { store, files: walked.files.map((f: { path: string }) => f.path) };
}

if (command === "capture") {
  const { parseFiles } = await import(`${src}/indexer/parse-pool.ts`);
  const dbPath = `${file}.text.db`;
  const { store, files } = textTier(dbPath);
  const project = buildProjectInfo(root, files);
  const out = openSync(file, "w");
  let count = 0;
  for await (const outcome of parseFiles(store.unparsed(), (f: { fileId: number }) => store.contentZ(f.fileId), project)) {
    if (outcome.kind !== "parsed") continue;
    const wire = encodeParsedFile(outcome.file);
    // copies: the wire's numbers and bytes are views of one buffer the next encode writes over
    const bytes = Buffer.from(serialize({ ints: wire.ints.slice(), bytes: wire.bytes.slice(), path: wire.path, modulePath: wire.modulePath }));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    writeSync(out, length);
    writeSync(out, bytes);
    count++;
  }
  closeSync(out);
  store.close();
  removeDb(dbPath);
  console.log(`${count} parsed files captured in ${file}`);
  process.exit(0);
}

const reps = Number(flag("--reps") ?? 3);
const keep = flag("--db") ?? `${file}.replay.db`;
const template = `${keep}.text`;
{
  const { store } = textTier(template);
  store.finishBuild(); // the write-ahead log folded in: the template is one file to copy
  store.close();
}
const threadCpuMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const seconds: number[] = [];
for (let rep = 0; rep < reps; rep++) {
  removeDb(keep);
  copyFileSync(template, keep);
  const store = IndexStore.open(keep);
  sqliteOf(store).exec("PRAGMA synchronous = OFF"); // as a build database (db.ts createBuildDatabase)
  store.setMeta("parse_state", "bulk");
  store.stageFullText();
  store.pageCache("small");
  const input = openSync(file, "r");
  const length = Buffer.alloc(4);
  let batch: Array<{ sizeBytes: number }> = [];
  let bytes = 0;
  let writeMs = 0;
  const flush = () => {
    const files = batch;
    [batch, bytes] = [[], 0];
    const t = threadCpuMs();
    store.transaction(() => {
      for (const f of files) store.insertParsed(f);
    });
    writeMs += threadCpuMs() - t;
  };
  while (readSync(input, length, 0, 4, null) === 4) {
    const wire = Buffer.alloc(length.readUInt32LE());
    readSync(input, wire, 0, wire.length, null);
    const parsed = decodeParsedFile(deserialize(wire));
    batch.push(parsed);
    bytes += parsed.sizeBytes;
    if (batch.length >= 256 || bytes >= 4 * 2 ** 20) flush();
  }
  flush();
  closeSync(input);
  seconds.push(writeMs / 1000);
  if (rep === reps - 1) {
    store.pageCache("full");
    store.createBuildIndexes();
    store.loadStagedFullText({ aside: false });
    await store.finishStagedFullText();
    store.setMeta("parse_state", "");
    store.finishBuild();
  }
  store.close();
  Bun.gc(true);
}
removeDb(template);
if (!existsSync(keep)) throw new Error(`the replayed index ${keep} is missing`);
const load = (await import("node:os")).loadavg()[0]!.toFixed(1);
console.log(`${src}: writes, this thread's CPU s: ${seconds.map((s) => s.toFixed(2)).join(" ")}; least ${Math.min(...seconds).toFixed(2)} (load ${load})`);
