#!/usr/bin/env bun
/**
 * Builds the labelled query sets that nobody wrote by hand (issue 15, item 1) from public repositories'
 * history, into scripts/eval/sets/data/ as JSONL:
 *
 *   commits.jsonl    (a) a commit's subject → the source files it modified (and the functions its hunks
 *                    touch), indexed at the parent commit; merges, reverts, housekeeping, formatting-only,
 *                    vendored and >10-file commits left out (scripts/eval/sets/commit-filter.ts)
 *   docstrings.jsonl (b) a function's docstring or leading comment → that function, in files of the
 *                    repository's language; each row carries the string ranges of the comment, which the
 *                    harness blanks in the copy it indexes
 *   edits.jsonl      edit tasks for the preflight (issue 15, item 6): a sample of commits.jsonl plus the
 *                    11-40-file sweeps it leaves out, each labelled local or broad (scripts/eval/sets/edit-tasks.ts)
 *   swebench-functions.jsonl  (c) SWE-bench instances (../shared/bench) at function level: the functions of
 *                    the base commit's files that the gold patch's hunks touch, found with cortex's own parse
 *
 * Rows hold queries and labels only, never the repositories' code. Samples are seeded, so a re-run over
 * the same pinned commits writes the same files.
 *
 * To re-run: fetch every repository of scripts/eval/sets/repos.ts (`github:<owner>/<name>`), and for (c)
 * every `fetch_source` of ../shared/bench/*.jsonl, with the lead's fetch tool (it leaves bare repositories
 * in /work/.mirror/<owner>+<name>/repo), then
 *
 *   bun scripts/eval/build-sets.ts --mirrors /work/.mirror [--kinds commits,docstrings,swebench]
 *     [--commits-per-repo 60] [--docs-per-repo 100] [--edits-per-repo 12] [--sweeps-per-repo 3] [--window 600] [--bench ../shared/bench] [--out dir]
 *
 * --window: how many of the newest commits before the pin the commit set samples from (recent history
 * keeps consecutive parents close, so the harness's incremental indexing stays cheap).
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FactsParser } from "../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { FunctionFact } from "../../src/lang/types.ts";
import { CortexError, errorMessage } from "../../src/core/errors.ts";
import { git, listTree, readBlobs } from "./git-snapshot.ts";
import { judgeCommit, parseLog, type CommitCandidate, type Verdict } from "./sets/commit-filter.ts";
import { docComments } from "./sets/doc-comments.ts";
import { changedLines, touchedFunctions, type FunctionLabel } from "./sets/hunks.ts";
import { PINNED_REPOS, type PinnedRepo } from "./sets/repos.ts";
import { isInLanguage, isLabelSource } from "./sets/source-paths.ts";
import { seedOf, shuffled } from "./sets/sample.ts";
import { editTaskRows, sweepJudge, type EditTaskRow } from "./sets/edit-tasks.ts";

const REPO_ROOT = resolve(import.meta.dir, "..", "..");
const KINDS = ["commits", "docstrings", "swebench", "edits"] as const;
const decoder = new TextDecoder("utf-8", { fatal: false });
const project = emptyProjectInfo();

export interface CommitRow {
  kind: "commit";
  id: string;
  repo: string;
  language: string;
  split: string;
  /** The parent: the commit to index. */
  commit: string;
  /** The commit whose subject is the query. */
  change: string;
  query: string;
  files: string[];
  functions: FunctionLabel[];
  test_files: string[];
  added_files: string[];
  deleted_files: string[];
}

export interface DocstringRow {
  kind: "docstring";
  id: string;
  repo: string;
  language: string;
  split: string;
  commit: string;
  file: string;
  function: string;
  qualified_name: string;
  start_line: number;
  end_line: number;
  query: string;
  /** [start, end) string offsets in `file` (decoded as UTF-8) to blank before indexing. */
  strip: Array<[number, number]>;
}

