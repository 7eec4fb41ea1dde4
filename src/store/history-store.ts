/**
 * The history channel's tables: a bounded slice of the project's git history (indexer/git-history.ts
 * reads it), one row per commit with its subject line in a keyword index, and the paths each commit
 * changed. Search ranks files by the subjects of the commits that changed them; the edit preflight reads
 * which files are changed together (co-change counts come from the same rows at query time, so nothing
 * derived has to be kept current).
 *
 * The tables are created by the first run that finds a git work tree: an index of a folder without git
 * has none, costs nothing, and readers answer "no history" (hasHistory). Commits touching more than
 * SWEEP_FILES paths (a reformat, a licence header, a rename across the tree) are not stored: their subject
 * says nothing about most of the files, and they would make every pair of files "changed together".
 */
import type { IndexStore } from "./index-store.ts";
import { sqliteOf } from "./sqlite-access.ts";
import { keywordText } from "./keyword-words.ts";
import { matchExpression } from "./chunk-search.ts";
import { openingWord } from "../core/words.ts";

/** A commit changing more paths than this is a sweep, left out of the history. */
export const SWEEP_FILES = 25;

const HISTORY_TABLES = `
CREATE TABLE IF NOT EXISTS history_commits (
    id INTEGER PRIMARY KEY,
    sha TEXT NOT NULL,
    time INTEGER NOT NULL,
    subject TEXT NOT NULL,
    file_count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS history_changes (
    path TEXT NOT NULL,
    commit_id INTEGER NOT NULL,
    PRIMARY KEY (path, commit_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idx_history_changes_commit ON history_changes(commit_id);
CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5(subject, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TRIGGER IF NOT EXISTS history_commit_delete AFTER DELETE ON history_commits BEGIN
    DELETE FROM history_fts WHERE rowid = old.id;
    DELETE FROM history_changes WHERE commit_id = old.id;
END;
`;

export interface StoredCommit {
  sha: string;
  time: number;
  subject: string;
  files: string[];
}

/** True when the index holds a history (a run found a git work tree and stored at least its tables). */
export function hasHistory(store: IndexStore): boolean {
  return sqliteOf(store).query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history_commits'").get() !== null;
}

/**
 * Writes commits (newest first, as git lists them) into the history: `replace` empties it first (a first
 * run, a branch switch). Sweeps and commits without paths are skipped; afterwards only the newest
 * `keep` commits stay. Returns how many commits were stored.
 */
export function writeHistory(store: IndexStore, commits: readonly StoredCommit[], options: { replace: boolean; keep: number }): number {
  const db = sqliteOf(store);
  db.exec(HISTORY_TABLES);
  let stored = 0;
  store.transaction(() => {
    if (options.replace) {
      db.exec("DELETE FROM history_changes; DELETE FROM history_commits; INSERT INTO history_fts(history_fts) VALUES ('delete-all');");
    }
    const commit = db.prepare("INSERT INTO history_commits (sha, time, subject, file_count) VALUES (?, ?, ?, ?)");
    const words = db.prepare("INSERT INTO history_fts (rowid, subject) VALUES (?, ?)");
    const change = db.prepare("INSERT OR IGNORE INTO history_changes (path, commit_id) VALUES (?, ?)");
    try {
      // oldest first, so ids grow with time and the newest `keep` are the highest ids
      for (let i = commits.length - 1; i >= 0; i--) {
        const c = commits[i]!;
        const files = [...new Set(c.files)];
        if (files.length === 0 || files.length > SWEEP_FILES) continue;
        const id = Number(commit.run(c.sha, c.time, c.subject, files.length).lastInsertRowid);
        words.run(id, keywordText(c.subject));
        for (const f of files) change.run(f, id);
        stored++;
      }
      const cut = db.query("SELECT id FROM history_commits ORDER BY id DESC LIMIT 1 OFFSET ?").get(Math.max(0, options.keep)) as { id: number } | null;
      if (cut) db.query("DELETE FROM history_commits WHERE id <= ?").run(cut.id);
    } finally {
      commit.finalize();
      words.finalize();
      change.finalize();
    }
  });
  return stored;
}

/** The stored commits, newest first (for tests and status). */
export function storedCommits(store: IndexStore): StoredCommit[] {
  if (!hasHistory(store)) return [];
  const db = sqliteOf(store);
  const rows = db.query("SELECT id, sha, time, subject FROM history_commits ORDER BY id DESC").all() as Array<{
    id: number;
    sha: string;
    time: number;
    subject: string;
  }>;
  const files = db.prepare("SELECT path FROM history_changes WHERE commit_id = ? ORDER BY path");
  try {
    return rows.map((r) => ({ sha: r.sha, time: r.time, subject: r.subject, files: (files.all(r.id) as Array<{ path: string }>).map((f) => f.path) }));
  } finally {
    files.finalize();
  }
}

export interface HistoryMatch {
  /** Weighted BM25 of the commit's subject against the query's terms. */
  score: number;
  /** The share of the query's term weight that the subject holds (0-1): how much of the question it says. */
  coverage: number;
  subject: string;
  files: string[];
}

/**
 * The `limit` commits whose subjects best match the weighted terms (each term asked alone, its best rows,
 * weighted sum as the other keyword channels do), best first, with the paths each changed and the share
 * of the terms' weight each subject holds.
 */
