/**
 * Literal and regex search from the shared store gives the local engine's results line for line: the same
 * patterns over the same fixtures, the local side through search_text_pattern (SQLite, its trigram index,
 * its verification), the shared side from the PostgreSQL reader's candidates (the generation's trigram
 * posting lists, carried over from the local index) verified with the engine's own line matcher. Against PGlite always; the repository scope and the `<repo>/<path>` naming
 * of a reader over several repositories too.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient, PgConnection } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { IndexStore } from "../../../src/store/index-store.ts";
import { SqliteIndexReader } from "../../../src/store/sqlite-reader.ts";
import { indexLocation } from "../../../src/store/location.ts";
import { Session } from "../../../src/tools/session.ts";
import { findTool } from "../../../src/tools/index.ts";
import { invokeTool } from "../../../src/tools/invoke.ts";
import { compilePattern } from "../../../src/engines/exact/text-query.ts";
import { LineMatcher } from "../../../src/engines/exact/line-scan.ts";
import { ExactEngine, PathFilter } from "../../../src/engines/exact/index.ts";
import { copyFixture, type TmpProject } from "../../helpers/tmp-project.ts";
import { BACKENDS } from "./backends.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const SCHEMA = "t_text";
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let client: PgClient;
    let stopDb: () => Promise<void> = async () => {};
    let serverUrl: string | undefined;
    const projects: Record<string, { p: TmpProject; session: Session }> = {};

    beforeAll(async () => {
      const db = await backend.start();
      client = db.client;
      stopDb = db.stop;
      for (const [repo, fixture] of [
        ["parity", "grep-parity"],
        ["polyglot", "polyglot"],
      ] as const) {
        const p = copyFixture(fixture);
        // a line with LIKE's own special characters and one with non-ASCII text, to search for below
        p.write("notes/special.txt", "100% of a_b and c\\d match; 50%_off\nCafé Ünïcödé naïve façade\n");
        const session = new Session(p.root);
        await session.index();
        const store = IndexStore.open(indexLocation(p.root).current()!, { readonly: true });
        await publishIndex(client, repo, store, { schema: SCHEMA });
        store.close();
        projects[repo] = { p, session };
      }
    }, 180_000);

    afterAll(async () => {
      for (const { p, session } of Object.values(projects)) {
        session.close();
        p.cleanup();
      }
      await stopDb();
    });

    interface Case {
      query: string;
      regex?: boolean;
      cs?: boolean;
    }

    const CASES: Case[] = [
      { query: "apiKey", cs: true },
      { query: "API_KEY" },
      { query: "return" },
      { query: "func" },
      { query: "ünïcödé" },
      { query: "100%" },
      { query: "a_b" },
      { query: "c\\d" },
      { query: "%_off" },
      { query: "class", cs: true },
      { query: "s\\.mu\\.R?(Un)?[Ll]ock", regex: true, cs: true },
      { query: "\\bkey\\b", regex: true },
      { query: "def \\w+\\(self", regex: true },
      { query: "(import|include|require)\\b", regex: true },
      { query: "[A-Z][a-z]+Error", regex: true, cs: true },
      { query: "caf[eé]", regex: true },
      { query: "^\\s*//", regex: true },
      { query: "x{2,}|zz", regex: true },
      { query: "(?<=func )[A-Z]\\w*", regex: true },
    ];

    const line = (path: string, n: number, text: string) => `${path}:${n}:${text}`;

    async function localLines(repo: string, c: Case): Promise<string[]> {
      const tool = findTool("search_text_pattern")!;
      const r = (await invokeTool(
        tool,
        { query: c.query, is_regex: c.regex ?? false, case_sensitive: c.cs ?? false, context_lines: 0, max_tokens: 50_000 },
        { session: projects[repo]!.session, signal: new AbortController().signal, deadline: Date.now() + 30_000 },
      )) as { matches: Array<{ file_path: string; line_number: number; matched_line: string }>; truncated: boolean };
      expect(r.truncated).toBe(false);
      return r.matches.map((m) => line(m.file_path, m.line_number, m.matched_line));
    }

    /** The shared store's side: candidates from the reader, verified by the engine's matcher, in path order. */
    async function sharedLines(reader: PgIndexReader, c: Case): Promise<string[]> {
      const { spec, plan } = compilePattern(c.query, c.regex ?? false, c.cs ?? false);
      const ids = await reader.textCandidates(plan.query);
      const rows = (await reader.textFiles(ids, false)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const texts = await reader.texts(
        rows.map((r) => r.fileId),
        "string",
      );
      const matcher = new LineMatcher(spec);
      const out: string[] = [];
      rows.forEach((r, i) => {
        for (const h of matcher.scan(texts[i]!, 0, 1000)) out.push(line(r.path, h.line, h.text));
      });
      return out;
    }

    test("every pattern finds the same lines in the shared store as in the local index", async () => {
      let compared = 0;
      for (const repo of ["parity", "polyglot"]) {
        const reader = new PgIndexReader(client, [repo], SCHEMA);
        for (const c of CASES) {
          const local = await localLines(repo, c);
          const shared = await sharedLines(reader, c);
          expect({ repo, ...c, lines: shared }).toEqual({ repo, ...c, lines: local });
          compared += local.length;
        }
      }
      // the cases are not vacuous
      expect(compared).toBeGreaterThan(100);
    });

    test("the candidates are the local index's own: every pattern admits the same files, and counts them alike", async () => {
      for (const repo of ["parity", "polyglot"]) {
        const shared = new PgIndexReader(client, [repo], SCHEMA);
        const local = SqliteIndexReader.open(indexLocation(projects[repo]!.p.root).current()!);
        try {
          const paths = async (reader: PgIndexReader | SqliteIndexReader, ids: Uint32Array | null) =>
            ids === null ? null : (await reader.textFiles(ids, false)).map((r) => r.path).sort();
          const plans = CASES.map((c) => compilePattern(c.query, c.regex ?? false, c.cs ?? false).plan.query);
          let admitted = 0;
          for (const [i, plan] of plans.entries()) {
            const want = await paths(local, await local.textCandidates(plan));
            expect({ repo, ...CASES[i], files: await paths(shared, await shared.textCandidates(plan)) }).toEqual({ repo, ...CASES[i], files: want });
            admitted += want?.length ?? 0;
          }
          expect(await shared.textCandidateCounts(plans)).toEqual(await local.textCandidateCounts(plans));
          expect(admitted).toBeGreaterThan(10);
        } finally {
          await local.close();
        }
      }
    });

    test("the candidates narrow: a selective literal admits few files, an unplannable regex every file", async () => {
      const reader = new PgIndexReader(client, ["polyglot"], SCHEMA);
      const total = await reader.textFileCount();
      const few = await reader.textCandidates(compilePattern("100% of a_b", false, false).plan.query);
      expect(few).not.toBeNull();
      expect(few!.length).toBe(1);
      expect(await reader.textCandidates(compilePattern("\\w", true, false).plan.query)).toBeNull();
      expect(total).toBeGreaterThan(50);
    });

    test("a literal's candidates are the listed files whose text holds it, checked in parts at once when they are many", async () => {
      const reader = new PgIndexReader(client, "all", SCHEMA);
      for (const [text, caseSensitive] of [
        ["return", true],
        ["RETURN", false],
        ["Return", true],
      ] as const) {
        const query = compilePattern(text, false, caseSensitive).plan.query;
        const listed = await reader.textCandidates(query);
        // enough candidates that the check runs as several statements
        expect(listed!.length).toBeGreaterThanOrEqual(16);
        const contents = await reader.texts(Array.from(listed!), "string");
        const want = Array.from(listed!).filter((_, i) =>
          caseSensitive ? contents[i]!.includes(text) : contents[i]!.toLowerCase().includes(text.toLowerCase()),
        );
        expect({ text, ids: Array.from((await reader.textCandidates(query, { text, caseSensitive }))!) }).toEqual({ text, ids: want });
      }
    });

    test("the files a literal's check found are answered from it: rows, and texts when few, without a statement", async () => {
      let statements = 0;
      const counting: PgConnection = {
        ...client,
        query: (sql, params) => {
          statements++;
          return client.query(sql, params);
        },
      };
      for (const [text, caseSensitive, few] of [
        ["100% of a_b", false, true],
        ["return", false, false],
      ] as const) {
        const reader = new PgIndexReader(counting, "all", SCHEMA);
        const fresh = new PgIndexReader(client, "all", SCHEMA);
        const query = compilePattern(text, false, caseSensitive).plan.query;
        const ids = (await reader.textCandidates(query, { text, caseSensitive }))!;
        expect(ids.length).toBeGreaterThan(0);
        expect(few).toBe(ids.length <= 8);
        const before = statements;
        for (const withLanguage of [false, true]) {
          expect(await reader.textFiles(ids, withLanguage)).toEqual(await fresh.textFiles(ids, withLanguage));
        }
        expect(statements).toBe(before);
        const list = Array.from(ids).reverse();
        for (const as of ["string", "bytes"] as const) {
          expect({ text, texts: await reader.texts(list, as as "string") }).toEqual({ text, texts: await fresh.texts(list, as as "string") });
        }
        // many files found: their texts are read when asked for, not with the check
        expect(statements).toBe(few ? before : before + 2);
      }
    });

    test("a reader over several repositories names every file <repo>/<path>; a reader of one only sees its own", async () => {
      const both = new PgIndexReader(client, "all", SCHEMA);
      const plan = compilePattern("100% of a_b", false, false).plan.query;
      const rows = await both.textFiles(await both.textCandidates(plan), false);
      expect(rows.map((r) => r.path).sort()).toEqual(["parity/notes/special.txt", "polyglot/notes/special.txt"]);
      const one = new PgIndexReader(client, ["parity"], SCHEMA);
      expect((await one.textFiles(await one.textCandidates(plan), false)).map((r) => r.path)).toEqual(["notes/special.txt"]);
      expect(await new PgIndexReader(client, ["parity", "polyglot"], SCHEMA).textFileCount()).toBe(
        (await one.textFileCount()) + (await new PgIndexReader(client, ["polyglot"], SCHEMA).textFileCount()),
      );
      expect(() => new PgIndexReader(client, [], SCHEMA)).toThrow("repo: name at least one repository");
    });

    test("the exact engine itself over the shared store's reader: the local results, regexes verified in its worker pool", async () => {
      const saved = process.env.CORTEX_DATABASE_URL;
      // the verification workers open the reader by its source, which names no server: they take this one
      if (serverUrl !== undefined) process.env.CORTEX_DATABASE_URL = serverUrl;
      try {
        let compared = 0;
        for (const repo of ["parity", "polyglot"]) {
          const engine = new ExactEngine(new PgIndexReader(client, [repo], SCHEMA), projects[repo]!.p.root);
          // PGlite lives in this process only: a worker cannot reach it, so regexes run against the server
          for (const c of CASES.filter((c) => serverUrl !== undefined || !c.regex)) {
            const out = await engine.searchText({
              query: c.query,
              isRegex: c.regex ?? false,
              caseSensitive: c.cs ?? false,
              contextLines: 0,
              paths: PathFilter.ALL,
              extensions: [],
              fresh: false,
              maxMatches: 1000,
              maxChars: 1_000_000,
              deadline: Date.now() + 30_000,
            });
            expect(out.partial).toBe(false);
            const shared = out.matches.map((m) => line(m.file_path, m.line_number, m.matched_line));
            expect({ repo, ...c, lines: shared }).toEqual({ repo, ...c, lines: await localLines(repo, c) });
            compared += shared.length;
          }
        }
        expect(compared).toBeGreaterThan(50);
      } finally {
        if (saved === undefined) delete process.env.CORTEX_DATABASE_URL;
        else process.env.CORTEX_DATABASE_URL = saved;
      }
    });
  });
}
