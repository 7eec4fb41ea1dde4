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
 *     [--repo r]... [--limit n] [--work dir] [--out file.json] [--dump records.jsonl]
 *   bun scripts/eval/rank-tune.ts --replay records.jsonl[,more.jsonl] [--variants ...] [--repo r]... [--out file.json]
 *
 * `--dump` also saves, per instance, what the file ranking read from the index (scripts/eval/file-record.ts),
 * and with `--dump-terms` each term's part of the file BM25 list, so a replay can re-weigh that list's terms;
 * `--replay` ranks those records under the variants through the same searchFiles without indexing (seconds
 * for a whole split), and says on how many instances the `--check` variant (default base: the defaults when
 * the records were made) ranks otherwise than the recorded real ranking.
 */
import { parseArgs } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { FILE_RANKING, HAND_FILE_RANKING } from "../../src/engines/search/index.ts";
import { condenseQuery } from "../../src/engines/search/long-query.ts";
import { useFreshCortexHome } from "./corpus.ts";
import { chosenVariants, forEachRepository } from "./harness.ts";
import { loadInstances } from "./dataset.ts";
import { accAt, goldRanks, summarize, type Rank } from "./metrics.ts";
import { makeRecord, recordingReader, termParts, replayEngine, type FileRecord, type Raw, type RecordedStyle } from "./file-record.ts";
import { SearchEngine } from "../../src/engines/search/index.ts";
import { appendFileSync, readFileSync } from "node:fs";

type Variant = Partial<typeof FILE_RANKING>;

/**
 * The variants; the first one named is the reference of the won / lost columns. The other knobs measured
 * with this script (the last traceback frame, packages named by a dotted name, a file-size prior, identifier
 * parts) lived in commit 42d0b21 and were removed as not kept (docs/benchmarks.md, "Why SWE-bench misses");
 * the import- and name-link lifts (linkedLong) in commit 4b78bc7 ("A pasted issue's title"); partners by
 * co-change share, imports and shared definitions in the family slot in commit 4e6937c ("File families");
 * the best chunk's and the file's lists sharpened, damped by matched chunks, an agreement list, and the
 * file columns for short questions in commit f475c41 ("The docstring floor"); the history channel gated
 * by its own confidence (per-commit coverage, a coverage floor, a flattened or capped list, busy files
 * discounted) in commit d69b07c ("The history's own confidence"); the name's share for a file that defines a
 * named identifier, definitions scaled by how many files write the name, name words counted by their
 * specificity, and (nl-tune) a short question's identifier words counted less, in commit 0ac0d0d ("Rust
 * and Java below the floor"); a file BM25 list discounted for breadth (parts by their term's best, a file's top
 * K terms, an effective term count), its strongest term as a list, wrapper definitions and files of wrappers,
 * definitions by how many files write the name, code words and idf re-weighed for long questions, in commit
 * e0bab31 ("Hub files in pasted issues"); the files holding a quoted exception message's fixed parts in
 * commit 5a47e91 ("A pasted traceback's exception messages").
 */
export const VARIANTS: Record<string, Variant> = {
  base: {},
  // the hand-chosen weights without file-ranking.json's learned ones: the --check of records made before a
  // retrain (train-ranker.ts)
  hand: structuredClone(HAND_FILE_RANKING),
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
  before: { familyCap: 0, familySlot: 0 },
  "cap only": { familySlot: 0 },
  "namesake only": { familyCap: 0 },
  "cap 1": { familyCap: 1 },
  "cap 2": { familyCap: 2 },
  "namesake 3": { familySlot: 3 },
  "namesake 2": { familySlot: 2 },
  "namesake pool 30": { familyPool: 30 },
  "chunk 0.25": { chunk: 0.25 },
  "defs 0.25": { definitions: 0.25 },
  "defs 1": { definitions: 1 },
  "mentions 0.25": { mentions: 0.25 },
  "cochange leaders 5": { coChangeLeaders: 5 },
  "cochange leaders 1": { coChangeLeaders: 1 },
  "cochange min 3": { coChangeMinCommits: 3 },
  // csub: the scope's weight and the test-file multiplier (kept: scope 1, tests 0.3); the recency lift,
  // the bare `area:` header and the history's shape knobs lived in commit b82405a, not kept
  "scope 0": { scope: 0 },
  "scope 0.5": { scope: 0.5 },
  "scope 1.5": { scope: 1.5 },
  "scope 2": { scope: 2 },
  "tests 0.55": { tests: 0.55 },
  "tests 0.2": { tests: 0.2 },
  "tests 0.4": { tests: 0.4 },
  "before csub": { scope: 0, tests: 0.55 },
  "share 0": { nameShare: 0 },
  "share 0.25": { nameShare: 0.25 },
  "defs 0": { definitions: 0 },
  "chunk short 1.5": { chunkShort: 1.5 },
  "chunk short 3": { chunkShort: 3 },
  // qkind: the question's kind (a change request or a description) blending FILE_RANKING.change and describe (kept)
  "before qkind": { describe: {}, change: {} },
  "before csub and qkind": { scope: 0, tests: 0.55, describe: {}, change: {}, definitionsRarest: 0 },
  // vtfile3: a pasted issue's definitions by each file's rarest named one (kept: power 2)
  "before rarest": { definitionsRarest: 0 },
  "rarest 1": { definitionsRarest: 1 },
  "rarest 3": { definitionsRarest: 3 },
  "rarest 2 defs 0.4": { definitions: 0.4 },
  "rarest 2 defs 0.6": { definitions: 0.6 },
  // the defaults the records of "File families" (multi: Verified-tune, Lite dev) were made with: before the
  // families, csub's test multiplier and scope, the question's kind and the rarest definition (the --check for them)
  "before multi": { familyCap: 0, familySlot: 0, tests: 0.55, scope: 0, describe: {}, change: {}, definitionsRarest: 0 },
  "history 0": { history: 0 },
  "history 0.5": { history: 0.5 },
  // hubwrap: a long question's title in the file BM25 list (kept: 4; records with termScores only)
  "before titleLong": { titleLong: 2 },
  "titleLong 3": { titleLong: 3 },
  "titleLong 6": { titleLong: 6 },
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
    dump: { type: "string" },
    // with --dump: each term's part of the file BM25 list too (FileRecord.termScores; about 10x the record)
    "dump-terms": { type: "boolean", default: false },
    replay: { type: "string" },
    check: { type: "string", default: "base" },
    styles: { type: "string" },
    "variant-file": { type: "string" },
  },
});
// more variants, { name: { knob: value } }, for a sweep too long for the table below
if (values["variant-file"]) Object.assign(VARIANTS, JSON.parse(readFileSync(resolve(values["variant-file"]), "utf8")) as Record<string, Variant>);
if (values.split === "test") throw new Error("--split test: weights are chosen on dev only");

