/**
 * The history channel on git repositories built here: a file is found by the subject of a past commit that
 * changed it (words its code never uses), in proportion to how much of the question the subject says, a run reads only the commits HEAD gained since the last one,
 * nothing beyond HEAD is ever read, a folder without git (or with the channel off) has no history, and the
 * edit preflight names a file the history says is usually changed with the top result.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { tmpProject, commitAt, temporaryHome, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import type { CodebaseSearchResponse } from "../../src/engines/codebase-search/index.ts";
import { hasHistory, storedCommits, SWEEP_FILES } from "../../src/store/history-store.ts";
import { parseLog } from "../../src/indexer/git-history.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
  delete process.env.CORTEX_HISTORY;
});

/** A project indexed under a CORTEX_HOME of its own: a git repository of its own unless `git` is false. */
function project(files: Record<string, string>, { git: inRepository = true } = {}): { p: TmpProject; session: Session } {
  const restoreHome = temporaryHome("cortex-history-home-");
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  const p = tmpProject(files);
  if (inRepository) git(p.root, "init", "-q");
  const session = new Session(p.root);
  cleanups.push(() => {
    session.close();
    p.cleanup();
    restoreHome();
    delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
  });
  return { p, session };
}

function git(root: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-C", root, ...args], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

const LEDGER = "def post(entries):\n    total = 0\n    for e in entries:\n        total += e.amount\n    return total\n";
const REPORT = "def render(rows):\n    return '\\n'.join(str(r) for r in rows)\n";
const MAILER = "def send(address, body):\n    return (address, body)\n";

async function topFiles(session: Session, query: string): Promise<string[]> {
  return (await (await session.search()).searchFiles(query, 5, { mode: "keyword" })).map((f) => f.filePath);
}

function store(session: Session) {
  const s = session.store();
  if (!s) throw new Error("no index");
  return s;
}

describe("the history channel", () => {
  test("finds a file by the subject of a past commit that changed it", async () => {
    const { p, session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT, "src/mailer.py": MAILER });
    commitAt(p.root, "Initial import", 3);
    p.write("src/ledger.py", LEDGER + "\n# checked\n");
    commitAt(p.root, "Reconcile quarterly balances before closing the books", 2);
    p.write("src/report.py", REPORT + "\n# paged\n");
    commitAt(p.root, "Paginate the printable summary", 1);
    await session.index();
    expect(hasHistory(store(session))).toBe(true);
    // no file holds these words: only the commit subject does
    expect(await topFiles(session, "reconcile quarterly balances")).toEqual(["src/ledger.py"]);
    expect((await topFiles(session, "paginate printable summary"))[0]).toBe("src/report.py");

    // turned off, the history is dropped and the words find nothing
    process.env.CORTEX_HISTORY = "0";
    await session.index();
    expect(hasHistory(store(session))).toBe(false);
    expect(await topFiles(session, "reconcile quarterly balances")).toEqual([]);
  });

  test("a subject that says a quarter of the question moves its file a quarter as much as one that says it all", async () => {
    const { p, session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT, "src/mailer.py": MAILER });
    commitAt(p.root, "Initial import", 2);
    p.write("src/report.py", REPORT + "\n# footer\n");
    commitAt(p.root, "Show the total in the footer", 1);
    await session.index();
    const search = await session.search();
    // four words, one of them in the subject: the report's only score is the history's, a quarter of its weight
    const partial = await search.searchFiles("total amount entries rounding", 5, { mode: "keyword" });
    expect(partial[0]!.filePath).toBe("src/ledger.py");
    expect(partial.find((f) => f.filePath === "src/report.py")!.score).toBeCloseTo(0.25, 3);
    // the subject's own words: the whole weight
    const whole = await search.searchFiles("show total footer", 5, { mode: "keyword" });
    expect(whole.find((f) => f.filePath === "src/report.py")!.score).toBeGreaterThanOrEqual(1);
  });

  test("an index run reads only the commits HEAD gained since the last run", async () => {
    const { p, session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT });
    commitAt(p.root, "Initial import", 5);
    p.write("src/ledger.py", LEDGER + "# 1\n");
    commitAt(p.root, "Round amounts to cents", 4);
    await session.index();
    expect(store(session).getMeta("history_read")).toBe("2");
    expect(storedCommits(store(session)).map((c) => c.subject)).toEqual(["Round amounts to cents", "Initial import"]);

    await session.index();
    expect(store(session).getMeta("history_read")).toBe("0");

    p.write("src/report.py", REPORT + "# 2\n");
    commitAt(p.root, "Show totals in the footer", 3);
    p.write("src/ledger.py", LEDGER + "# 3\n");
    commitAt(p.root, "Skip empty entries", 2);
    await session.index();
    expect(store(session).getMeta("history_read")).toBe("2");
    const stored = storedCommits(store(session));
    expect(stored.map((c) => c.subject)).toEqual(["Skip empty entries", "Show totals in the footer", "Round amounts to cents", "Initial import"]);
    expect(stored[0]!.files).toEqual(["src/ledger.py"]);
  });

  test("never reads a commit beyond HEAD: a checkout of an older commit replaces the history with its own", async () => {
    const { p, session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT });
    commitAt(p.root, "Initial import", 5);
    p.write("src/ledger.py", LEDGER + "# 1\n");
    commitAt(p.root, "Reconcile quarterly balances", 4);
    const middle = git(p.root, "rev-parse", "HEAD");
    p.write("src/report.py", REPORT + "# 2\n");
    commitAt(p.root, "Paginate the printable summary", 3);
    const newest = git(p.root, "rev-parse", "HEAD");

    // a first index at the older commit: the newer commit exists in the repository, but HEAD is older
    git(p.root, "checkout", "-q", middle);
    await session.index();
    expect(store(session).getMeta("history_head")).toBe(middle);
    expect(storedCommits(store(session)).map((c) => c.subject)).toEqual(["Reconcile quarterly balances", "Initial import"]);
    expect(await topFiles(session, "paginate printable summary")).toEqual([]);

    // forward to the newest: one commit read
    git(p.root, "checkout", "-q", newest);
    await session.index();
    expect(store(session).getMeta("history_read")).toBe("1");
    expect((await topFiles(session, "paginate printable summary"))[0]).toBe("src/report.py");

    // back again: the history is read anew from HEAD, without the newer commit
    git(p.root, "checkout", "-q", middle);
    await session.index();
    expect(storedCommits(store(session)).map((c) => c.sha)).not.toContain(newest);
    expect(await topFiles(session, "paginate printable summary")).toEqual([]);
  });

  test("a HEAD that gained only a merge commit is the history's new head (nothing to read, but nothing stale)", async () => {
    const { p, session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT });
    commitAt(p.root, "Initial import", 5);
    const trunk = git(p.root, "rev-parse", "--abbrev-ref", "HEAD");
    git(p.root, "checkout", "-q", "-b", "totals");
    p.write("src/ledger.py", LEDGER + "# 1\n");
    commitAt(p.root, "Round amounts to cents", 4);
    await session.index();
    // the branch merged without fast-forward: HEAD moves to a merge whose other commits are stored already
    git(p.root, "checkout", "-q", trunk);
    git(p.root, "-c", "user.name=t", "-c", "user.email=t@x", "merge", "-q", "--no-ff", "-m", "Merge totals", "totals");
    const merge = git(p.root, "rev-parse", "HEAD");
    await session.index();
    expect(store(session).getMeta("history_head")).toBe(merge);
    expect(store(session).getMeta("history_read")).toBe("0");
    expect(storedCommits(store(session)).map((c) => c.subject)).toEqual(["Round amounts to cents", "Initial import"]);
  });

  test("a folder without git has no history tables, and search answers as before", async () => {
    const { session } = project({ "src/ledger.py": LEDGER, "src/report.py": REPORT }, { git: false });
    await session.index();
    expect(hasHistory(store(session))).toBe(false);
    expect((await topFiles(session, "post entries amount total"))[0]).toBe("src/ledger.py");
  });

  test("a sweep (a commit of more than SWEEP_FILES files) is left out", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= SWEEP_FILES; i++) files[`src/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
    const { p, session } = project(files);
    commitAt(p.root, "Relicense every module under the frobnitz terms", 2);
    p.write("src/m1.py", "def f1():\n    return 11\n");
    commitAt(p.root, "Return eleven", 1);
    await session.index();
    expect(storedCommits(store(session)).map((c) => c.subject)).toEqual(["Return eleven"]);
    expect(await topFiles(session, "relicense frobnitz terms")).toEqual([]);
  });
});

describe("the edit preflight with a history", () => {
  test("names the files usually changed together with the top result, and is not ready without them", async () => {
    const { p, session } = project({
      "src/parser.ts": "export function parseInvoice(text: string) {\n  return text.split(';');\n}\n",
      "src/schema.ts": "export const FIELDS = ['number', 'date', 'total'];\n",
      "src/layout.ts": "export const COLUMNS = 3;\n",
      "src/mailer.ts": "export function send(to: string) {\n  return to;\n}\n",
    });
    commitAt(p.root, "Initial import", 6);
    for (let i = 0; i < 3; i++) {
      p.write("src/parser.ts", `export function parseInvoice(text: string) {\n  return text.split(';').slice(${i});\n}\n`);
      p.write("src/schema.ts", `export const FIELDS = ['number', 'date', 'total', 'v${i}'];\n`);
      p.write("src/layout.ts", `export const COLUMNS = ${4 + i};\n`);
      commitAt(p.root, `Accept invoice layout ${i}`, 5 - i);
    }
    // one file a commit more often than half the parser's own does not count: the mailer changed with it once
    p.write("src/mailer.ts", "export function send(to: string) {\n  return to.trim();\n}\n");
    p.write("src/parser.ts", "export function parseInvoice(text: string) {\n  return text.split(';');\n}\n");
    commitAt(p.root, "Trim addresses", 1);
    await session.index();
    const r = (await invokeTool(
      findTool("search_codebase")!,
      { query: "parseInvoice splits invoice text on semicolons", intent: "edit", limit: 1 },
      { session, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
    )) as CodebaseSearchResponse;
    expect(r.results.map((x) => x.file)).toEqual(["src/parser.ts"]);
    const card = r.preflight!;
    expect(card.ready).toBe(false);
    expect(card.blockers).toContain("changed-together");
    expect(card.changedTogether).toEqual([
      { file: "src/layout.ts", commits: "4 of 5" },
      { file: "src/schema.ts", commits: "4 of 5" },
    ]);
    expect(card.nextAction).toContain("src/layout.ts");
    expect(card.nextAction).toContain("src/schema.ts");
    expect(card.whatWouldHelp).toContain("read src/schema.ts (changed with src/parser.ts in 4 of 5 commits)");
    expect(card.signals!.changedTogether).toBe(2);
  });
});

describe("git log parsing", () => {
  test("reads each commit's id, time, subject and paths", () => {
    const out = new TextEncoder().encode("\x1eaaaa 100 Fix the parser\0\nsrc/a.ts\0src/b c.ts\0\x1ebbbb 90 Empty commit\0\x1ecccc 80 Rename\0\ndocs/x.md\0");
    expect(parseLog(out)).toEqual([
      { sha: "aaaa", time: 100, subject: "Fix the parser", files: ["src/a.ts", "src/b c.ts"] },
      { sha: "bbbb", time: 90, subject: "Empty commit", files: [] },
      { sha: "cccc", time: 80, subject: "Rename", files: ["docs/x.md"] },
    ]);
  });
});
