/**
 * Literal and regex search (src/engines/exact/text-search.ts) over real indexes of throwaway projects:
 * lines, columns and context from stored content (non-ASCII and CRLF included), filters, staleness and
 * fresh reads, the result cap, and hostile patterns stopped at the deadline with partial results.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { PathFilter, normaliseExtensions, type TextSearchRequest } from "../../src/engines/exact/index.ts";
import { utimesSync } from "node:fs";
import { join } from "node:path";

let p: TmpProject;
let s: Session;

const FILES: Record<string, string> = {
  "src/auth/login.py": "import os\n\ndef handle_login(user):\n    api_key = os.environ['API_KEY']\n    return check(user, api_key)\n",
  "src/auth/Login.ts": "export function useLogin() {\n  const apiKey = read();\n  return apiKey;\n}",
  "src/store/db.go": 'package store\n\nimport "sync"\n\ntype DB struct {\n\tmu sync.RWMutex\n}\n',
  "docs/notes.md": "Ünïcödé line: café crème\nsecond line with café\n",
  "win/crlf.txt": "first line\r\nmatch here\r\nthird line\r\n",
  "big/many.txt": Array.from({ length: 600 }, (_, i) => `row ${i} needle`).join("\n") + "\n",
  "dates.txt": "released 2024-05-17 and 2023-01-02\nnot a date 20240517\n",
};

beforeAll(async () => {
  p = tmpProject(FILES);
  s = new Session(p.root);
  await s.index();
});
afterAll(() => {
  s.close();
  p.cleanup();
});

function search(query: string, o: Partial<TextSearchRequest> = {}) {
  return s.exact().then((e) =>
    e.searchText({
      query,
      isRegex: false,
      caseSensitive: false,
      contextLines: 0,
      paths: PathFilter.ALL,
      extensions: [],
      fresh: false,
      maxMatches: 500,
      maxChars: 1 << 20,
      deadline: Date.now() + 20_000,
      ...o,
    }),
  );
}

const where = (r: Awaited<ReturnType<typeof search>>) => r.matches.map((m) => `${m.file_path}:${m.line_number}`);

describe("literal search", () => {
  test("is case-insensitive by default and case-sensitive on request", async () => {
    expect(where(await search("api_key"))).toEqual(["src/auth/login.py:4", "src/auth/login.py:5"]);
    expect(where(await search("API_KEY", { caseSensitive: true }))).toEqual(["src/auth/login.py:4"]);
    expect(where(await search("apikey"))).toEqual(["src/auth/Login.ts:2", "src/auth/Login.ts:3"]);
  });

  test("returns the line, context before and after, and each match's column", async () => {
    const r = await search("api_key", { contextLines: 2, caseSensitive: true });
    expect(r.matches[1]).toMatchObject({
      file_path: "src/auth/login.py",
      line_number: 5,
      matched_line: "    return check(user, api_key)",
      context: ["def handle_login(user):", "    api_key = os.environ['API_KEY']"],
      context_start_line: 3,
      match_details: { matches: [{ text: "api_key", column: 24 }] },
    });
    // context is cut at the start and end of the file
    const first = await search("import os", { contextLines: 3 });
    expect(first.matches[0]).toMatchObject({
      line_number: 1,
      context_start_line: 1,
      context: ["", "def handle_login(user):", "    api_key = os.environ['API_KEY']"],
    });
    const last = await search("return apiKey", { contextLines: 3 });
    expect(last.matches[0]).toMatchObject({ line_number: 3, context: ["export function useLogin() {", "  const apiKey = read();", "}"] });
  });

  test("columns count UTF-16 code units of non-ASCII lines; CRLF line ends are not part of lines", async () => {
    const r = await search("CAFÉ");
    expect(r.matches.map((m) => [m.line_number, m.match_details.matches.map((d) => [d.text, d.column])])).toEqual([
      [1, [["café", 15]]],
      [2, [["café", 18]]],
    ]);
    const crlf = await search("match here", { contextLines: 1 });
    expect(crlf.matches[0]).toMatchObject({ line_number: 2, matched_line: "match here", context: ["first line", "third line"] });
  });

  test("stops at the limit, in path and line order, and says so", async () => {
    const r = await search("needle", { maxMatches: 250 });
    expect(r.matches.length).toBe(250);
    expect(r.truncated).toBe(true);
    expect(r.matches.map((m) => m.line_number)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const budget = await search("needle", { maxChars: 100 });
    expect(budget.truncated).toBe(true);
    expect(budget.matches.length).toBeLessThan(10);
  });

  test("the trigram index narrows the candidates", async () => {
    const r = await search("sync.RWMutex");
    expect(r.stats.candidate_files).toBe(1);
    expect(r.stats.plan).toContain('"rwm"');
    const short = await search("mu");
    expect(short.stats.plan).toBe("ALL");
  });
});

describe("every match printed (the CLI's grep)", () => {
  test("a literal over many files runs on the worker pool and finds what the inline search finds, in order", async () => {
    // 300 candidate files: over the count from which a search that hands every match over uses the pool
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`m/f${String(i).padStart(3, "0")}.txt`] = `head ${i}\nthe Needle ${i}\nnéedle needle tail\n`;
    files["m/stale.txt"] = "a needle that will change\n";
    const q = tmpProject(files);
    const sq = new Session(q.root);
    try {
      await sq.index();
      q.write("m/stale.txt", "changed needle text\n");
      utimesSync(join(q.root, "m/stale.txt"), new Date(), new Date(Date.now() + 5000));
      const e = await sq.exact();
      const run = async (handOver: boolean, caseSensitive: boolean) => {
        const seen: string[] = [];
        const r = await e.searchText({
          query: "needle",
          isRegex: false,
          caseSensitive,
          contextLines: 1,
          paths: PathFilter.ALL,
          extensions: [],
          fresh: false,
          maxMatches: handOver ? Number.POSITIVE_INFINITY : 10_000,
          maxChars: handOver ? Number.POSITIVE_INFINITY : 1 << 30,
          deadline: Date.now() + 20_000,
          handOver,
          onMatch: (m) => {
            seen.push(JSON.stringify(m));
            return true;
          },
        });
        return { seen, kept: r.matches.length, searched: r.stats.searched_files };
      };
      for (const caseSensitive of [false, true]) {
        const pooled = await run(true, caseSensitive);
        const inline = await run(false, caseSensitive);
        expect(pooled.kept).toBe(0); // handed over, none kept
        expect(pooled.seen).toEqual(inline.seen);
        expect(pooled.searched).toBe(301);
        expect(pooled.seen.length).toBe(caseSensitive ? 301 : 601);
      }
      // the changed file's hit is marked stale by the worker that found it
      const last = JSON.parse((await run(true, true)).seen.at(-1)!);
      expect([last.file_path, last.matched_line, last.stale]).toEqual(["m/stale.txt", "a needle that will change", true]);
    } finally {
      sq.close();
      q.cleanup();
    }
  });
});

describe("regex search", () => {
  test("capture groups and named groups are reported per match", async () => {
    const r = await search("(?<year>\\d{4})-(\\d{2})-(\\d{2})", { isRegex: true });
    expect(r.matches.length).toBe(1);
    expect(r.matches[0]!.match_details.matches).toEqual([
      { text: "2024-05-17", column: 10, groups: ["2024", "05", "17"], named_groups: { year: "2024" } },
      { text: "2023-01-02", column: 25, groups: ["2023", "01", "02"], named_groups: { year: "2023" } },
    ]);
  });

  test("a regex without a usable literal scans every file", async () => {
    const r = await search("^\\w+ \\d+ \\w+$", { isRegex: true, maxMatches: 3 });
    expect(r.stats.plan).toBe("ALL");
    expect(where(r)).toEqual(["big/many.txt:1", "big/many.txt:2", "big/many.txt:3"]);
  });

  test("anchors and lookarounds apply per line", async () => {
    expect(where(await search("line$", { isRegex: true, caseSensitive: true }))).toEqual(["win/crlf.txt:1", "win/crlf.txt:3"]);
    expect(where(await search("(?<=\\s)line", { isRegex: true }))).toEqual(["docs/notes.md:1", "docs/notes.md:2", "win/crlf.txt:1", "win/crlf.txt:3"]);
    expect(where(await search("^\\s+return", { isRegex: true }))).toEqual(["src/auth/Login.ts:3", "src/auth/login.py:5"]);
  });

  test("an invalid pattern is an INVALID_INPUT error with the engine's message", async () => {
    await expect(search("foo(", { isRegex: true })).rejects.toThrow(/^query: Invalid regular expression/);
  });
});

describe("filters", () => {
  test("target paths: files, folders and globs, relative to the root; outside the root is refused", async () => {
    const f = (specs: string[]) => PathFilter.parse(p.root, specs, "target_paths", true);
    expect(where(await search("login", { paths: f(["src/auth/login.py"]) }))).toEqual(["src/auth/login.py:3"]);
    expect(where(await search("return", { paths: f(["src/auth"]) }))).toEqual(["src/auth/Login.ts:3", "src/auth/login.py:5"]);
    expect(where(await search("return", { paths: f(["*.ts"]) }))).toEqual(["src/auth/Login.ts:3"]);
    expect(where(await search("return", { paths: f([join(p.root, "src/auth/")]) }))).toEqual(["src/auth/Login.ts:3", "src/auth/login.py:5"]);
    expect(() => f(["../elsewhere"])).toThrow(/outside the project root/);
    expect(() => f(["../**/*.py"])).toThrow(/inside the project root/);
    expect(() => f(["nope/"])).toThrow(/no such file or directory/);
  });

  test("extensions, with or without the dot, any case", async () => {
    const ext = (e: string[]) => normaliseExtensions(e, "file_extensions");
    expect(ext(["py", ".TS"])).toEqual([".py", ".ts"]);
    expect(where(await search("return", { extensions: ext([".py"]) }))).toEqual(["src/auth/login.py:5"]);
    expect(where(await search("return", { extensions: ext([".TS", "go"]) }))).toEqual(["src/auth/Login.ts:3"]);
    expect(() => ext([""])).toThrow("file_extensions[0]: must not be empty");
    // one value listing several, as `--ext .go,.md` writes them
    expect(ext([".go,md", "TS"])).toEqual([".go", ".md", ".ts"]);
    expect(() => ext([".go,"])).toThrow("file_extensions[0]: must not be empty (in '.go,')");
  });
});

