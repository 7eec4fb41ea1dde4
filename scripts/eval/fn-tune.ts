#!/usr/bin/env bun
/**
 * Function-level ranking variants (FUNCTION_RANKING, src/engines/search/function-promotion.ts) compared on
 * saved candidates, so a variant costs seconds instead of the hour a SWE-bench split takes to index.
 *
 * `--dump file.jsonl`: indexes every labelled instance exactly as scripts/eval.ts does (same corpus rule,
 * base commit, condensed query, keyword mode) and writes, per instance, the fused chunk candidates the
 * chunk list is ranked from (the pool `cortex_search` ranks for limit 100: scores, spans, kinds, names),
 * the whole-file ranking's first 100 files, and the function ranks of the real chunk list (`check`); for
 * studies beyond FUNCTION_RANKING's knobs, each definition candidate also carries its symbol id and the
 * names it calls (`calls`, `name@targetId` when resolved) and its rank for the question's first line alone
 * (`titleRank`): call-graph lifts and a title list were measured on them and not kept (docs/benchmarks.md).
 * `--replay file.jsonl[,file2…]`: ranks each saved pool under every variant as the engine does (promote,
 * collapse, first 100), and prints function-level Acc@1/3/5/10 per variant with the instances won and
 * lost at 5 against the first; the `base` variant must give the `check` ranks (it says when not).
 *
 *   bun scripts/eval/fn-tune.ts --data ../shared/bench/swebench_verified_tune.jsonl \
 *     --functions scripts/eval/sets/data/swebench-functions.jsonl [--repo r]... --work dir --dump out.jsonl
 *   bun scripts/eval/fn-tune.ts --replay out.jsonl [--variants base,...] [--misses]
 */
import { parseArgs } from "node:util";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { condenseQuery } from "../../src/engines/search/long-query.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { collapse, type Candidate } from "../../src/engines/search/rank.ts";
import { FUNCTION_RANKING, promoteFunctions, type FileRanking } from "../../src/engines/search/function-promotion.ts";
import { assertHistoryAt, useFreshCortexHome } from "./corpus.ts";
import { chosenVariants, forEachRepository } from "./harness.ts";
import { loadFunctionLabels, loadInstances, type Instance } from "./dataset.ts";
import { functionRanks, type ChunkSpan, type Rank, type SpanLabel } from "./metrics.ts";
import { chunksFromResult } from "./cortex-ranker.ts";
import { KEYWORD_WEIGHTS } from "../../src/engines/search/index.ts";
import type { IndexReader, SymbolRow } from "../../src/store/contract.ts";

type Weights = typeof FUNCTION_RANKING;

/** A saved candidate: the engine's Candidate with its chunk's span and name. */
interface SavedCandidate extends Candidate {
  /** Not in the engine's pool (dumps of commit cab4187 added chunks only a weighted list found). */
  extra?: boolean;
  start: number;
  end: number;
  name?: string;
  /** The definition's symbol id (definition chunks whose symbol was found). */
  sym?: number;
  /** What the definition calls: `name` or `name@targetSymbolId` when resolution found the target. */
  calls?: string[];
  /** Rank in the keyword list of the question's first line alone (1-based), when it found the chunk. */
  titleRank?: number;
}

interface Dumped {
  id: string;
  repo: string;
  set?: string;
  split?: string;
  language?: string;
  query: string;
  gold: string[];
  functions: SpanLabel[];
  /** Whole-file ranking (searchFiles, 100), best first. */
  files: string[];
  /** Its scores, in the same order. */
  fileScores?: number[];

  /** Fused candidates before function promotion, in fused order. */
  candidates: SavedCandidate[];
  /** Function ranks of the real chunk list (cortex_search, limit 100). */
  check: Rank[];
  error?: string;
}

/** Variants that rank without the whole-file ranking (the candidates' own file support only). */
const WITHOUT_FILES = new Set(["no whole-file support", "before (pre-fnlev)"]);