export interface SwebenchFunctionsRow {
  instance_id: string;
  repo: string;
  base_commit: string;
  split: string;
  functions: FunctionLabel[];
  /** Touched spans outside every function (module-level code, class bodies, imports). */
  outside_functions: number;
}

/** The bare repository the fetch tool left for `owner/name`. */
export function mirrorOf(mirrors: string, source: string): string {
  const base = join(mirrors, source.replace("/", "+"));
  for (const c of [join(base, "repo"), base]) if (existsSync(join(c, "objects"))) return c;
  throw new CortexError("NOT_FOUND", `no git directory for ${source} under ${mirrors}: fetch github:${source} first`);
}

async function gitText(gitDir: string, args: string[]): Promise<string> {
  return decoder.decode(await git(gitDir, args));
}

/** The file at a commit, or undefined when the commit does not hold it. */
async function fileAt(gitDir: string, commit: string, path: string): Promise<string | undefined> {
  try {
    return await gitText(gitDir, ["show", `${commit}:${path}`]);
  } catch {
    return undefined;
  }
}

async function functionsOf(parser: FactsParser, path: string, text: string): Promise<FunctionFact[]> {
  return (await parser.parse(path, text, project)).facts?.functions ?? [];
}

/** (a) Commit subjects → modified source files, from the newest `window` commits before the pin. */
export async function commitRows(
  gitDir: string,
  pin: PinnedRepo,
  parser: FactsParser,
  options: { perRepo: number; window: number; judge?: (c: CommitCandidate) => Verdict },
): Promise<CommitRow[]> {
  const raw = await gitText(gitDir, ["log", "--no-merges", "--no-renames", `-n${options.window}`, "--format=%x01%H %P%x02%s", "--name-status", pin.commit]);
  const judge = options.judge ?? judgeCommit;
  const candidates = parseLog(raw).flatMap((c) => {
    const v = judge(c);
    return v.ok ? [{ c, v }] : [];
  });
  const rows: CommitRow[] = [];
  for (const { c, v } of shuffled(candidates, seedOf(pin.repo))) {
    if (rows.length >= options.perRepo) break;
    const parent = c.parents[0]!;
    // formatting-only: nothing left once whitespace is ignored
    const numstat = await gitText(gitDir, ["diff", "-w", "--ignore-blank-lines", "--numstat", parent, c.sha, "--", ...v.files]);
    if (!numstat.split("\n").some((l) => /^[1-9]|^\d+\t[1-9]/.test(l))) continue;
    const diff = await gitText(gitDir, ["diff", "-U0", "--no-renames", parent, c.sha, "--", ...v.files]);
    const touched = changedLines(diff);
    const functions: FunctionLabel[] = [];
    for (const file of v.files) {
      const text = await fileAt(gitDir, parent, file);
      if (text === undefined) continue;
      functions.push(...touchedFunctions(file, await functionsOf(parser, file, text), touched.get(file) ?? []));
    }
    rows.push({
      kind: "commit",
      id: `${pin.repo}@${c.sha.slice(0, 12)}`,
      repo: pin.repo,
      language: pin.language,
      split: pin.split,
      commit: parent,
      change: c.sha,
      query: c.subject.trim(),
      files: v.files,
      functions,
      test_files: v.testFiles,
      added_files: v.addedFiles,
      deleted_files: v.deletedFiles,
    });
  }
  return rows;
}

/** At most this many functions of one file, so a sample spreads over the repository. */
const DOCS_PER_FILE = 3;

