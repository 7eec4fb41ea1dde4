#!/usr/bin/env bun
/**
 * Compares file-ranking variants on the generated sets' dev splits (commit subjects, docstrings) against
 * the plain BM25 floor, per language: every instance is indexed once (its parent commit as a git checkout,
 * as history-tune.ts does), then ranked under each variant through the real file ranking (`searchFiles`,
 * keyword mode). A variant sets FILE_RANKING knobs or the best chunk's column weights (chunkFields), or rewrites the question first (a query-analysis change
 * measured without touching the analysis). Prints Acc@1 / Acc@5 per language with each
 * variant's margin over the floor (`--bm25`: the per-instance JSON of
 * `scripts/eval.ts --ranker bm25 --no-index` on the same split) and the questions won / lost at rank 1
 * against the first variant; writes every instance's ranks to --out. Dev splits only.
 *
 *   bun scripts/eval/nl-tune.ts --data scripts/eval/sets/data/docstrings.jsonl [--split dev] [--bm25 f.json]
 *     [--variants base,a,b] [--repo r]... [--work dir] [--out file.json]
 */
import { parseArgs } from "node:util";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { FILE_RANKING, KEYWORD_WEIGHTS } from "../../src/engines/search/index.ts";
import { CORPUS_FILTERS, useFreshCortexHome } from "./corpus.ts";
import { chosenVariants, forEachRepository } from "./harness.ts";
import { loadInstances } from "./dataset.ts";
import { accAt, goldRanks, summarize, type Rank } from "./metrics.ts";
import { COMMIT_TYPE_HEADER } from "../../src/engines/search/query.ts";

/**
 * FILE_RANKING knobs, optionally the question rewritten before the ranking sees it, and optionally the chunk
 * list's column weights (KEYWORD_WEIGHTS, which searchFiles' best chunk reads) in place of the engine's.
 */
type Variant = Partial<typeof FILE_RANKING> & {
  rewrite?: (query: string) => string;
  chunkFields?: Partial<typeof KEYWORD_WEIGHTS>;
};

/** The variants; the first named is the reference of the won / lost column. */
export const VARIANTS: Record<string, Variant> = {
  base: {},
  "name multiplied": { nameShare: 0, name: 0.5 },
  "share 0.4": { nameShare: 0.4 },
  "share 0.6": { nameShare: 0.6 },
  "share 0.25": { nameShare: 0.25 },
  "share 0": { nameShare: 0 },
  "defs 0.25": { definitions: 0.25 },
  "defs 0": { definitions: 0 },
  // the whole-file BM25's comment column (FILE_RANKING.fields.doc, 0.5) and the best chunk's columns (termw)
  "doc 0.75": { fields: { ...FILE_RANKING.fields, doc: 0.75 } },
  "doc 1": { fields: { ...FILE_RANKING.fields, doc: 1 } },
  "code 0.75": { fields: { ...FILE_RANKING.fields, code: 0.75 } },
  "chunk body 2": { chunkFields: { body: 2 } },
  "chunk symbols 2": { chunkFields: { symbols: 2 } },
  "chunk path 1": { chunkFields: { path: 1 } },
  "chunk title 1": { chunkFields: { title: 1 } },
  "chunk title 0": { chunkFields: { title: 0 } },
  "chunk title col 1": { chunkFields: { symbols: 5, title: 1 } },
  "chunk title col 0": { chunkFields: { symbols: 6, title: 0 } },
  "doc 1 title 1": { fields: { ...FILE_RANKING.fields, doc: 1 }, chunkFields: { title: 1 } },
  // the engine drops a conventional-commit type (query.ts COMMIT_TYPE_HEADER); this keeps it as a plain word
  "conventional type plain": {
    rewrite: (q) => q.replace(COMMIT_TYPE_HEADER, (head: string, scope: string | undefined) => `${/^\s*(\w+)/.exec(head)![1]} ${scope ?? ""}: `),
  },
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string", default: "scripts/eval/sets/data/docstrings.jsonl" },
    split: { type: "string", default: "dev" },
    variants: { type: "string" },
    bm25: { type: "string" },
    repo: { type: "string", multiple: true },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-nl-tune") },
    out: { type: "string", default: ".bench/eval/nl-tune.json" },
  },
});
if (values.split === "test") throw new Error("--split test: weights are chosen on dev only");
const names = chosenVariants(values.variants, VARIANTS);

