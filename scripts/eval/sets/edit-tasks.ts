/**
 * Edit tasks for the preflight evaluation (issue 15, item 6): a commit's subject is the task an agent is
 * given, the non-test source files it modified are the files the change needs, and the parent is the code
 * the agent starts from. Each task is labelled local or broad. A broad task must never get `ready: true`,
 * whatever the search finds: it changes many files (a sweep), or it touches a function that many other
 * files name (its callers would have to be read, and often changed, too). Rows come from the commit set
 * (commits.jsonl, up to 10 files) and from a second pass over the same history that keeps the sweeps of
 * 11 to 40 files the commit set leaves out.
 */
import { git } from "../git-snapshot.ts";
import { judgeCommit, MAX_CHANGED_FILES, type CommitCandidate, type Verdict } from "./commit-filter.ts";
import type { CommitRow } from "../build-sets.ts";
import type { FunctionLabel } from "./hunks.ts";
import { isLabelSource } from "./source-paths.ts";
import { seedOf, shuffled } from "./sample.ts";

/** A task changing this many non-test source files (modified, added or deleted) is broad. */
export const BROAD_FILES = 4;
/** A task touching a function named in this many other non-test source files is broad. */
export const BROAD_FAN_IN = 10;
/** The broad pass: sweeps of up to this many files. */
export const SWEEP_MAX_FILES = 40;
/** Names shorter than this are too generic to count callers by (`get`, `new`, `Run`…). */
const MIN_NAME = 4;
/**
 * Methods the language's runtime calls by protocol (constructors, dunders, equality, printing): their name
 * is everywhere because every class has one, not because anyone calls this one.
 */
const PROTOCOL_NAME =
  /^(__\w+__|constructor|__construct|initialize|init|main|toString|to_s|inspect|equals|hashCode|compareTo|String|Error|fmt|drop|clone|default|from|into|call|render|handle|__invoke|__get|__set|__call|__toString|offsetGet|offsetSet|getIterator|count|jsonSerialize|serialize|deserialize)$/;

/**
 * A commit row as an edit task: the task is the commit's subject (`query`), and the evidence is complete
 * when the card names every modified non-test source file (`files`).
 */
export interface EditTaskRow extends CommitLike {
  kind: "edit";
  scope: "local" | "broad";
  /** Why a task is broad: "12 source files", "parse named in 23 files". */
  broad_because: string[];
  /** For each touched function (long enough a name), the other non-test source files that name it at the parent. */
  fan_in: Array<{ name: string; files: number }>;
}

/** The commits the broad pass keeps: what the commit set keeps, but with 11 to 40 changed files. */
export function sweepJudge(c: CommitCandidate): Verdict {
  if (c.files.length <= MAX_CHANGED_FILES) return { ok: false, reason: "not a sweep" };
  return judgeCommit(c, SWEEP_MAX_FILES);
}

/** Non-test source files a commit changes: what the task asks to write. */
export function changedSources(row: Pick<EditTaskRow, "files" | "added_files" | "deleted_files">): string[] {
  return [...new Set([...row.files, ...row.added_files.filter(isLabelSource), ...row.deleted_files.filter(isLabelSource)])];
}

/** Files of `commit` matching `git grep` with these options, as paths. */
async function grepFiles(gitDir: string, commit: string, options: string[], pattern: string): Promise<Set<string>> {
  let raw = "";
  try {
    raw = new TextDecoder().decode(await git(gitDir, ["grep", "-l", "-F", ...options, "-e", pattern, commit]));
  } catch {
    raw = ""; // git grep exits 1 when nothing matches
  }
  return new Set(
    raw
      .split("\n")
      .map((l) => l.slice(commit.length + 1))
      .filter((p) => p !== "" && isLabelSource(p)),
  );
}

/** The type a method belongs to: the nearest segment of its qualified name before it that starts upper-case. */
function ownerOf(f: FunctionLabel): string | undefined {
  const parts = f.qualified_name.split(/[.:#]+/).filter((p) => p !== "");
  if (parts[parts.length - 1] === f.name) parts.pop();
  for (let i = parts.length - 1; i >= 0; i--) if (/^[A-Z]/.test(parts[i]!)) return parts[i];
  return undefined;
}

/**
 * Other non-test source files naming each touched function at the parent commit: the name as a whole word,
 * and for a method also its type's name (any case, so `gson.getAdapter` counts for `Gson.getAdapter`):
 * `read` alone is in every file that reads something.
 */
export async function fanIn(gitDir: string, commit: string, functions: readonly FunctionLabel[]): Promise<Array<{ name: string; files: number }>> {
  const out: Array<{ name: string; files: number }> = [];
  const seen = new Set<string>();
  for (const f of functions) {
    if (f.name.length < MIN_NAME || PROTOCOL_NAME.test(f.name) || seen.has(f.qualified_name)) continue;
    seen.add(f.qualified_name);
    const owner = ownerOf(f);
    const naming = await grepFiles(gitDir, commit, ["-w"], f.name);
    const withOwner = owner ? await grepFiles(gitDir, commit, ["-i"], owner) : naming;
    const files = [...naming].filter((p) => p !== f.file && withOwner.has(p));
    out.push({ name: owner ? `${owner}.${f.name}` : f.name, files: files.length });
  }
  return out.sort((a, b) => b.files - a.files);
}

/** Local or broad, with the reasons. */
export function scopeOf(row: Pick<EditTaskRow, "files" | "added_files" | "deleted_files">, fan: ReadonlyArray<{ name: string; files: number }>) {
  const because: string[] = [];
  const n = changedSources(row).length;
  if (n >= BROAD_FILES) because.push(`${n} source files`);
  for (const f of fan) if (f.files >= BROAD_FAN_IN) because.push(`${f.name} named in ${f.files} files`);
  return { scope: because.length > 0 ? ("broad" as const) : ("local" as const), broad_because: because.slice(0, 3) };
}

type CommitLike = Omit<CommitRow, "kind">;

/**
 * One repository's edit tasks: `perRepo` rows of its commit set (a seeded sample) and the sweeps (broad by
 * construction when they change 4 source files or more; the others are dropped), each labelled.
 */
export async function editTaskRows(gitDir: string, commits: readonly CommitLike[], sweeps: readonly CommitLike[], perRepo: number): Promise<EditTaskRow[]> {
  const picked = shuffled(commits, seedOf(commits[0]?.repo ?? "", 6)).slice(0, perRepo);
  const rows: EditTaskRow[] = [];
  for (const c of [...picked, ...sweeps]) {
    const fan = await fanIn(gitDir, c.commit, c.functions);
    const s = scopeOf(c, fan);
    if (sweeps.includes(c) && s.scope !== "broad") continue;
    rows.push({
      kind: "edit",
      id: c.id,
      repo: c.repo,
      language: c.language,
      split: c.split,
      commit: c.commit,
      change: c.change,
      query: c.query,
      files: c.files,
      functions: c.functions,
      test_files: c.test_files,
      added_files: c.added_files,
      deleted_files: c.deleted_files,
      ...s,
      fan_in: fan.slice(0, 5),
    });
  }
  return rows;
}
