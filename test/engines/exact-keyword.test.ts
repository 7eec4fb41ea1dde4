/**
 * cortex_exact's keyword engine (src/engines/exact/keyword-query.ts, keyword-search.ts): the query
 * language and its errors, word-part matching of identifiers, file-level boolean logic, BM25 ranking of
 * lines, highlights and filters, over a real index of a throwaway project.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { PathFilter, type KeywordSearchRequest } from "../../src/engines/exact/index.ts";
import { describeKeywordQuery, parseKeywordQuery } from "../../src/engines/exact/keyword-query.ts";
import { isPartBoundary } from "../../src/engines/exact/keyword-search.ts";

describe("query language", () => {
  const understood = (q: string) => describeKeywordQuery(parseKeywordQuery(q));

  test("terms as typed, implicit AND, OR below AND, NOT and -term, phrases, prefixes, parentheses", () => {
    expect(understood("sync.RWMutex")).toBe("sync.RWMutex");
    expect(understood("handle_login useState")).toBe("handle_login AND useState");
    expect(understood("a b OR c")).toBe("a AND b OR c");
    expect(understood("a (b OR c)")).toBe("a AND (b OR c)");
    expect(understood("authentication AND -test")).toBe("authentication AND NOT test");
    expect(understood('NOT "read only" handle*')).toBe('NOT "read only" AND handle*');
    expect(understood("-(a OR b) c")).toBe("NOT (a OR b) AND c");
    expect(understood("std::vector<int> x-y")).toBe("std::vector<int> AND x-y");
    expect(understood('"say \\"hi\\""')).toBe('"say \\"hi\\""');
  });

  test("malformed queries are errors that name the problem and where it is", () => {
    const cases: Array<[string, string]> = [
      ["", "query: must contain at least one term"],
      ["   ", "query: must contain at least one term"],
      ["(a OR b", "query: missing ')' for the '(' at column 1"],
      ["a OR b)", "query: unexpected ')' at column 7"],
      ['"open quote', "query: unterminated quote starting at column 1"],
      ["a OR", "query: OR at column 3 needs a term on both sides"],
      ["OR a", "query: OR at column 1 needs a term on both sides"],
      ["a AND AND b", "query: AND at column 3 needs a term on both sides"],
      ["a NOT", "query: NOT at column 3 needs a term after it"],
      ["NOT a", "query: needs at least one term that is not negated (NOT and '-' only exclude)"],
      ["foo()", "query: empty parentheses at column 4 (to search for '()', put it in quotes: \"foo()\")"],
      ["* a", "query: '*' at column 1 needs a word before it"],
      ['""', "query: empty phrase at column 1"],
      ['"ab"* c', "query: '*' after a phrase at column 5: prefixes apply to single terms"],
    ];
    for (const [q, message] of cases) expect(() => parseKeywordQuery(q)).toThrow(message);
  });

  test("word-part boundaries: word edges, underscores and camelCase humps", () => {
    const b = (s: string) => [...s].map((_, i) => (i > 0 && isPartBoundary(s, i) ? "|" : "") + s[i]).join("");
    expect(b("handle_login")).toBe("handle|_|login");
    expect(b("HTTPServer")).toBe("HTTP|Server");
    expect(b("useState")).toBe("use|State");
    expect(b("sync.RWMutex")).toBe("sync|.|RW|Mutex");
    expect(b("base64Encode")).toBe("base64|Encode");
  });
});

let p: TmpProject;
let s: Session;

beforeAll(async () => {
  p = tmpProject({
    "auth/login.py": "def handle_login(user):\n    # login the user\n    return blogin(user)\n",
    "auth/form.ts": "export class LoginForm {\n  userLogin = true;\n  handler() { return useState(0); }\n}\n",
    "store/db.go": 'package store\n\nimport "sync"\n\ntype DB struct {\n\tmu sync.RWMutex // guards data\n}\n\nfunc (d *DB) Lock() { d.mu.Lock() }\n',
    "store/db_test.go": "package store\n\n// test the sync.RWMutex lock\nfunc TestLock(t *testing.T) {}\n",
    "docs/guide.md": "Read only mode: the database is read   only.\nreadonly is one word.\n",
  });
  s = new Session(p.root);
  await s.index();
});
afterAll(() => {
  s.close();
  p.cleanup();
});

function find(query: string, o: Partial<KeywordSearchRequest> = {}) {
  return s
    .exact()
    .then((e) => e.searchKeywords({ query, limit: 15, contextLines: 0, paths: PathFilter.ALL, languages: [], deadline: Date.now() + 20_000, ...o }));
}
const lines = (r: Awaited<ReturnType<typeof find>>) => r.results.map((h) => `${h.file_path}:${h.line_number}`).sort();

describe("keyword search", () => {
  test("a term matches identifiers at part boundaries, case-insensitively, not inside words", async () => {
    expect(lines(await find("login"))).toEqual(["auth/form.ts:1", "auth/form.ts:2", "auth/login.py:1", "auth/login.py:2"]);
    expect(lines(await find("mutex"))).toEqual(["store/db.go:6", "store/db_test.go:3"]);
    expect(lines(await find("sync.RWMutex"))).toEqual(["store/db.go:6", "store/db_test.go:3"]);
    expect(lines(await find("usestate"))).toEqual(["auth/form.ts:3"]);
    expect(lines(await find("handle*"))).toEqual(["auth/form.ts:3", "auth/login.py:1"]);
    expect(lines(await find("handle"))).toEqual(["auth/login.py:1"]);
  });

  test("phrases match as written, with flexible whitespace and no boundary rule", async () => {
    expect(lines(await find('"read only"'))).toEqual(["docs/guide.md:1"]);
    expect(lines(await find('"ogin"'))).toEqual(["auth/form.ts:1", "auth/form.ts:2", "auth/login.py:1", "auth/login.py:2", "auth/login.py:3"]);
  });

  test("boolean operators decide at file level; lines holding positive terms are the results", async () => {
    // lock and data are on different lines of db.go: the file matches, both lines come back
    expect(lines(await find("lock AND data"))).toEqual(["store/db.go:6", "store/db.go:9"]);
    expect(lines(await find("sync.RWMutex -test"))).toEqual(["store/db.go:6"]);
    expect(lines(await find("sync.RWMutex NOT (guards OR nothing)"))).toEqual(["store/db_test.go:3"]);
    expect(lines(await find("userLogin OR readonly"))).toEqual(["auth/form.ts:2", "docs/guide.md:2"]);
  });

  test("lines are ranked by BM25 (rarer terms and more of them first), then path and line", async () => {
    const r = await find("lock OR sync OR guards");
    const top = r.results[0]!;
    expect(`${top.file_path}:${top.line_number}`).toBe("store/db.go:6"); // sync and the rare 'guards'
    for (let i = 1; i < r.results.length; i++) expect(r.results[i - 1]!.score).toBeGreaterThanOrEqual(r.results[i]!.score);
    const tie = await find('"package store"');
    expect(tie.results.map((h) => h.file_path)).toEqual(["store/db.go", "store/db_test.go"]);
  });

  test("highlights point at each term occurrence in the line", async () => {
    const r = await find("lock", { paths: PathFilter.parse(p.root, ["store/db.go"], "paths", false) });
    const h = r.results.find((x) => x.line_number === 9)!;
    expect(h.line).toBe("func (d *DB) Lock() { d.mu.Lock() }");
    expect(h.highlights).toEqual([
      { column: 14, length: 4, term: "lock" },
      { column: 28, length: 4, term: "lock" },
    ]);
  });

  test("limit, context, truncation and filters by path glob and language", async () => {
    const r = await find("login OR lock", { limit: 2, contextLines: 1 });
    expect(r.results.length).toBe(2);
    expect(r.truncated).toBe(true);
    expect(r.total_lines).toBeGreaterThan(2);
    expect(r.results.every((h) => h.before.length + h.after.length > 0)).toBe(true);
    expect(lines(await find("lock", { paths: PathFilter.parse(p.root, ["*_test.go"], "paths", false) }))).toEqual(["store/db_test.go:3", "store/db_test.go:4"]);
    expect(lines(await find("lock OR readonly", { languages: ["go"] }))).toEqual(["store/db.go:9", "store/db_test.go:3", "store/db_test.go:4"]);
    expect(lines(await find("lock OR readonly", { languages: ["markdown"] }))).toEqual(["docs/guide.md:2"]);
  });

  test("a malformed query is an INVALID_INPUT error, never a crash", async () => {
    await expect(find("(lock")).rejects.toMatchObject({ code: "INVALID_INPUT", message: "query: missing ')' for the '(' at column 1" });
  });
});