/**
 * The variants; the first one named is the reference of the won / lost columns. Knobs measured with this
 * script and not kept (a definition the question names as code, a function-size prior, a file-rank
 * multiplier, the chunk BM25 under the file ranking's term weights as a second list) are in commit cab4187
 * (docs/benchmarks.md, "Function-level answers for pasted issues").
 */
const VARIANTS: Record<string, Partial<Weights>> = {
  base: {},
  "before (pre-fnlev)": { nameLongFade: 0, typeLong: 1, otherLong: 1, shortQueryTerms: Number.POSITIVE_INFINITY },
  "no whole-file support": {},
  "name kept": { nameLongFade: 0 },
  "types 1": { typeLong: 1 },
  "types 0.5": { typeLong: 0.5 },
  "others 1": { otherLong: 1 },
  "others 0.3": { otherLong: 0.3 },
  "name fade 0.5": { nameLongFade: 0.5 },
  "short 18": { shortQueryTerms: 18 },
  "short 24": { shortQueryTerms: 24 },
  "no title": { titleName: 0 },
  "title 0.5": { titleName: 0.5 },
  "title 2": { titleName: 2 },
  "no lead": { leadFileFunctions: 0 },
  "lead 1": { leadFileFunctions: 1 },
  "lead 2": { leadFileFunctions: 2 },
  "lead 4": { leadFileFunctions: 4 },
  "lead gap 1.1": { leadFileGap: 1.1 },
  "lead gap 1.5": { leadFileGap: 1.5 },
  "before (fnlev2)": { titleName: 0, leadFileFunctions: 0 },
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string" },
    functions: { type: "string" },
    split: { type: "string" },
    repo: { type: "string", multiple: true },
    limit: { type: "string" },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-fn-tune") },
    dump: { type: "string" },
    replay: { type: "string" },
    variants: { type: "string" },
    misses: { type: "boolean", default: false },
    "by-repo": { type: "boolean", default: false },
  },
});

if (values.dump) await dump();
else if (values.replay) replay();
else throw new Error("--dump out.jsonl or --replay in.jsonl");

async function dump(): Promise<void> {
  if (!values.data) throw new Error("--data");
  if (values.split === "test") throw new Error("--split test: variants are chosen on dev and tune splits only");
  let instances: Instance[] = loadInstances(resolve(values.data), values.repo ? { repos: values.repo } : {});
  if (values.functions) {
    const labels = loadFunctionLabels(resolve(values.functions));
    instances = instances.map((i) => {
      const l = labels.get(i.instance_id);
      return l ? { ...i, gold_functions: l.functions, split: l.split } : i;
    });
  }
  if (values.split) instances = instances.filter((i) => i.split === values.split);
  if (instances.some((i) => i.split === "test")) throw new Error("test rows: pass --split dev");
  instances = instances.filter((i) => (i.gold_functions?.length ?? 0) > 0);
  if (values.limit) instances = instances.slice(0, Number(values.limit));
  const out = resolve(values.dump!);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, "");
  const work = resolve(values.work!);
  useFreshCortexHome(work);
  let done = 0;
  await forEachRepository(instances, { work, mirrors: resolve(values.mirrors!) }, async (group, folder, session) => {
    for (const instance of group.instances) {
      const labels = instance.gold_functions!;
      const row: Dumped = {
        id: instance.instance_id,
        repo: instance.repo,
        ...(instance.set ? { set: instance.set } : {}),
        ...(instance.split ? { split: instance.split } : {}),
        ...(instance.language ? { language: instance.language } : {}),
        query: "",
        gold: instance.gold_files,
        functions: labels,
        files: [],
        candidates: [],
        check: labels.map(() => null),
      };
      try {
        await folder.checkout(instance.base_commit, instance.asked_commit);
        await session.index();
        const reader = await session.requireReader();
        await assertHistoryAt((k) => reader.meta(k), instance.base_commit);
        const engine = await session.search();
        const { query } = condenseQuery(instance.problem_statement);
        row.query = query;
        const q = analyzeQuery(query);
        const opts = { query, limit: 100, mode: "keyword" as const };
        const { ranked } = await engine.candidates(q, opts, 500);
        const rows = await reader.chunksById(
          ranked.map((c) => c.id),
          { text: false },
        );
        row.candidates = ranked.map((c) => {
          const r = rows.get(c.id)!;
          const meta = typeof r.metadata === "string" ? (JSON.parse(r.metadata) as { name?: unknown }) : {};
          return { ...c, start: r.start_line as number, end: r.end_line as number, ...(typeof meta.name === "string" ? { name: meta.name } : {}) };
        });
        await addGraphFacts(reader, row.candidates);
        const title = query.split("\n").find((l) => l.trim() !== "") ?? "";
        const titleHits = await reader.keywordSearch(analyzeQuery(title).terms, KEYWORD_WEIGHTS, {}, 500);
        const titleRank = new Map(titleHits.map((h, i) => [h.id, i + 1]));
        for (const c of row.candidates) if (titleRank.has(c.id)) c.titleRank = titleRank.get(c.id)!;
        const files = await engine.searchFiles(query, 100, { mode: "keyword" });
        row.files = files.map((f) => f.filePath);
        row.fileScores = files.map((f) => f.score);
        row.check = functionRanks(chunksFromResult(await engine.search(opts)), labels);
      } catch (e) {
        row.error = String(e);
      }
      appendFileSync(out, JSON.stringify(row) + "\n");
      done++;
      process.stderr.write(`${done}/${instances.length} ${row.id} ${JSON.stringify(row.check)}${row.error ? ` FAILED ${row.error}` : ""}\n`);
    }
  });
}