const names = chosenVariants(values.variants, VARIANTS);
// a knob FILE_RANKING lacks would do nothing where searchFiles does not read it, and where a scratch change
// reads it, stay set for every variant after it (restoring `base` resets only the knobs it has)
for (const name of names) {
  const unknown = Object.keys(VARIANTS[name]!).filter((knob) => !(knob in FILE_RANKING));
  if (unknown.length > 0)
    throw new Error(`variant '${name}' sets ${unknown.join(", ")}, which FILE_RANKING does not have (add the knob to HAND_FILE_RANKING first)`);
}
const base = { ...FILE_RANKING };
const rows: Array<{ id: string; gold: string[]; top: string[]; ranks: Record<string, Rank[]> }> = [];
if (values.replay) {
  let differs = 0;
  let misses = 0;
  const seen = new Set<string>();
  // the subjects' style for records made before it was recorded: { id: RecordedStyle } (scripts/eval/subject-styles.ts)
  const styles = values.styles ? (JSON.parse(readFileSync(resolve(values.styles), "utf8")) as Record<string, RecordedStyle>) : {};
  for (const file of values.replay.split(",")) {
    for (const line of readFileSync(resolve(file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const record = JSON.parse(line) as FileRecord;
      // two dumps of one instance (a split run in parts): the first counts
      if ((values.repo && !values.repo.includes(record.repo)) || seen.has(record.id)) continue;
      seen.add(record.id);
      record.style ??= styles[record.id];
      const row = { id: record.id, gold: record.gold, top: [] as string[], ranks: {} as Record<string, Rank[]> };
      const { engine, misses: m } = replayEngine(record);
      try {
        for (const name of names) {
          Object.assign(FILE_RANKING, base, VARIANTS[name]);
          const files = (await engine.searchFiles(record.query, 100, { mode: "keyword" })).map((f) => f.filePath);
          row.ranks[name] = goldRanks(files, record.gold);
          if (name === names[0]) row.top = files.slice(0, 10);
          if (name === values.check && files.join("\n") !== record.check.join("\n")) differs++;
        }
      } finally {
        Object.assign(FILE_RANKING, base);
      }
      misses += m.coChanges;
      rows.push(row);
    }
  }
  process.stderr.write(`replayed ${rows.length}; ${values.check} differs from the recorded ranking on ${differs}; co-change rows not recorded: ${misses}\n`);
} else {
  let instances = loadInstances(resolve(values.data!), { ...(values.split ? { split: values.split } : {}), ...(values.repo ? { repos: values.repo } : {}) });
  if (values.limit) instances = instances.slice(0, Number(values.limit));
  const work = resolve(values.work!);
  useFreshCortexHome(work);
  if (values.dump) mkdirSync(resolve(values.dump, ".."), { recursive: true });
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
        if (values.dump) {
          Object.assign(FILE_RANKING, base);
          const real = await session.requireReader();
          const raw: Partial<Raw> = {};
          const files = (await new SearchEngine(recordingReader(real, raw), folder.root).searchFiles(query, 100, { mode: "keyword" })).map((f) => f.filePath);
          const record = await makeRecord(real, raw, { id: instance.instance_id, repo: instance.repo, query, gold: instance.gold_files }, files);
          if (values["dump-terms"]) {
            const byScore = [...(raw.fileScores ?? new Map<string, number>())].sort((a, b) => b[1] - a[1]).slice(0, 300);
            record.termScores = await termParts(real, record, new Set([...files, ...instance.gold_files, ...byScore.map(([p]) => p)]));
          }
          appendFileSync(resolve(values.dump), JSON.stringify(record) + "\n");
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
}
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
