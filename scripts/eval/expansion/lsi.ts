#!/usr/bin/env bun
/**
 * Does a latent semantic list (latent-semantics.ts: the project's files in a space learned from which words
 * they share) help the file ranking? For each instance of a dev split with a file-ranking record (rank-tune
 * --dump), the real searchFiles is replayed on the record (the shipped weights) and each file's fused score
 * gets w · max(0, cosine(question, file)) / the best cosine, as one more list of the fusion would add it (the
 * top 30 files by cosine join the 100 ranked ones); Acc@1 / Acc@5 and questions won / lost at 1 per weight,
 * overall and per language. The space is built once per repository from its corpus (comments the set
 * blanks, blanked) at the first instance's commit; commit-subject instances of later commits use it as is.
 * Results: docs/benchmarks.md, "A latent semantic list from the project's own words".
 *
 *   bun scripts/eval/expansion/lsi.ts --data scripts/eval/sets/data/docstrings.jsonl --split dev --records /tmp/doc-dev.jsonl
 *     [--k 100] [--weights 0,0.1,0.25,0.5,1] [--repo r]... [--work dir] [--mirrors /work/.mirror]
 *   bun scripts/eval/expansion/lsi.ts --data ../shared/bench/swebench_verified_tune.jsonl --split all --records vt.jsonl
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { forEachRepository } from "../harness.ts";
import { loadInstances } from "../dataset.ts";
import { accAt, goldRanks, type Rank } from "../metrics.ts";
import { replayEngine, type FileRecord } from "../file-record.ts";
import { cosine, latentSpace } from "./latent-semantics.ts";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    split: { type: "string", default: "dev" },
    records: { type: "string" },
    repo: { type: "string", multiple: true },
    k: { type: "string", default: "100" },
    weights: { type: "string", default: "0,0.1,0.25,0.5,1" },
    work: { type: "string", default: join(tmpdir(), "cortex-lsi") },
    mirrors: { type: "string", default: "/work/.mirror" },
  },
});
if (!values.data || !values.records) throw new Error("usage: lsi.ts --data <set.jsonl> --records <dump.jsonl>[,more] [--split dev]");
if (values.split === "test") throw new Error("--split test: measured on dev only");
const weights = values.weights!.split(",").map(Number);
const k = Number(values.k);

const records = new Map<string, FileRecord>();
for (const file of values.records.split(","))
  for (const line of readFileSync(resolve(file), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as FileRecord;
    if (!records.has(r.id)) records.set(r.id, r);
  }
// `--split all`: every row (SWE-bench's Verified-tune has no split column)
const instances = loadInstances(resolve(values.data), {
  ...(values.split === "all" ? {} : { split: values.split! }),
  ...(values.repo ? { repos: values.repo } : {}),
}).filter((i) => records.has(i.instance_id));

const rows: Array<{ id: string; language: string; ranks: Rank[][] }> = [];
await forEachRepository(instances, { work: resolve(values.work!), mirrors: resolve(values.mirrors!) }, async (group, folder) => {
  const first = group.instances[0]!;
  await folder.checkout(first.base_commit, first.asked_commit);
  const docs = new Map([...folder.files].map(([p, f]) => [p, f.text]));
  const t0 = performance.now();
  const space = latentSpace(docs, k);
  process.stderr.write(`${group.repo}: ${docs.size} files, space in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  for (const instance of group.instances) {
    const record = records.get(instance.instance_id)!;
    const fused = new Map((await replayEngine(record).engine.searchFiles(record.query, 100, { mode: "keyword" })).map((f) => [f.filePath, f.score]));
    const q = space.fold(record.query);
    const near = new Map<string, number>();
    if (q) for (const [p, v] of space.files) near.set(p, Math.max(0, cosine(q, v)));
    const best = Math.max(0, ...near.values());
    const candidates = new Set([
      ...fused.keys(),
      ...[...near.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([p]) => p),
    ]);
    const ranks = weights.map((w) => {
      const scored = [...candidates].map((p) => ({ p, s: (fused.get(p) ?? 0) + (best > 0 ? (w * (near.get(p) ?? 0)) / best : 0) }));
      scored.sort((a, b) => b.s - a.s || a.p.localeCompare(b.p));
      return goldRanks(
        scored.map((x) => x.p),
        record.gold,
      );
    });
    rows.push({ id: instance.instance_id, language: instance.language ?? "", ranks });
  }
});

const pct = (n: number, d: number) => (d === 0 ? "–" : ((100 * n) / d).toFixed(1));
const languages = ["all", ...new Set(rows.map((r) => r.language))].sort();
const lines = ["| weight | language | n | Acc@1 | Acc@5 | @1 won / lost vs 0 |", "|---:|---|---:|---:|---:|---:|"];
weights.forEach((w, wi) => {
  for (const language of languages) {
    const set = rows.filter((r) => language === "all" || r.language === language);
    const at1 = set.filter((r) => accAt(r.ranks[wi]!, 1)).length;
    const at5 = set.filter((r) => accAt(r.ranks[wi]!, 5)).length;
    const won = set.filter((r) => accAt(r.ranks[wi]!, 1) && !accAt(r.ranks[0]!, 1)).length;
    const lost = set.filter((r) => !accAt(r.ranks[wi]!, 1) && accAt(r.ranks[0]!, 1)).length;
    lines.push(`| ${w} | ${language} | ${set.length} | ${pct(at1, set.length)} | ${pct(at5, set.length)} | +${won} / −${lost} |`);
  }
});
console.log(lines.join("\n"));