/** (b) Docstrings and leading comments → their function, at the pinned commit. */
export async function docstringRows(gitDir: string, pin: PinnedRepo, parser: FactsParser, options: { perRepo: number }): Promise<DocstringRow[]> {
  // only the repository's own language, so the per-language figures mean what they say
  const entries = (await listTree(gitDir, pin.commit)).filter((e) => isLabelSource(e.path) && isInLanguage(e.path, pin.language));
  const blobs = await readBlobs(
    gitDir,
    entries.map((e) => e.blob),
  );
  const candidates: DocstringRow[] = [];
  for (const e of entries) {
    const bytes = blobs.get(e.blob);
    if (!bytes) continue;
    const text = decoder.decode(bytes);
    const parsed = await parser.parse(e.path, text, project);
    if (!parsed.facts || !parsed.comments) continue;
    const functions = parsed.facts.functions;
    for (const [i, doc] of docComments(text, { language: parsed.language, functions, comments: parsed.comments })) {
      const fn = functions[i]!;
      candidates.push({
        kind: "docstring",
        id: `${pin.repo}:${e.path}:${fn.startLine}`,
        repo: pin.repo,
        language: pin.language,
        split: pin.split,
        commit: pin.commit,
        file: e.path,
        function: fn.name,
        qualified_name: fn.qualifiedName,
        start_line: fn.startLine,
        end_line: fn.endLine,
        query: doc.query,
        strip: doc.ranges,
      });
    }
  }
  // A description shared by several functions (overloads, an interface and its implementations) names none of them.
  const count = new Map<string, number>();
  for (const c of candidates) count.set(c.query.toLowerCase(), (count.get(c.query.toLowerCase()) ?? 0) + 1);
  const perFile = new Map<string, number>();
  const rows: DocstringRow[] = [];
  for (const c of shuffled(candidates, seedOf(pin.repo, 2))) {
    if (rows.length >= options.perRepo) break;
    if (count.get(c.query.toLowerCase())! > 1 || (perFile.get(c.file) ?? 0) >= DOCS_PER_FILE) continue;
    perFile.set(c.file, (perFile.get(c.file) ?? 0) + 1);
    rows.push(c);
  }
  return rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start_line - b.start_line));
}

