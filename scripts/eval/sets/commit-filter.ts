/**
 * Which commits become "subject → changed files" queries. A commit qualifies when its subject was
 * written by a person about a change to the code: not a merge, a revert, a release or dependency bump, a
 * formatting-only change, a change to vendored code, or a sweep over more than ten files; and it must
 * modify at least one source file that is not a test (the label). Added files cannot be found in the
 * parent's index, so they are kept aside, not labelled.
 */
import { isLabelSource, isTestLike, isVendored, isCorpusSource } from "./source-paths.ts";

export const MAX_CHANGED_FILES = 10;

export interface ChangedFile {
  /** A (added), M (modified), D (deleted); renames are read as a deletion and an addition. */
  status: "A" | "M" | "D";
  path: string;
}

export interface CommitCandidate {
  sha: string;
  parents: string[];
  subject: string;
  files: ChangedFile[];
}

export type Verdict = { ok: true; files: string[]; testFiles: string[]; addedFiles: string[]; deletedFiles: string[] } | { ok: false; reason: string };

const REVERT = /^(revert|reapply|unrevert)\b|^Revert "/i;
/** Machine-written or housekeeping subjects: bumps, releases, dependency updates, CI, merges of branches. */
const HOUSEKEEPING =
  /^(bump|release|prepare release|version|v?\d+\.\d+(\.\d+)?\b|update (changelog|version|deps|dependencies)|chore\(deps|build\(deps|deps:|merge\b|\[bot\]|ci\b|ci:|changelog)/i;
/** Subjects that say the change is only about layout. */
const FORMATTING =
  /\b(format(ting|ted)?|reformat|fmt|gofmt|rustfmt|prettier|clang-format|whitespace|lint(ing)?|cs ?fix(er)?|php-cs|rubocop|typos?|spelling|indentation|code style|clippy|phpstan|psalm|mypy|eslint|tslint|static analysis)\b/i;

/** Decides from the commit's metadata alone (no diff read yet). `maxFiles`: the edit set's broad pass takes sweeps up to 40 files. */
export function judgeCommit(c: CommitCandidate, maxFiles = MAX_CHANGED_FILES): Verdict {
  if (c.parents.length !== 1) return { ok: false, reason: c.parents.length === 0 ? "root commit" : "merge" };
  const subject = c.subject.trim();
  if (REVERT.test(subject)) return { ok: false, reason: "revert" };
  if (HOUSEKEEPING.test(subject)) return { ok: false, reason: "housekeeping" };
  if (FORMATTING.test(subject)) return { ok: false, reason: "formatting" };
  if (subject.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w)).length < 3) return { ok: false, reason: "subject too short" };
  if (c.files.length === 0) return { ok: false, reason: "no files" };
  if (c.files.length > maxFiles) return { ok: false, reason: `more than ${maxFiles} files` };
  if (c.files.some((f) => isVendored(f.path))) return { ok: false, reason: "vendored" };
  const files = c.files.filter((f) => f.status === "M" && isLabelSource(f.path)).map((f) => f.path);
  if (files.length === 0) return { ok: false, reason: "no modified source file" };
  return {
    ok: true,
    files,
    testFiles: c.files.filter((f) => isCorpusSource(f.path) && isTestLike(f.path)).map((f) => f.path),
    addedFiles: c.files.filter((f) => f.status === "A").map((f) => f.path),
    deletedFiles: c.files.filter((f) => f.status === "D").map((f) => f.path),
  };
}

/**
 * Parses `git log --no-renames --format=%x01%H %P%x02%s --name-status` output: each record opens with
 * \x01, its header line holds the sha and parents, then \x02 and the subject, then `S\tpath` lines.
 */
export function parseLog(raw: string): CommitCandidate[] {
  const out: CommitCandidate[] = [];
  for (const record of raw.split("\x01")) {
    if (record.trim() === "") continue;
    const lines = record.split("\n");
    const [ids, subject = ""] = lines[0]!.split("\x02");
    const [sha, ...parents] = ids!
      .trim()
      .split(" ")
      .filter((s) => s !== "");
    const files: ChangedFile[] = [];
    for (const line of lines.slice(1)) {
      const tab = line.indexOf("\t");
      if (tab < 0) continue;
      const s = line.slice(0, tab)[0];
      const status = s === "A" || s === "D" ? s : "M"; // M, and T (type change), count as modified
      files.push({ status, path: line.slice(tab + 1) });
    }
    out.push({ sha: sha!, parents, subject, files });
  }
  return out;
}
