#!/usr/bin/env bun
/**
 * Why files rank where they do for one instance: indexes the instance's base commit (as scripts/eval.ts does)
 * and prints, for the first files of searchFiles and the gold files, each list of the fusion scaled to its
 * best file (file BM25, best chunk, definitions, mentions) and the final score, with the heaviest query terms.
 *
 *   bun scripts/eval/explain-files.ts --data ../shared/bench/swebench_lite_dev.jsonl --id pydicom__pydicom-1413 [--top 10]
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { Session } from "../../src/tools/index.ts";
import { FILE_RANKING, KEYWORD_WEIGHTS } from "../../src/engines/search/index.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { CORPUS_FILTERS, CorpusFolder, useFreshCortexHome } from "./corpus.ts";
import { inCommitOrder, stripsOf } from "./harness.ts";
import { loadInstances } from "./dataset.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string", default: "../shared/bench/swebench_lite_dev.jsonl" },
    id: { type: "string" },
    top: { type: "string", default: "10" },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-explain") },
  },
});
const instances = loadInstances(resolve(values.data!), {}).filter((i) => i.instance_id === values.id);
if (instances.length !== 1) throw new Error(`no instance ${values.id}`);
const work = resolve(values.work!);
useFreshCortexHome(work);
const [group] = await inCommitOrder(instances, resolve(values.mirrors!));
const instance = group!.instances[0]!;
const folder = new CorpusFolder(join(work, "corpus", group!.repo.replace("/", "+")), group!.gitDir, {
  include: CORPUS_FILTERS[instance.corpus ?? "python-non-test"],
  strip: stripsOf(group!.instances),
});
const session = new Session(folder.root);
try {
  await folder.checkout(instance.base_commit, instance.asked_commit);
  await session.index();
  const store = await session.requireReader();
  const search = await session.search();
  const q = analyzeQuery(instance.problem_statement);
  const weights = q.weights;
  console.log(
    "terms:",
    [...weights]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([t, v]) => `${t} ${v.toFixed(1)}`)
      .join(", "),
  );
  const scaled = (m: Map<string, number>) => {
    const max = Math.max(0, ...m.values());
    return new Map([...m].map(([k, v]) => [k, max > 0 ? v / max : 0]));
  };
  const file = scaled(await store.weightedFileScores(weights, FILE_RANKING.fields, {}));
  const best = new Map<string, number>();
  for (const { filePath, score } of (await store.weightedChunkScores(weights, KEYWORD_WEIGHTS, {})).values())
    if (score > (best.get(filePath) ?? 0)) best.set(filePath, score);
  const chunk = scaled(best);
  const defined = await store.definingFiles(q.identifiers);
  const n = await store.fileCount();
  const defs = new Map<string, number>();
  const why = new Map<string, string[]>();
  for (const [name, files] of defined) {
    for (const f of files) {
      defs.set(f, (defs.get(f) ?? 0) + Math.log(1 + n / files.size));
      why.set(f, [...(why.get(f) ?? []), name]);
    }
  }
  const def = scaled(defs);
  const ranked = await search.searchFiles(instance.problem_statement, 100, { mode: "keyword" });
  const show = new Set([...ranked.slice(0, Number(values.top)).map((r) => r.filePath), ...instance.gold_files]);
  console.log(`gold: ${instance.gold_files.join(", ")}; identifiers: ${q.identifiers.slice(0, 40).join(" ")}; paths: ${q.paths.join(" ")}`);
  console.log("| rank | file | final | file bm25 | chunk | defs (names) |");
  console.log("|---:|---|---:|---:|---:|---|");
  for (const p of show) {
    const at = ranked.findIndex((r) => r.filePath === p);
    const f = (m: Map<string, number>) => (m.get(p) ?? 0).toFixed(2);
    console.log(
      `| ${at} | ${instance.gold_files.includes(p) ? "**" + p + "**" : p} | ${at >= 0 ? ranked[at]!.score.toFixed(3) : "-"} | ${f(file)} | ${f(chunk)} | ${f(def)} (${(why.get(p) ?? []).join(" ")}) |`,
    );
  }
} finally {
  session.close();
}