const instances = loadInstances(resolve(values.data!), { split: values.split!, ...(values.repo ? { repos: values.repo } : {}) });
const work = resolve(values.work!);
useFreshCortexHome(work);
const base = { ...FILE_RANKING };
const chunkBase = { ...KEYWORD_WEIGHTS };
const rows: Array<{ id: string; language: string; gold: string[]; ranks: Record<string, Rank[]>; top: Record<string, string[]> }> = [];
await forEachRepository(instances, { work, mirrors: resolve(values.mirrors!), include: CORPUS_FILTERS.source }, async (group, folder, session) => {
  for (const instance of group.instances) {
    const row = {
      id: instance.instance_id,
      language: instance.language ?? "",
      gold: instance.gold_files,
      ranks: {} as Record<string, Rank[]>,
      top: {} as Record<string, string[]>,
    };
    try {
      await folder.checkout(instance.base_commit, instance.asked_commit);
      await session.index();
      const search = await session.search();
      for (const name of names) {
        const { rewrite, chunkFields, ...knobs } = VARIANTS[name]!;
        Object.assign(FILE_RANKING, base, knobs);
        Object.assign(KEYWORD_WEIGHTS, chunkBase, chunkFields);
        const question = rewrite ? rewrite(instance.problem_statement) : instance.problem_statement;
        const files = (await search.searchFiles(question, 100, { mode: "keyword" })).map((f) => f.filePath);
        row.ranks[name] = goldRanks(files, instance.gold_files);
        row.top[name] = files.slice(0, 3);
      }
    } catch (e) {
      for (const name of names) row.ranks[name] ??= instance.gold_files.map(() => null);
      process.stderr.write(`${instance.instance_id} FAILED: ${e}\n`);
    } finally {
      Object.assign(FILE_RANKING, base);
      Object.assign(KEYWORD_WEIGHTS, chunkBase);
    }
    rows.push(row);
    if (rows.length % 20 === 0) process.stderr.write(`${rows.length}/${instances.length}\n`);
  }
});
mkdirSync(resolve(values.out!, ".."), { recursive: true });
writeFileSync(resolve(values.out!), JSON.stringify({ data: values.data, split: values.split, variants: names, rows }, null, 1));

const floor = new Map<string, Rank[]>();
if (values.bm25) {
  const run = JSON.parse(readFileSync(resolve(values.bm25), "utf8")) as { instances: Array<{ instance_id: string; ranks: Rank[] }> };
  for (const i of run.instances) floor.set(i.instance_id, i.ranks);
}
const languages = [...new Set(rows.map((r) => r.language))].sort();
const cell = (rs: typeof rows, ranksOf: (r: (typeof rows)[number]) => Rank[]) => {
  const s = summarize(rs.map(ranksOf));
  return s;
};
const ref = names[0]!;
console.log(`| variant | n | Acc@1 | Acc@5 | MRR | @1 won / lost vs ${ref} | ${languages.map((l) => `${l} @1 (− floor)`).join(" | ")} |`);
console.log(`|---|---:|---:|---:|---:|---:|${languages.map(() => "---:").join("|")}|`);
const lines: Array<[string, (r: (typeof rows)[number]) => Rank[]]> = [];
if (floor.size > 0) lines.push(["BM25 floor", (r) => floor.get(r.id) ?? r.gold.map(() => null)]);
for (const name of names) lines.push([name, (r) => r.ranks[name]!]);
for (const [name, ranksOf] of lines) {
  const s = cell(rows, ranksOf);
  const won = rows.filter((r) => accAt(ranksOf(r), 1) && !accAt(r.ranks[ref]!, 1)).length;
  const lost = rows.filter((r) => !accAt(ranksOf(r), 1) && accAt(r.ranks[ref]!, 1)).length;
  const per = languages.map((l) => {
    const these = rows.filter((r) => r.language === l);
    const x = cell(these, ranksOf).acc1;
    const f = floor.size > 0 ? cell(these, (r) => floor.get(r.id) ?? r.gold.map(() => null)).acc1 : undefined;
    return f === undefined ? x.toFixed(1) : `${x.toFixed(1)} (${x - f >= 0 ? "+" : ""}${(x - f).toFixed(1)})`;
  });
  console.log(`| ${name} | ${s.instances} | ${s.acc1.toFixed(1)} | ${s.acc5.toFixed(1)} | ${s.mrr.toFixed(3)} | +${won} / −${lost} | ${per.join(" | ")} |`);
}