/** (c) SWE-bench instances → the functions the gold patch touches at the base commit. */
export async function swebenchRows(dataFile: string, split: string, mirrors: string, parser: FactsParser): Promise<SwebenchFunctionsRow[]> {
  const rows: SwebenchFunctionsRow[] = [];
  for (const line of readFileSync(dataFile, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { instance_id: string; repo: string; base_commit: string; patch: string; gold_files: string[]; fetch_source: string };
    const gitDir = mirrorOf(mirrors, r.fetch_source.replace(/^github:/, ""));
    const touched = changedLines(r.patch);
    const functions: FunctionLabel[] = [];
    let outside = 0;
    for (const file of r.gold_files) {
      const text = await fileAt(gitDir, r.base_commit, file);
      const spans = touched.get(file) ?? [];
      if (text === undefined) {
        outside += spans.length;
        continue;
      }
      const facts = await functionsOf(parser, file, text);
      functions.push(...touchedFunctions(file, facts, spans));
      outside += spans.filter((t) => !facts.some((f) => f.startLine <= t.end && f.endLine >= t.start)).length;
    }
    rows.push({ instance_id: r.instance_id, repo: r.repo, base_commit: r.base_commit, split, functions, outside_functions: outside });
  }
  return rows;
}

function writeJsonl(file: string, rows: unknown[]): void {
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

function positive(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CortexError("INVALID_INPUT", `--${name}: must be a positive integer, got '${raw}'`);
  return n;
}

export async function buildSets(argv: string[], progress: (line: string) => void = (l) => process.stderr.write(l + "\n")): Promise<Record<string, number>> {
  const { values } = parseArgs({
    args: argv,
    options: {
      mirrors: { type: "string", default: "/work/.mirror" },
      kinds: { type: "string", default: KINDS.join(",") },
      "commits-per-repo": { type: "string" },
      "docs-per-repo": { type: "string" },
      "edits-per-repo": { type: "string" },
      "sweeps-per-repo": { type: "string" },
      window: { type: "string" },
      bench: { type: "string" },
      out: { type: "string" },
    },
    strict: true,
  });
  const kinds = values.kinds!.split(",").filter((k) => k !== "");
  for (const k of kinds)
    if (!(KINDS as readonly string[]).includes(k)) throw new CortexError("INVALID_INPUT", `--kinds: '${k}' is not one of ${KINDS.join(", ")}`);
  const mirrors = resolve(values.mirrors!);
  const out = resolve(values.out ?? join(REPO_ROOT, "scripts", "eval", "sets", "data"));
  mkdirSync(out, { recursive: true });
  const perRepoCommits = positive(values["commits-per-repo"], "commits-per-repo", 60);
  const perRepoDocs = positive(values["docs-per-repo"], "docs-per-repo", 100);
  const window = positive(values.window, "window", 600);
  const parser = await FactsParser.create();
  const counts: Record<string, number> = {};
  if (kinds.includes("commits") || kinds.includes("docstrings")) {
    const commits: CommitRow[] = [];
    const docs: DocstringRow[] = [];
    for (const pin of PINNED_REPOS) {
      const gitDir = mirrorOf(mirrors, pin.repo);
      if (kinds.includes("commits")) {
        const rows = await commitRows(gitDir, pin, parser, { perRepo: perRepoCommits, window });
        commits.push(...rows);
        progress(`${pin.repo}: ${rows.length} commit queries`);
      }
      if (kinds.includes("docstrings")) {
        const rows = await docstringRows(gitDir, pin, parser, { perRepo: perRepoDocs });
        docs.push(...rows);
        progress(`${pin.repo}: ${rows.length} docstring queries`);
      }
    }
    if (kinds.includes("commits")) {
      writeJsonl(join(out, "commits.jsonl"), commits);
      counts.commits = commits.length;
    }
    if (kinds.includes("docstrings")) {
      writeJsonl(join(out, "docstrings.jsonl"), docs);
      counts.docstrings = docs.length;
    }
  }
  if (kinds.includes("swebench")) {
    const bench = resolve(
      values.bench ??
        [join(REPO_ROOT, "..", "shared", "bench"), join(REPO_ROOT, "..", "..", "shared", "bench")].find((p) => existsSync(p)) ??
        "../shared/bench",
    );
    const rows: SwebenchFunctionsRow[] = [];
    for (const [file, split] of [
      ["swebench_lite_dev.jsonl", "dev"],
      ["swebench_verified_tune.jsonl", "tune"],
    ] as const) {
      const got = await swebenchRows(join(bench, file), split, mirrors, parser);
      rows.push(...got);
      progress(`${file}: ${got.length} instances, ${got.reduce((s, r) => s + r.functions.length, 0)} functions`);
    }
    writeJsonl(join(out, "swebench-functions.jsonl"), rows);
    counts.swebench = rows.length;
  }
  if (kinds.includes("edits")) {
    // from the commit set on disk (written above when both kinds run), so the tasks are rows of it
    const commits = readFileSync(join(out, "commits.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as CommitRow);
    const rows: EditTaskRow[] = [];
    for (const pin of PINNED_REPOS) {
      const gitDir = mirrorOf(mirrors, pin.repo);
      const sweeps = await commitRows(gitDir, pin, parser, { perRepo: positive(values["sweeps-per-repo"], "sweeps-per-repo", 3), window, judge: sweepJudge });
      const got = await editTaskRows(
        gitDir,
        commits.filter((c) => c.repo === pin.repo),
        sweeps,
        positive(values["edits-per-repo"], "edits-per-repo", 12),
      );
      rows.push(...got);
      progress(`${pin.repo}: ${got.length} edit tasks (${got.filter((r) => r.scope === "broad").length} broad)`);
    }
    writeJsonl(join(out, "edits.jsonl"), rows);
    counts.edits = rows.length;
  }
  return counts;
}

if (import.meta.main) {
  try {
    const counts = await buildSets(process.argv.slice(2));
    console.log(JSON.stringify(counts));
  } catch (e) {
    process.stderr.write(`build-sets: ${errorMessage(e)}\n`);
    process.exit(1);
  }
}
