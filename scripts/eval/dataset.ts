/**
 * The evaluation's instances and where each repository's git history lives on this machine. Two kinds of
 * data file: SWE-bench localization rows (../shared/bench/README.md), and the generated query sets of
 * scripts/eval/sets/data (commit subjects → files, docstrings → functions; scripts/eval/build-sets.ts),
 * read into the same Instance shape. SWE-bench rows may get function labels from a third file
 * (swebench-functions.jsonl). Rows are validated field by field, so a broken data file fails with the
 * line and field at fault instead of skewing the metrics.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CortexError } from "../../src/core/errors.ts";
import { formatIssues } from "../../src/core/zod-issues.ts";

/** A string matching `re`; refine (not regex) so the message says the rule in words. */
const matching = (re: RegExp, rule: string) => z.string().refine((s) => re.test(s), rule);

const rowSchema = z.object({
  instance_id: z.string().min(1),
  repo: matching(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  base_commit: matching(/^[0-9a-f]{7,40}$/, "must be a commit id"),
  problem_statement: z.string(),
  gold_files: z.array(z.string().min(1)).min(1),
  fetch_source: matching(/^github:[^/\s]+\/[^/\s]+$/, "must be github:<owner>/<name>"),
  new_files: z.array(z.string()).optional(),
});

const functionLabel = z.object({
  file: z.string().min(1),
  name: z.string(),
  qualified_name: z.string(),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
});
export type FunctionLabel = z.infer<typeof functionLabel>;

const range = z.tuple([z.number().int().min(0), z.number().int().min(0)]);

const commitRowSchema = z.object({
  kind: z.literal("commit"),
  id: z.string().min(1),
  repo: matching(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  language: z.string().min(1),
  split: z.string().min(1),
  commit: matching(/^[0-9a-f]{40}$/, "must be a full commit id"),
  change: z.string(),
  query: z.string().min(1),
  files: z.array(z.string().min(1)).min(1),
  functions: z.array(functionLabel),
});

const docstringRowSchema = z.object({
  kind: z.literal("docstring"),
  id: z.string().min(1),
  repo: matching(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  language: z.string().min(1),
  split: z.string().min(1),
  commit: matching(/^[0-9a-f]{40}$/, "must be a full commit id"),
  file: z.string().min(1),
  function: z.string(),
  qualified_name: z.string(),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  query: z.string().min(1),
  strip: z.array(range).min(1),
});

const swebenchFunctionsSchema = z.object({ instance_id: z.string().min(1), split: z.string(), functions: z.array(functionLabel) });

/** Which files of a commit make the corpus: SWE-bench's protocol, or every source file (the generated sets). */
export type CorpusKind = "python-non-test" | "source";

export type Instance = z.infer<typeof rowSchema> & {
  /** The set the row comes from: swebench, commit or docstring. */
  set?: string;
  language?: string;
  split?: string;
  /** Functions to find (function-level metrics), when the row names them. */
  gold_functions?: FunctionLabel[];
  /** Comment ranges ([start, end) string offsets) to blank per file before indexing: the docstring set. */
  strip?: Record<string, Array<[number, number]>>;
  corpus?: CorpusKind;
  /** The commit the question was made from (a commit subject's own commit): it must never be readable from the indexed folder. */
  asked_commit?: string;
};

export interface InstanceFilter {
  /** Keep only these repositories (owner/name). */
  repos?: string[];
  /** Keep the first n rows (after the repository filter), in file order. */
  limit?: number;
  /** Keep only rows of this split (generated sets: dev or test). */
  split?: string;
}

/** A generated set's row as an Instance. */
function fromSetRow(raw: Record<string, unknown>, where: string): Instance {
  if (raw.kind === "commit") {
    const parsed = commitRowSchema.safeParse(raw);
    if (!parsed.success) throw new CortexError("INVALID_INPUT", `data: ${where}: ${formatIssues(parsed.error.issues)}`);
    const r = parsed.data;
    return {
      instance_id: r.id,
      repo: r.repo,
      base_commit: r.commit,
      problem_statement: r.query,
      gold_files: r.files,
      fetch_source: `github:${r.repo}`,
      asked_commit: r.change,
      set: "commit",
      language: r.language,
      split: r.split,
      // the parent's functions the commit's hunks touch: the commit set's function-level figures
      ...(r.functions.length > 0 ? { gold_functions: r.functions } : {}),
      corpus: "source",
    };
  }
  const parsed = docstringRowSchema.safeParse(raw);
  if (!parsed.success) throw new CortexError("INVALID_INPUT", `data: ${where}: ${formatIssues(parsed.error.issues)}`);
  const r = parsed.data;
  return {
    instance_id: r.id,
    repo: r.repo,
    base_commit: r.commit,
    problem_statement: r.query,
    gold_files: [r.file],
    fetch_source: `github:${r.repo}`,
    set: "docstring",
    language: r.language,
    split: r.split,
    gold_functions: [{ file: r.file, name: r.function, qualified_name: r.qualified_name, start_line: r.start_line, end_line: r.end_line }],
    strip: { [r.file]: r.strip as Array<[number, number]> },
    corpus: "source",
  };
}

/** Function labels of SWE-bench instances (scripts/eval/sets/data/swebench-functions.jsonl), by instance id. */
export function loadFunctionLabels(file: string): Map<string, { split: string; functions: FunctionLabel[] }> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `functions: cannot read ${file}: ${(e as Error).message}`);
  }
  const out = new Map<string, { split: string; functions: FunctionLabel[] }>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const parsed = swebenchFunctionsSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new CortexError("INVALID_INPUT", `functions: ${file}:${i + 1}: ${formatIssues(parsed.error.issues)}`);
    out.set(parsed.data.instance_id, { split: parsed.data.split, functions: parsed.data.functions });
  });
  return out;
}