describe("freshness", () => {
  test("hits in files changed since indexing are marked stale; fresh reads them from disk", async () => {
    const q = tmpProject({ "a.txt": "alpha old\n", "b.txt": "alpha unchanged\n", "c.txt": "alpha gone\n" });
    const sq = new Session(q.root);
    try {
      await sq.index();
      q.write("a.txt", "alpha new\nalpha again\n");
      utimesSync(join(q.root, "a.txt"), new Date(), new Date(Date.now() + 5000));
      q.remove("c.txt");
      const e = await sq.exact();
      const run = (fresh: boolean, isRegex = false) =>
        e.searchText({
          query: isRegex ? "alph[a]" : "alpha",
          isRegex,
          caseSensitive: false,
          contextLines: 0,
          paths: PathFilter.ALL,
          extensions: [],
          fresh,
          maxMatches: 50,
          maxChars: 1e6,
          deadline: Date.now() + 10_000,
        });
      const indexed = await run(false);
      expect(indexed.matches.map((m) => [m.file_path, m.matched_line, m.stale ?? false])).toEqual([
        ["a.txt", "alpha old", true],
        ["b.txt", "alpha unchanged", false],
        ["c.txt", "alpha gone", true],
      ]);
      // a regex is verified on the worker pool, whose workers check the files on disk: the same marks
      const byWorkers = await run(false, true);
      expect(byWorkers.matches.map((m) => [m.file_path, m.matched_line, m.stale ?? false])).toEqual([
        ["a.txt", "alpha old", true],
        ["b.txt", "alpha unchanged", false],
        ["c.txt", "alpha gone", true],
      ]);
      const fresh = await run(true);
      expect(fresh.matches.map((m) => [m.file_path, m.line_number, m.matched_line, m.stale ?? false])).toEqual([
        ["a.txt", 1, "alpha new", false],
        ["a.txt", 2, "alpha again", false],
        ["b.txt", 1, "alpha unchanged", false],
      ]);
    } finally {
      sq.close();
      q.cleanup();
    }
  });

  test("files a live server saw change are searched as they are on disk, before their index run", async () => {
    const q = tmpProject({
      "a.txt": "alpha old\n",
      "b.txt": "alpha unchanged\n",
      "c.txt": "alpha gone\n",
      "d.txt": "beta only\n",
      "e.txt": "beta untouched\n",
    });
    const sq = new Session(q.root);
    try {
      await sq.index();
      q.write("a.txt", "alpha new\n");
      q.write("d.txt", "beta now alpha too\n");
      for (const f of ["a.txt", "d.txt"]) utimesSync(join(q.root, f), new Date(), new Date(Date.now() + 5000));
      q.remove("c.txt");
      const e = await sq.exact();
      const run = (query: string, changedOnDisk?: ReadonlySet<string>) =>
        e.searchText({
          query,
          isRegex: false,
          caseSensitive: false,
          contextLines: 0,
          paths: PathFilter.ALL,
          extensions: [],
          fresh: false,
          maxMatches: 50,
          maxChars: 1e6,
          deadline: Date.now() + 10_000,
          ...(changedOnDisk ? { changedOnDisk } : {}),
        });
      const rows = (r: Awaited<ReturnType<typeof run>>) => r.matches.map((m) => [m.file_path, m.matched_line, m.stale ?? false]);
      // without the watcher's list, the indexed text answers (stale where it changed)
      expect(rows(await run("alpha"))).toEqual([
        ["a.txt", "alpha old", true],
        ["b.txt", "alpha unchanged", false],
        ["c.txt", "alpha gone", true],
      ]);
      // with it: the new text of a changed file, even one the trigram index rules out (d.txt), and no deleted file
      const changed = new Set(["a.txt", "c.txt", "d.txt", "e.txt", "not-indexed.txt"]);
      expect(rows(await run("alpha", changed))).toEqual([
        ["a.txt", "alpha new", false],
        ["b.txt", "alpha unchanged", false],
        ["d.txt", "beta now alpha too", false],
      ]);
      // a listed file that is unchanged on disk answers from the index, only where the pattern can match
      expect(rows(await run("untouched", changed))).toEqual([["e.txt", "beta untouched", false]]);
      expect(rows(await run("alpha", new Set(["e.txt"])))).toEqual([
        ["a.txt", "alpha old", true],
        ["b.txt", "alpha unchanged", false],
        ["c.txt", "alpha gone", true],
      ]);
    } finally {
      sq.close();
      q.cleanup();
    }
  });
});