/** Each definition candidate's symbol id and the names it calls (the call graph among the pool). */
async function addGraphFacts(reader: IndexReader, candidates: SavedCandidate[]): Promise<void> {
  const defs = candidates.filter((c) => c.chunkType === "definitions" && c.name);
  const symbols = await reader.symbolsOfFiles([...new Set(defs.map((c) => c.filePath))]);
  const byFileName = new Map<string, SymbolRow[]>();
  for (const s of symbols) {
    const k = `${s.file}#${s.name}`;
    const list = byFileName.get(k);
    if (list) list.push(s);
    else byFileName.set(k, [s]);
  }
  for (const c of defs) {
    const found = (byFileName.get(`${c.filePath}#${c.name}`) ?? []).filter((s) => s.line >= c.start - 1 && s.line <= c.end);
    found.sort((a, b) => Math.abs(a.line - c.start) - Math.abs(b.line - c.start));
    if (found[0]) c.sym = found[0].id;
  }
  const ids = defs.flatMap((c) => (c.sym !== undefined ? [c.sym] : []));
  const calls = new Map<number, Set<string>>();
  for (const r of await reader.refsInside(ids)) {
    if (r.kind !== "call" || r.enclosingId === null) continue;
    const set = calls.get(r.enclosingId) ?? new Set<string>();
    set.add(r.targetId !== null ? `${r.name}@${r.targetId}` : r.name);
    calls.set(r.enclosingId, set);
  }
  for (const c of defs) if (c.sym !== undefined && calls.has(c.sym)) c.calls = [...calls.get(c.sym)!];
}

/** The chunk list a saved pool gives under weights `w`: the engine's steps after fusion. */
function rankSaved(row: Dumped, w: Weights, withFiles = true): ChunkSpan[] {
  const q = analyzeQuery(row.query);
  const pool = row.candidates.filter((c) => !c.extra).map((c) => ({ ...c }));
  const files: FileRanking = row.files.map((filePath, i) => ({ filePath, score: row.fileScores?.[i] ?? 1 / (1 + i) }));
  const top = collapse(promoteFunctions(pool, q, w, withFiles ? files : undefined), false).slice(0, 100) as SavedCandidate[];
  return top.map((c) => ({
    path: c.filePath,
    start_line: c.start,
    end_line: c.end,
    chunk_type: c.chunkType,
    ...(c.kind ? { kind: c.kind } : {}),
    ...(c.name ? { name: c.name } : {}),
  }));
}

