/**
 * The shared store's reader beside the local index on one project (PGlite): cortex_files queries compiled
 * for each dialect give the same rows; file state, contents and keyword search answer from the live
 * generation.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { headlessBound, PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { ensureSchema, PG_SCHEMA_VERSION } from "../../../src/store/postgres/schema.ts";
import type { IndexStore } from "../../../src/store/index-store.ts";
import { compileQuery } from "../../../src/engines/files/compile.ts";
import { queryDefinitionSchema, type QueryDefinitionInput } from "../../../src/engines/files/query-schema.ts";
import { POSTGRES_DIALECT } from "../../../src/store/sql-dialect.ts";
import { BACKENDS } from "./backends.ts";
import { publishedFixture, type PublishedFixture } from "./fixture.ts";
import { definingFiles, definitionsNamed, fileOverviewChunks, filesPassing } from "../../../src/store/chunk-search.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const SCHEMA = "t_reader";
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let fixture: PublishedFixture | undefined;
    let client: PgClient;
    let store: IndexStore;
    let reader: PgIndexReader;

    beforeAll(async () => {
      fixture = await publishedFixture(backend, "polyglot", SCHEMA);
      ({ client, store, reader } = fixture);
    }, 180_000);

    afterAll(async () => {
      await fixture?.stop();
    });

    const QUERIES: QueryDefinitionInput[] = [
      { from: "files", fields: ["file_path", "language", "lines_code", "is_test", "module_path"], orderBy: [{ field: "file_path" }], limit: 1000 },
      {
        from: "files",
        fields: ["language"],
        aggregations: [
          { function: "COUNT", alias: "n" },
          { function: "SUM", field: "lines_code", alias: "code" },
          { function: "MAX", field: "size_bytes", alias: "biggest" },
        ],
        groupBy: ["language"],
        orderBy: [{ field: "language" }],
      },
      {
        from: "functions",
        fields: ["name", "file_path", "param_count", "is_exported"],
        where: {
          and: [
            { field: "param_count", operator: ">=", value: 1 },
            { field: "name", operator: "LIKE", value: "%E%" },
          ],
        },
        orderBy: [{ field: "file_path" }, { field: "name" }],
      },
      {
        from: "types",
        fields: ["types.name", "types.kind", "files.language"],
        joins: [{ table: "files", on: { field: "types.file_path", operator: "=", value: "files.file_path" } }],
        where: { field: "files.language", operator: "IN", value: ["go", "java", "rust"] },
        orderBy: [{ field: "types.name" }, { field: "types.kind" }],
      },
      {
        from: "imports",
        fields: ["file_path", "imported_module", "is_external"],
        where: { field: "is_relative", operator: "=", value: false },
        orderBy: [{ field: "file_path" }, { field: "imported_module" }],
      },
      { from: "modules", orderBy: [{ field: "module_path" }] },
      {
        from: "functions",
        fields: ["name"],
        where: { field: "lines", operator: "BETWEEN", value: [3, 10] },
        orderBy: [{ field: "name" }],
        limit: 5,
        offset: 2,
      },
    ];

    const asNumbers = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === "boolean" ? Number(v) : v)));

    test("cortex_files queries compiled for PostgreSQL give the local index's rows", async () => {
      let rows = 0;
      for (const input of QUERIES) {
        const q = queryDefinitionSchema.parse(input);
        const local = store.runStatsQuery(compileQuery(q, store.dialect).sql, compileQuery(q, store.dialect).params);
        const pg = compileQuery(q, POSTGRES_DIALECT);
        const shared = await reader.runStatsQuery(pg.sql, pg.params);
        expect({ query: input, columns: shared.columns, rows: asNumbers(shared.rows) }).toEqual({
          query: input,
          columns: local.columns,
          rows: asNumbers(local.rows),
        });
        rows += local.rows.length;
      }
      expect(rows).toBeGreaterThan(50);
    });

    test("a value cannot become SQL: it is bound, and an identifier outside the schema is refused before any SQL", async () => {
      const q = queryDefinitionSchema.parse({
        from: "files",
        fields: ["file_path"],
        where: { field: "file_path", operator: "=", value: "x'; DROP TABLE t_reader.repos; --" },
      });
      const pg = compileQuery(q, POSTGRES_DIALECT);
      expect((await reader.runStatsQuery(pg.sql, pg.params)).rows).toEqual([]);
      expect((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}.repos`))[0]!.n).toBe(1);
      expect(() => compileQuery(queryDefinitionSchema.parse({ from: "repos" }), POSTGRES_DIALECT)).toThrow();
    });

    test("file state, contents and languages are the local index's", async () => {
      const local = store.fileStates();
      const shared = await reader.fileStates();
      expect([...shared.keys()].sort()).toEqual([...local.keys()].sort());
      for (const [path, st] of local) {
        expect(shared.get(path)).toMatchObject({ contentHash: st.contentHash, mtimeMs: st.mtimeMs, sizeBytes: st.sizeBytes });
      }
      const some = [...local.keys()].slice(0, 5);
      const texts = await reader.contents(some);
      for (const p of some) expect(texts.get(p)).toBe(store.contentOf(p)!);
      expect(await reader.languageCounts()).toEqual(store.languageCounts());
      expect(await reader.parseTierState()).toBeUndefined();
      expect((await reader.filesUnder("go")).every((p) => p.startsWith("go/"))).toBe(true);
    });

    test("keyword search ranks in SQL: every hit holds a term, names outrank mentions, filters apply", async () => {
      const weights = { symbols: 10, title: 5, path: 2, body: 1 };
      const hits = await reader.keywordSearch(["server"], weights, {}, 20);
      expect(hits.length).toBeGreaterThan(0);
      const rows = await reader.chunksById(hits.map((h) => h.id));
      for (const h of hits) expect(`${rows.get(h.id)!.title} ${rows.get(h.id)!.text} ${h.filePath}`.toLowerCase()).toContain("server");
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      // a chunk whose title names the term ranks above one that only mentions it in its body
      const top = rows.get(hits[0]!.id)!;
      expect(`${top.title} ${top.symbol_path ?? ""}`.toLowerCase()).toContain("server");
      const languages = new Set(hits.map((h) => rows.get(h.id)!.language));
      expect(languages.size).toBeGreaterThan(1);
      const lang = rows.get(hits.at(-1)!.id)!.language;
      const filtered = await reader.keywordSearch(["server"], weights, { languages: [lang] }, 20);
      expect(filtered.length).toBeGreaterThan(0);
      const filteredRows = await reader.chunksById(filtered.map((h) => h.id));
      expect([...new Set([...filteredRows.values()].map((r) => r.language))]).toEqual([lang]);
      // a filter on paths: the matching chunks of those files, ranked as without it
      const all = await reader.keywordSearch(["server"], weights, {}, 1000);
      const file = hits.at(-1)!.filePath;
      const prefix = file.slice(0, file.lastIndexOf("/"));
      expect((await reader.keywordSearch(["server"], weights, { files: [file] }, 1000)).map((h) => h.id)).toEqual(
        all.filter((h) => h.filePath === file).map((h) => h.id),
      );
      expect((await reader.keywordSearch(["server"], weights, { pathPrefixes: [prefix] }, 1000)).map((h) => h.id)).toEqual(
        all.filter((h) => h.filePath.startsWith(`${prefix}/`)).map((h) => h.id),
      );
      expect(await reader.keywordSearch(["zzzznothing"], weights, {}, 20)).toEqual([]);
      expect(await reader.chunkCount()).toBeGreaterThan(hits.length);
    });

    test("keyword search ranks the chunks naming a term first, and answers as ranking every matching chunk does", async () => {
      const weights = { symbols: 10, title: 5, path: 2, body: 1 };
      const statements: string[] = [];
      const watched = new PgIndexReader(
        {
          ...client,
          query: (sql, params) => {
            statements.push(sql);
            return client.query(sql, params);
          },
        },
        ["polyglot"],
        SCHEMA,
      );
      /** Every live chunk whose words match, ranked: what keyword search answered before it ranked heads first. */
      const rankAll = async (terms: string[], limit: number) => {
        const rows = await client.query<{ id: string; score: number }>(
          `SELECT c.chunk_id AS id, ts_rank('{0.1,0.2,0.5,1}'::float4[], c.words, q) AS score
           FROM ${SCHEMA}.live_files f JOIN ${SCHEMA}.chunks c ON c.file_id = f.file_id, to_tsquery('english', $1) q
           WHERE f.repo = 'polyglot' AND c.words @@ q ORDER BY score DESC, c.row_id LIMIT $2::int`,
          [terms.map((t) => `'${t}'`).join(" | "), limit],
        );
        return rows.map((r) => r.id);
      };
      const ways = new Set<string>();
      for (const terms of [["server"], ["user", "handle"], ["parse", "main", "run"], ["return"], ["self", "return"], ["func", "err"]]) {
        for (const limit of [1, 3, 10, 200]) {
          statements.length = 0;
          const hits = await watched.keywordSearch(terms, weights, {}, limit);
          expect(hits.map((h) => h.id)).toEqual(await rankAll(terms, limit));
          const ranked = statements.filter((s) => s.includes("ts_rank"));
          expect(ranked[0]).toContain("WHERE c.heads @@ q");
          ways.add(ranked.at(-1)!.includes("c.words @@ to_tsquery") ? "pairs" : ranked.at(-1)!.includes("WHERE c.heads @@ q") ? "heads" : "all");
        }
      }
      // every way was taken: heads that filled the answer, chunks holding two terms, every matching chunk
      expect([...ways].sort()).toEqual(["all", "heads", "pairs"]);
    });

    test("a chunk naming no term in its symbols, title or path scores at most the bound keyword search relies on", async () => {
      const texts = ["server", "server server server server server server server server", "a server of servers for the server user", "user"];
      for (const weights of [
        { symbols: 4, title: 2, path: 2, body: 1 },
        { symbols: 1, title: 1, path: 1, body: 1 },
        { symbols: 1, title: 1, path: 1, body: 4 },
      ]) {
        const top = Math.max(weights.symbols, weights.title, weights.path, weights.body);
        const w = { symbols: weights.symbols / top, title: weights.title / top, path: weights.path / top, body: weights.body / top };
        for (const body of texts)
          for (const times of [1, 3, 300]) {
            const [r] = await client.query<{ score: number }>(
              "SELECT ts_rank($1::float4[], setweight(to_tsvector('english', $2), 'D'), to_tsquery('english', 'server | user')) AS score",
              [`{${[w.body, w.path, w.title, w.symbols].join(",")}}`, ` ${body}`.repeat(times)],
            );
            expect(Number(r!.score)).toBeGreaterThan(0);
            expect(Number(r!.score)).toBeLessThanOrEqual(headlessBound(w));
          }
      }
    });

    test("a store of version 2 gains the chunks' heads from their words", async () => {
      const heads = () => client.query<{ id: string; heads: string }>(`SELECT chunk_id AS id, heads::text AS heads FROM ${SCHEMA}.chunks ORDER BY row_id`);
      const published = await heads();
      expect(published.some((r) => r.heads !== "")).toBe(true);
      await client.exec(`ALTER TABLE ${SCHEMA}.chunks DROP COLUMN heads; UPDATE ${SCHEMA}.meta SET value = '2' WHERE key = 'schema_version'`);
      await ensureSchema(client, SCHEMA);
      expect(await heads()).toEqual(published);
      const [v] = await client.query<{ value: string }>(`SELECT value FROM ${SCHEMA}.meta WHERE key = 'schema_version'`);
      expect(v!.value).toBe(String(PG_SCHEMA_VERSION));
    });

    test("definition chunks, defining files, overview chunks and files passing filters are the local index's", async () => {
      const names = ["Server", "main", "parse", "handle", "User", "run", "helper"];
      const sortById = (rows: Array<{ id: string }>) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(sortById(await reader.definitionsNamed(names, {}, 100))).toEqual(sortById(definitionsNamed(store, names, {}, 100)));
      const defining = await reader.definingFiles(names);
      expect(defining.size).toBeGreaterThan(0);
      expect(defining).toEqual(definingFiles(store, names));
      const paths = [...store.fileStates().keys()];
      const overview = await reader.fileOverviewChunks(paths);
      const localOverview = fileOverviewChunks(store, paths);
      expect(overview.size).toBeGreaterThan(10);
      expect(new Map([...overview].map(([p, o]) => [p, o.id]))).toEqual(new Map([...localOverview].map(([p, o]) => [p, o.id])));
      for (const filters of [{ languages: ["go"] }, { excludeTests: true }, { chunkTypes: ["definitions"] }, { pathPrefixes: ["python"] }]) {
        expect(await reader.filesPassing(paths, filters)).toEqual(filesPassing(store, paths, filters));
      }
    });

    test("weighted scores add each term's rank times its weight; files rank by path, names and text", async () => {
      const weights = { symbols: 10, title: 5, path: 2, body: 1 };
      const one = await reader.weightedChunkScores(new Map([["server", 1]]), weights, {});
      const twice = await reader.weightedChunkScores(new Map([["server", 2]]), weights, {});
      expect(one.size).toBeGreaterThan(0);
      for (const [id, { score }] of one) expect(twice.get(id)!.score).toBeCloseTo(2 * score, 5);
      const both = await reader.weightedChunkScores(
        new Map([
          ["server", 1],
          ["user", 1],
        ]),
        weights,
        {},
      );
      expect(both.size).toBeGreaterThanOrEqual(one.size);
      const files = await reader.weightedFileScores(new Map([["server", 1]]), { path: 3, defs: 2, doc: 1, code: 1 }, {});
      expect(files.size).toBeGreaterThan(0);
      const texts = await reader.contents([...files.keys()]);
      for (const p of files.keys()) expect(`${p} ${texts.get(p)}`.toLowerCase()).toContain("server");
      // a file whose path names the term outranks one that only mentions it
      const ranked = [...files].sort((a, b) => b[1] - a[1]);
      expect(ranked[0]![0].toLowerCase()).toContain("server");
    });
  });
}