export function loadInstances(file: string, filter: InstanceFilter = {}): Instance[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `data: cannot read ${file}: ${(e as Error).message}`);
  }
  const rows: Instance[] = [];
  const seen = new Set<string>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    let row: Instance;
    if (raw && typeof raw === "object" && "kind" in raw) row = fromSetRow(raw as Record<string, unknown>, `${file}:${i + 1}`);
    else {
      const parsed = rowSchema.safeParse(raw);
      if (!parsed.success) throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: ${formatIssues(parsed.error.issues)}`);
      row = { ...parsed.data, set: "swebench", corpus: "python-non-test" };
    }
    if (seen.has(row.instance_id)) throw new CortexError("INVALID_INPUT", `data: ${file}:${i + 1}: instance_id '${row.instance_id}' appears twice`);
    seen.add(row.instance_id);
    rows.push(row);
  });
  if (filter.repos && filter.repos.length > 0) {
    const unknown = filter.repos.filter((r) => !rows.some((row) => row.repo === r));
    if (unknown.length > 0) throw new CortexError("INVALID_INPUT", `repo: no instance of ${unknown.join(", ")} in ${file}`);
  }
  let kept = filter.repos && filter.repos.length > 0 ? rows.filter((r) => filter.repos!.includes(r.repo)) : rows;
  if (filter.split !== undefined) {
    kept = kept.filter((r) => r.split === filter.split);
    if (kept.length === 0) throw new CortexError("INVALID_INPUT", `split: no row of split '${filter.split}' in ${file}`);
  }
  return filter.limit === undefined ? kept : kept.slice(0, filter.limit);
}

/**
 * The git directory of an instance's repository under `mirrors`: the `fetch` tool puts a snapshot of
 * `github:<owner>/<name>` in `<mirrors>/<owner>+<name>/repo` (a bare repository); a plain clone at
 * `<mirrors>/<owner>+<name>` works as well.
 */
export function gitDirFor(instance: Instance, mirrors: string): string {
  const source = instance.fetch_source.slice("github:".length);
  const base = join(mirrors, source.replace("/", "+"));
  for (const candidate of [join(base, "repo"), join(base, "repo", ".git"), base, join(base, ".git")]) {
    if (existsSync(join(candidate, "HEAD")) && existsSync(join(candidate, "objects"))) return candidate;
  }
  throw new CortexError("NOT_FOUND", `no git repository for ${instance.repo} at ${base}: fetch ${instance.fetch_source} first`);
}