function replay(): void {
  const rows: Dumped[] = [];
  for (const f of values.replay!.split(",")) {
    for (const line of readFileSync(resolve(f), "utf8").split("\n")) if (line.trim()) rows.push(JSON.parse(line) as Dumped);
  }
  const names = chosenVariants(values.variants, VARIANTS);
  const ranks = new Map<string, Rank[][]>();
  const tops = new Map<string, ChunkSpan[][]>();
  for (const name of names) {
    const w = { ...FUNCTION_RANKING, ...VARIANTS[name] };
    const all: Rank[][] = [];
    const t: ChunkSpan[][] = [];
    for (const row of rows) {
      if (row.error) {
        all.push(row.functions.map(() => null));
        t.push([]);
        continue;
      }
      const chunks = rankSaved(row, w, !WITHOUT_FILES.has(name));
      all.push(functionRanks(chunks, row.functions));
      t.push(chunks.slice(0, 5));
    }
    ranks.set(name, all);
    tops.set(name, t);
  }
  const at = (r: Rank[], k: number) => r.length > 0 && r.every((x) => x !== null && x < k);
  const ref = names[0]!;
  const base = ranks.get(ref)!;
  const mismatch = rows.filter((row, i) => !row.error && JSON.stringify(row.check) !== JSON.stringify(base[i]));
  // the saved chunk list is the engine's at dump time: the variant that reproduces that engine must equal it
  console.log(
    `${ref} equals the saved chunk lists on ${rows.length - mismatch.length} of ${rows.length}${
      mismatch.length > 0
        ? ` (not: ${mismatch
            .slice(0, 5)
            .map((r) => r.id)
            .join(" ")})`
        : ""
    }`,
  );
  const fileAt5 = (row: Dumped) => row.gold.every((g) => row.files.slice(0, 5).includes(g));
  console.log(`${rows.length} instances (${rows.filter((r) => r.error).length} failed); gold files all in the file top 5: ${rows.filter(fileAt5).length}`);
  console.log(`| variant | n | fn Acc@1 | Acc@3 | Acc@5 | Acc@10 | @5 won / lost vs ${ref} |`);
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const name of names) {
    const r = ranks.get(name)!;
    const pct = (k: number) => ((100 * r.filter((x) => at(x, k)).length) / r.length).toFixed(1);
    const won = r.filter((x, i) => at(x, 5) && !at(base[i]!, 5)).length;
    const lost = r.filter((x, i) => !at(x, 5) && at(base[i]!, 5)).length;
    console.log(`| ${name} | ${r.length} | ${pct(1)} | ${pct(3)} | ${pct(5)} | ${pct(10)} | +${won} / −${lost} |`);
  }
  if (values["by-repo"]) {
    console.log(`\n| repository | n | ${names.map((n) => `${n} Acc@1 / Acc@5`).join(" | ")} |`);
    console.log(`|---|---:|${names.map(() => "---:").join("|")}|`);
    for (const repo of [...new Set(rows.map((r) => r.repo))]) {
      const idx = rows.flatMap((r, i) => (r.repo === repo ? [i] : []));
      const cell = (name: string) => {
        const r = ranks.get(name)!;
        const pct = (k: number) => ((100 * idx.filter((i) => at(r[i]!, k)).length) / idx.length).toFixed(1);
        return `${pct(1)} / ${pct(5)}`;
      };
      console.log(`| ${repo} | ${idx.length} | ${names.map(cell).join(" | ")} |`);
    }
  }
  if (values.misses) {
    const last = names[names.length - 1]!;
    rows.forEach((row, i) => {
      const r = ranks.get(last)![i]!;
      if (at(r, 5)) return;
      console.log(
        `\n${row.id} ranks ${JSON.stringify(r)} file@5 ${fileAt5(row)} gold ${row.functions.map((f) => `${f.file}:${f.start_line}-${f.end_line} ${f.name}`).join(", ")}`,
      );
      console.log(`  title: ${row.query.split("\n")[0]!.slice(0, 150)}`);
      console.log(`  files: ${row.files.slice(0, 5).join(" ")}`);
      for (const c of tops.get(last)![i]!) console.log(`  ${c.chunk_type} ${c.path}:${c.start_line}-${c.end_line} ${c.kind ?? ""} ${c.name ?? ""}`);
    });
  }
}
