#!/usr/bin/env bun
/**
 * Compares file-ranking weight variants (FILE_RANKING in src/engines/search/index.ts) on a dev split: every
 * instance is indexed once, as scripts/eval.ts indexes it (same corpus rule, same base commit), then ranked
 * under each variant through the real file ranking (`searchFiles`, keyword mode, the 100 files cortex_search
 * asks for), so the variants are compared on the same indexes. Prints Acc@1/3/5/10 and MRR per variant and
 * the instances each wins and loses at 5 against the first variant; writes each instance's ranks under every
 * variant, and the first variant's top 10 files, to --out. Dev and tune splits only.
 *
 *   bun scripts/eval/rank-tune.ts --data ../shared/bench/swebench_lite_dev.jsonl [--split dev] [--variants base,title1,...]
 *     [--repo r]... [--limit n] [--work dir] [--out file.json]
 */
import { parseArgs } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { FILE_RANKING } from "../../src/engines/search/index.ts";
import { condenseQuery } from "../../src/engines/search/long-query.ts";
import { useFreshCortexHome } from "./corpus.ts";
import { chosenVariants, forEachRepository } from "./harness.ts";
import { loadInstances } from "./dataset.ts";
import { accAt, goldRanks, summarize, type Rank } from "./metrics.ts";

type Variant = Partial<typeof FILE_RANKING>;

/**
 * The variants; the first one named is the reference of the won / lost columns. The other knobs measured
 * with this script (the last traceback frame, packages named by a dotted name, a file-size prior, identifier
 * parts) lived in commit 42d0b21 and were removed as not kept (docs/benchmarks.md, "Why SWE-bench misses");
 * the import- and name-link lifts (linkedLong) in commit 4b78bc7 ("A pasted issue's title").
 */
export const VARIANTS: Record<string, Variant> = {
  base: {},
  off: { coChangeLong: 0 },
  "cochange long 0.15 uncapped": { coChangeLong: 0.15, coChangeCapped: false },
  "cochange long 0.3": { coChangeLong: 0.3 },
  "cochange long 0.5": { coChangeLong: 0.5 },
  "mentions 1": { mentions: 1 },
  "terms linear": { queryTfSaturation: 0, title: 0 },
  "k3 10 only": { title: 0 },
  "title 2 only": { queryTfSaturation: 0 },
  "defs 0.75": { definitions: 0.75 },
  "chunk 1": { chunk: 1 },
  "name multiplied": { nameShare: 0, name: 0.5 },
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string", default: "../shared/bench/swebench_lite_dev.jsonl" },
    split: { type: "string" },
    variants: { type: "string" },
    repo: { type: "string", multiple: true },
    limit: { type: "string" },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-rank-tune") },
    out: { type: "string", default: ".bench/eval/rank-tune.json" },
  },
});
if (values.split === "test") throw new Error("--split test: weights are chosen on dev only");

const names = chosenVariants(values.variants, VARIANTS);
let instances = loadInstances(resolve(values.data!), { ...(values.split ? { split: values.split } : {}), ...(values.repo ? { repos: values.repo } : {}) });
if (values.limit) instances = instances.slice(0, Number(values.limit));
const work = resolve(values.work!);
useFreshCortexHome(work);
const base = { ...FILE_RANKING };
const rows: Array<{ id: string; gold: string[]; top: string[]; ranks: Record<string, Rank[]> }> = [];
await forEachRepository(instances, { work, mirrors: resolve(values.mirrors!) }, async (group, folder, session) => {
  for (const instance of group.instances) {
    const row = { id: instance.instance_id, gold: instance.gold_files, top: [] as string[], ranks: {} as Record<string, Rank[]> };
    try {
      await folder.checkout(instance.base_commit, instance.asked_commit);
      await session.index();
      const search = await session.search();
      const { query } = condenseQuery(instance.problem_statement);
      for (const name of names) {
        Object.assign(FILE_RANKING, base, VARIANTS[name]);
        const files = (await search.searchFiles(query, 100, { mode: "keyword" })).map((f) => f.filePath);
        row.ranks[name] = goldRanks(files, instance.gold_files);
        if (name === names[0]) row.top = files.slice(0, 10);
      }
    } catch (e) {
      for (const name of names) row.ranks[name] ??= instance.gold_files.map(() => null);
      process.stderr.write(`${instance.instance_id} FAILED: ${e}\n`);
    } finally {
      Object.assign(FILE_RANKING, base);
    }
    rows.push(row);
    process.stderr.write(`${rows.length}/${instances.length} ${instance.instance_id} ${names.map((n) => JSON.stringify(row.ranks[n])).join(" ")}\n`);
  }
});
mkdirSync(resolve(values.out!, ".."), { recursive: true });
writeFileSync(resolve(values.out!), JSON.stringify({ data: values.data, variants: names, rows }, null, 1));
const ref = names[0]!;
console.log(`| variant | n | Acc@1 | Acc@3 | Acc@5 | Acc@10 | MRR | @5 won / lost vs ${ref} |`);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const name of names) {
  const s = summarize(rows.map((r) => r.ranks[name]!));
  const won = rows.filter((r) => accAt(r.ranks[name]!, 5) && !accAt(r.ranks[ref]!, 5)).length;
  const lost = rows.filter((r) => !accAt(r.ranks[name]!, 5) && accAt(r.ranks[ref]!, 5)).length;
  console.log(
    `| ${name} | ${s.instances} | ${s.acc1.toFixed(1)} | ${s.acc3.toFixed(1)} | ${s.acc5.toFixed(1)} | ${s.acc10.toFixed(1)} | ${s.mrr.toFixed(3)} | +${won} / −${lost} |`,
  );
}
