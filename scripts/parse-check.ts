/**
 * Runs the parse tier on every file of a folder, on one thread, and prints the CPU time of each step and a
 * hash of its whole output: every file's language, line counts, facts (definitions, references, imports,
 * syntax-error count), comments, chunks and keyword words. Two runs of different parse code on the same
 * folder must print the same hash (how parse-tier speed-ups are kept: issue 19).
 *
 *   bun scripts/parse-check.ts <folder> [--out hashes.tsv] [--only go|c|…]
 *   bun --cpu-prof-md scripts/parse-check.ts <folder>     (where the CPU goes)
 *
 * The files are those indexing walks (the same ignore rules), read and decoded beforehand as the text
 * tier does. A first pass over up to 300 files warms the engine (grammar loads, query compiles, WASM
 * tier-up) and is not counted. `--out` writes one line per file (path and hash) to compare two runs.
 */
import { writeFileSync } from "node:fs";
import { readCorpusTexts } from "./corpus-texts.ts";
import { FactsParser, type ParseStageClock } from "../src/lang/parser.ts";
import { moduleFor } from "../src/lang/registry.ts";
import { fileWords } from "../src/indexer/file-words.ts";
import { buildChunks } from "../src/indexer/chunker.ts";
import { textWords } from "../src/store/keyword-words.ts";
import { threadCpuMicros } from "../src/core/thread-cpu.ts";

const args = process.argv.slice(2);
const root = args[0];
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!root) {
  console.error("usage: bun scripts/parse-check.ts <folder> [--out hashes.tsv] [--only <language>]");
  process.exit(1);
}
const only = flag("--only");
const outPath = flag("--out");
const { project, files } = readCorpusTexts(root, only ? { only } : {});

const parser = await FactsParser.create();
for (const f of files.slice(0, 300)) await parser.parse(f.path, f.text, project);

// the stage clock's own (threadCpuMicros: up to the call, where getrusage lags to the last tick)
const cpuMicros = threadCpuMicros;
const clock: ParseStageClock = { parse: 0, matches: 0, lines: 0, errors: 0, extract: 0 };
parser.stageClock = clock;
let chunksMicros = 0;
let wordsMicros = 0;
const all = new Bun.CryptoHasher("sha256");
const lines: string[] = [];
const counts = { definitions: 0, references: 0, imports: 0, chunks: 0, syntaxErrors: 0 };
const start = cpuMicros();
for (const f of files) {
  const parsed = await parser.parse(f.path, f.text, project);
  // as the parse worker runs them (indexer/file-record.ts parseStoredFile): the text's words scanned once
  // for the file's keyword words, then its chunks
  let t = cpuMicros();
  const module = moduleFor(parsed.language);
  const isTest = module ? module.isTestFile(f.path) : false;
  const scanned = textWords(f.text);
  const words = fileWords(f.path, f.text, parsed.facts, parsed.comments, scanned);
  let now = cpuMicros();
  wordsMicros += now - t;
  t = now;
  const chunks = buildChunks({
    path: f.path,
    language: parsed.language,
    text: f.text,
    isTest,
    words: scanned,
    ...(parsed.facts ? { facts: parsed.facts } : {}),
  });
  now = cpuMicros();
  chunksMicros += now - t;
  const facts = parsed.facts;
  if (facts) {
    counts.definitions += facts.types.length + facts.functions.length + facts.variables.length;
    counts.references += facts.references.length;
    counts.imports += facts.imports.length;
    counts.syntaxErrors += facts.syntaxErrors;
  }
  counts.chunks += chunks.length;
  const hash = new Bun.CryptoHasher("sha256")
    .update(JSON.stringify({ language: parsed.language, lines: parsed.lines, comments: parsed.comments, facts, chunks, words }))
    .digest("hex");
  all.update(`${f.path}\t${hash}\n`);
  lines.push(`${f.path}\t${hash}`);
}
const total = cpuMicros() - start;
if (outPath) writeFileSync(outPath, lines.join("\n") + "\n");

const s = (micros: number): string => `${(micros / 1e6).toFixed(2)} s`;
console.log(`files: ${files.length}${only ? ` (${only})` : ""}`);
console.log(`all (this thread's CPU): ${s(total)}`);
for (const [stage, micros] of Object.entries(clock)) console.log(`  ${stage}: ${s(micros)}`);
console.log(`  chunks: ${s(chunksMicros)}`);
console.log(`  keyword words: ${s(wordsMicros)}`);
console.log(`  other (hashing, language choice): ${s(total - Object.values(clock).reduce((a, b) => a + b, 0) - chunksMicros - wordsMicros)}`);
console.log(`counts: ${JSON.stringify(counts)}`);
console.log(`output hash: ${all.digest("hex")}`);