export function matchingCommits(store: IndexStore, terms: ReadonlyMap<string, number>, limit: number, perTermLimit = 500): HistoryMatch[] {
  if (!hasHistory(store) || terms.size === 0) return [];
  const db = sqliteOf(store);
  const scores = new Map<number, number>();
  const matched = new Map<number, number>();
  let asked = 0;
  const stmt = db.prepare(
    `SELECT rowid, -bm25(history_fts) AS s FROM history_fts WHERE history_fts MATCH ? ORDER BY bm25(history_fts) LIMIT ${Math.trunc(perTermLimit)}`,
  );
  try {
    for (const [term, w] of terms) {
      if (w === 0) continue;
      asked += Math.max(0, w);
      for (const r of stmt.all(matchExpression([term])) as Array<{ rowid: number; s: number }>) {
        scores.set(r.rowid, (scores.get(r.rowid) ?? 0) + w * r.s);
        if (w > 0) matched.set(r.rowid, (matched.get(r.rowid) ?? 0) + w);
      }
    }
  } finally {
    stmt.finalize();
  }
  const best = [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, limit);
  if (best.length === 0) return [];
  const ids = best.map(([id]) => id);
  const subjects = new Map(
    (
      db.query(`SELECT id, subject FROM history_commits WHERE id IN (${ids.map(() => "?").join(",")})`).all(...ids) as Array<{ id: number; subject: string }>
    ).map((r) => [r.id, r.subject]),
  );
  const files = new Map<number, string[]>();
  for (const r of db.query(`SELECT commit_id AS id, path FROM history_changes WHERE commit_id IN (${ids.map(() => "?").join(",")})`).all(...ids) as Array<{
    id: number;
    path: string;
  }>) {
    const list = files.get(r.id) ?? [];
    list.push(r.path);
    files.set(r.id, list);
  }
  return best.map(([id, score]) => ({
    score,
    coverage: asked > 0 ? (matched.get(id) ?? 0) / asked : 0,
    subject: subjects.get(id) ?? "",
    files: (files.get(id) ?? []).sort(),
  }));
}

export interface CoChange {
  /** Stored commits that changed the file. */
  commits: number;
  /** Files changed in the same commits, most shared commits first (then by path). */
  partners: Array<{ file: string; count: number }>;
}

/** For each path, how often it changed and which files changed with it (paths never changed are absent). */
export function coChanges(store: IndexStore, paths: readonly string[], perFile = 20): Map<string, CoChange> {
  const out = new Map<string, CoChange>();
  if (!hasHistory(store) || paths.length === 0) return out;
  const db = sqliteOf(store);
  const count = db.prepare("SELECT count(*) AS n FROM history_changes WHERE path = ?");
  const partners = db.prepare(
    `SELECT b.path AS file, count(*) AS n FROM history_changes a JOIN history_changes b ON b.commit_id = a.commit_id AND b.path <> a.path
     WHERE a.path = ? GROUP BY b.path ORDER BY n DESC, b.path LIMIT ${Math.trunc(perFile)}`,
  );
  try {
    for (const p of new Set(paths)) {
      const n = (count.get(p) as { n: number }).n;
      if (n === 0) continue;
      out.set(p, { commits: n, partners: (partners.all(p) as Array<{ file: string; n: number }>).map((r) => ({ file: r.file, count: r.n })) });
    }
  } finally {
    count.finalize();
    partners.finalize();
  }
  return out;
}

/**
 * How a project words its commit subjects: how many stored subjects open with each word (openingWord:
 * "fix", "add", a conventional type) and how many end with a full stop. Search reads it for every
 * question, to tell a change request from a description (engines/search: changeLikeness).
 */
export interface SubjectStyle {
  subjects: number;
  openings: Map<string, number>;
  fullStops: number;
}

/** subjectStyle's last answer per store, with the history's state (newest id and size) it was read at. */
const styleRead = new WeakMap<IndexStore, { key: string; style: SubjectStyle }>();

/** The stored subjects' style (SubjectStyle), read once per state of the history. */
export function subjectStyle(store: IndexStore): SubjectStyle {
  if (!hasHistory(store)) return { subjects: 0, openings: new Map(), fullStops: 0 };
  const db = sqliteOf(store);
  const state = db.query("SELECT max(id) AS top, count(*) AS n FROM history_commits").get() as { top: number | null; n: number };
  const key = `${state.top}:${state.n}`;
  const known = styleRead.get(store);
  if (known?.key === key) return known.style;
  const subjects = db.query("SELECT subject FROM history_commits").all() as Array<{ subject: string }>;
  const style = styleOf(subjects.map((r) => r.subject));
  styleRead.set(store, { key, style });
  return style;
}

/** The style of these subject lines. */
export function styleOf(subjects: readonly string[]): SubjectStyle {
  const openings = new Map<string, number>();
  let fullStops = 0;
  for (const subject of subjects) {
    const w = openingWord(subject);
    if (w !== undefined) openings.set(w, (openings.get(w) ?? 0) + 1);
    if (endsWithFullStop(subject)) fullStops++;
  }
  return { subjects: subjects.length, openings, fullStops };
}

/** A sentence ending in a full stop ("…", "etc." and a path's dot too: the style counts either way). */
export function endsWithFullStop(text: string): boolean {
  return /\.\s*$/.test(text);
}

/** Removes the history (the folder is no longer a git work tree, or the channel was turned off). */
export function dropHistory(store: IndexStore): void {
  if (!hasHistory(store)) return;
  sqliteOf(store).exec(
    "DROP TRIGGER IF EXISTS history_commit_delete; DROP TABLE IF EXISTS history_fts; DROP TABLE IF EXISTS history_changes; DROP TABLE IF EXISTS history_commits;",
  );
}