describe("hostile patterns", () => {
  test("catastrophic backtracking is stopped at the deadline; matches found so far come back, marked partial", async () => {
    const q = tmpProject({
      "a-first.txt": "xxxxy found early\n",
      "b-evil.txt": Array.from({ length: 40 }, () => "x".repeat(3000)).join("\n") + "\n",
      "c-last.txt": "xxy after the evil file\n",
    });
    const sq = new Session(q.root);
    try {
      await sq.index();
      const e = await sq.exact();
      const started = Date.now();
      const r = await e.searchText({
        query: "(x+x+)+y",
        isRegex: true,
        caseSensitive: true,
        contextLines: 0,
        paths: PathFilter.ALL,
        extensions: [],
        fresh: false,
        maxMatches: 50,
        maxChars: 1e6,
        deadline: Date.now() + 1500,
      });
      const took = Date.now() - started;
      expect(r.partial).toBe(true);
      expect(r.matches.map((m) => m.file_path)).toContain("a-first.txt");
      expect(took).toBeLessThan(6000); // 40 lines of 3,000 x's take minutes without the deadline
      // the pool recovers: the next search works
      const ok = await e.searchText({
        query: "fou?nd",
        isRegex: true,
        caseSensitive: true,
        contextLines: 0,
        paths: PathFilter.ALL,
        extensions: [],
        fresh: false,
        maxMatches: 50,
        maxChars: 1e6,
        deadline: Date.now() + 10_000,
      });
      expect(ok.partial).toBe(false);
      expect(ok.matches.map((m) => m.file_path)).toEqual(["a-first.txt"]);
    } finally {
      sq.close();
      q.cleanup();
    }
  });
});
