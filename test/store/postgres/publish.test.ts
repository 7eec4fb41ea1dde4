/**
 * Publishing finished SQLite indexes into the shared store, against PGlite (always) — first and
 * incremental publications, a publisher stopped midway — and the concurrency cases against a real
 * server (publish-server.test.ts).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex, removeRepository } from "../../../src/store/postgres/publish.ts";
import { listRepos } from "../../../src/store/postgres/repos.ts";
import { ensureSchema, FILE_ROW_TABLES } from "../../../src/store/postgres/schema.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { decodePostings, trigramsOf } from "../../../src/store/trigrams.ts";
import { startPglite } from "./pglite-client.ts";
import { indexedProject } from "./fixture.ts";
import { liveState } from "./live-state.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

let client: PgClient;
let schemas = 0;
const freshSchema = () => `t_publish_${++schemas}`;

beforeAll(async () => {
  client = (await startPglite()).client;
}, 120_000);

afterAll(async () => {
  await client.close();
});

/** Rows of the file tables whose version is gone (they have no foreign key: the publisher deletes them). */
async function orphans(schema: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of FILE_ROW_TABLES) {
    const [r] = await client.query<{ n: number; all: number }>(
      `SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM ${schema}.file_versions f WHERE f.file_id = x.file_id))::int AS n, count(*)::int AS all FROM ${schema}.${t} x`,
    );
    out[t] = r!.n;
  }
  return out;
}
const none = Object.fromEntries(FILE_ROW_TABLES.map((t) => [t, 0]));

/**
 * The trigram posting lists a store holds for a repository: the generations they belong to, and for the
 * live one the path of every file each trigram lists (ids read back through the live files). The lists
 * are the local index's, which may name a file for a trigram it no longer holds (content-index.ts: a
 * deleted file's id taken by a new file), never the other way round.
 */
async function postings(schema: string, repo: string): Promise<{ generations: number[]; dangling: number; filesOf: (text: string) => string[] }> {
  const gens = await client.query<{ generation: number }>(
    `SELECT DISTINCT p.generation FROM ${schema}.trigram_postings p JOIN ${schema}.repos r USING (repo_id) WHERE r.name = $1 ORDER BY 1`,
    [repo],
  );
  const rows = await client.query<{ trigram: number; postings: Uint8Array }>(
    `SELECT p.trigram, p.postings FROM ${schema}.trigram_postings p JOIN ${schema}.repos r ON r.repo_id = p.repo_id AND r.generation = p.generation WHERE r.name = $1`,
    [repo],
  );
  const paths = new Map(
    (await client.query<{ id: string; path: string }>(`SELECT file_id::text AS id, path FROM ${schema}.live_files WHERE repo = $1`, [repo])).map((r) => [
      Number(r.id),
      r.path,
    ]),
  );
  const lists = new Map(rows.map((r) => [r.trigram, Array.from(decodePostings(r.postings), (id) => paths.get(id) ?? `not live: ${id}`)]));
  return {
    generations: gens.map((g) => g.generation),
    // ids that are no live version of the repository (none: the lists are written with the generation's ids)
    dangling: rows.reduce((n, r) => n + Array.from(decodePostings(r.postings)).filter((id) => !paths.has(id)).length, 0),
    // the files holding every trigram of `text`
    filesOf: (text) => {
      const each = trigramsOf(text).map((t) => new Set(lists.get(t) ?? []));
      return [...each[0]!].filter((p) => each.every((s) => s.has(p))).sort();
    },
  };
}

test("a first publication writes every file and its rows; the repository is listed at generation 1", async () => {
  const schema = freshSchema();
  const p = indexedProject();
  const store = await p.index();
  try {
    const r = await publishIndex(client, "demo", store, { schema, commit: "abc123" });
    expect(r).toEqual({ repo: "demo", generation: 1, changed: 4, deleted: 0, unchanged: 0 });
    const repos = await listRepos(client, schema);
    expect(repos.map(({ indexedAt: _, ...rest }) => rest)).toEqual([{ name: "demo", commit: "abc123", generation: 1, files: 4, vectors: [] }]);
    expect(repos[0]!.indexedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const live = await liveState(client, schema, "demo");
    expect(Object.keys(live.files).sort()).toEqual(["README.md", "src/http/header.ts", "src/server.ts", "src/util.go"]);
    expect(live.files["src/util.go"]).toContain("func Upper(s string) string");
    expect(live.functions).toContain("src/util.go:Upper");
    expect(live.functions).toContain("src/http/header.ts:parseHeader");
    expect(live.symbols).toContain("src/server.ts:Server");
    expect(live.chunks).toBeGreaterThan(3);
    expect(live.modules.length).toBeGreaterThan(0);
    // the generation's trigram posting lists name the files holding each trigram
    const lists = await postings(schema, "demo");
    expect(lists.generations).toEqual([1]);
    expect(lists.dangling).toBe(0);
    expect(lists.filesOf("parseHeader")).toEqual(["src/http/header.ts", "src/server.ts"]);
    expect(lists.filesOf("strings.ToUpper")).toEqual(["src/util.go"]);
    expect(lists.filesOf("tiny server")).toEqual(["README.md"]);
    // and the store needs no extension for them (this runs before the upgrade test below creates pg_trgm)
    expect((await client.query<{ extname: string }>("SELECT extname FROM pg_extension")).map((e) => e.extname)).toEqual(["plpgsql"]);
  } finally {
    store.close();
    p.project.cleanup();
  }
});

/**
 * The keyword lists a store holds (every row, as text), and those that the live generations' vectors
 * give (each lexeme of each live file's words and of each live chunk's heads and words, with its id):
 * the two must be equal.
 */
async function keywordLists(schema: string): Promise<{ stored: string[]; fromVectors: string[] }> {
  const list = (a: string) => `coalesce(${a}::text, '-')`;
  const stored = await client.query<{ l: string }>(
    `SELECT repo_id || ' ' || generation || ' ' || lexeme || ' ' || ${list("files")} || ' ' || ${list("heads")} || ' ' || ${list("chunks")} AS l
     FROM ${schema}.keyword_postings ORDER BY 1`,
  );
  const fromVectors = await client.query<{ l: string }>(
    `WITH live AS (SELECT f.file_id, f.repo_id, r.generation, f.words FROM ${schema}.file_versions f JOIN ${schema}.repos r
         ON r.repo_id = f.repo_id AND f.gen_from <= r.generation AND (f.gen_to IS NULL OR f.gen_to > r.generation)),
       e AS (SELECT repo_id, generation, l, 'f' AS k, file_id AS id FROM live, unnest(tsvector_to_array(words)) l
         UNION ALL SELECT repo_id, generation, l, 'h', c.row_id FROM live JOIN ${schema}.chunks c USING (file_id), unnest(tsvector_to_array(c.heads)) l
         UNION ALL SELECT repo_id, generation, l, 'w', c.row_id FROM live JOIN ${schema}.chunks c USING (file_id), unnest(tsvector_to_array(c.words)) l),
       g AS (SELECT repo_id, generation, l, array_agg(id ORDER BY id) FILTER (WHERE k = 'f') AS files, array_agg(id ORDER BY id) FILTER (WHERE k = 'h') AS heads,
         array_agg(id ORDER BY id) FILTER (WHERE k = 'w') AS chunks FROM e GROUP BY 1, 2, 3)
     SELECT repo_id || ' ' || generation || ' ' || l || ' ' || ${list("files")} || ' ' || ${list("heads")} || ' ' || ${list("chunks")} AS l FROM g ORDER BY 1`,
  );
  return { stored: stored.map((r) => r.l), fromVectors: fromVectors.map((r) => r.l) };
}

test("a second publication writes only changed and deleted files and removes the replaced versions", async () => {
  const schema = freshSchema();
  const p = indexedProject();
  let store = await p.index();
  await publishIndex(client, "demo", store, { schema });
  store.close();
  p.project.write("src/util.go", 'package util\n\n// Upper shouts louder.\nfunc Upper(s string) string { return s + "!" }\n');
  p.project.remove("README.md");
  p.project.write("src/new.ts", "export const added = 1;\n");
  store = await p.index();
  try {
    const r = await publishIndex(client, "demo", store, { schema, commit: "def456" });
    expect(r).toEqual({ repo: "demo", generation: 2, changed: 2, deleted: 1, unchanged: 2 });
    const live = await liveState(client, schema, "demo");
    expect(Object.keys(live.files).sort()).toEqual(["src/http/header.ts", "src/new.ts", "src/server.ts", "src/util.go"]);
    expect(live.files["src/util.go"]).toContain("shouts louder");
    expect(live.functions.filter((f) => f === "src/util.go:lower")).toEqual([]);
    // no version outlives its generation: one row per live file
    const [{ n }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.file_versions`)) as [{ n: number }];
    expect(n).toBe(4);
    // the replaced and deleted versions' rows went with them
    expect(await orphans(schema)).toEqual(none);
    // the lists are the new generation's alone, with the new versions' ids and the unchanged files' own
    const lists = await postings(schema, "demo");
    expect(lists.generations).toEqual([2]);
    expect(lists.dangling).toBe(0);
    expect(lists.filesOf("shouts louder")).toEqual(["src/util.go"]);
    expect(lists.filesOf("strings.ToUpper")).not.toContain("src/util.go");
    expect(lists.filesOf("parseHeader")).toEqual(["src/http/header.ts", "src/server.ts"]);
    expect(lists.filesOf("export const added")).toEqual(["src/new.ts"]);
    // the keyword lists too: the new versions' entries, and the unchanged files' carried over
    const keywords = await keywordLists(schema);
    expect(keywords.stored.length).toBeGreaterThan(0);
    expect(keywords.stored).toEqual(keywords.fromVectors);
    // an unchanged index publishes nothing new but still a generation
    const again = await publishIndex(client, "demo", store, { schema });
    expect(again).toEqual({ repo: "demo", generation: 3, changed: 0, deleted: 0, unchanged: 4 });
    expect((await liveState(client, schema, "demo")).files).toEqual(live.files);
    const carried = await keywordLists(schema);
    expect(carried.stored).toEqual(carried.fromVectors);
    expect(carried.stored.map((l) => l.replace(/^(\d+) 3 /, "$1 2 "))).toEqual(keywords.stored);
  } finally {
    store.close();
    p.project.cleanup();
  }
});

test("a publisher stopped midway leaves the previous generation whole; the next one cleans up and finishes", async () => {
  const schema = freshSchema();
  const p = indexedProject();
  let store = await p.index();
  await publishIndex(client, "demo", store, { schema });
  store.close();
  const before = await liveState(client, schema, "demo");
  p.project.write("src/util.go", "package util\n\nfunc Changed() {}\n");
  p.project.write("src/server.ts", "export const replaced = true;\n");
  p.project.remove("README.md");
  store = await p.index();
  try {
    const stopped = publishIndex(client, "demo", store, {
      schema,
      batchFiles: 1,
      onBatch: (written) => {
        if (written === 1) throw new Error("publisher killed");
      },
    });
    await expect(stopped).rejects.toThrow("publisher killed");
    // the unswitched generation's rows exist but no reader sees them
    const [{ n }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.file_versions WHERE gen_from = 2`)) as [{ n: number }];
    expect(n).toBe(1);
    expect(await liveState(client, schema, "demo")).toEqual(before);
    expect((await listRepos(client, schema))[0]!.generation).toBe(1);

    const r = await publishIndex(client, "demo", store, { schema });
    expect(r).toEqual({ repo: "demo", generation: 2, changed: 2, deleted: 1, unchanged: 1 });
    expect(await orphans(schema)).toEqual(none);
    // and no keyword list of the stopped publisher's generation is left
    const keywords = await keywordLists(schema);
    expect(keywords.stored).toEqual(keywords.fromVectors);
    expect((await postings(schema, "demo")).generations).toEqual([2]);
    expect((await postings(schema, "demo")).filesOf("replaced = true")).toEqual(["src/server.ts"]);
    const after = await liveState(client, schema, "demo");
    expect(after.files["src/server.ts"]).toBe("export const replaced = true;\n");
    expect(after.files["README.md"]).toBeUndefined();
  } finally {
    store.close();
    p.project.cleanup();
  }
});

test("repositories are apart: publishing one leaves the other as it was", async () => {
  const schema = freshSchema();
  const a = indexedProject();
  const b = indexedProject({ "lib.py": "def helper():\n    return 42\n" });
  const sa = await a.index();
  const sb = await b.index();
  try {
    await publishIndex(client, "service-a", sa, { schema });
    await publishIndex(client, "lib-b", sb, { schema });
    await publishIndex(client, "service-a", sa, { schema });
    expect((await listRepos(client, schema)).map((r) => [r.name, r.generation, r.files])).toEqual([
      ["lib-b", 1, 1],
      ["service-a", 2, 4],
    ]);
    expect(Object.keys((await liveState(client, schema, "lib-b")).files)).toEqual(["lib.py"]);
  } finally {
    sa.close();
    sb.close();
    a.project.cleanup();
    b.project.cleanup();
  }
});

test("a name that is a folder of another repository's name, or has one as its folder, is refused with nothing written", async () => {
  // over several repositories a path is <repo>/<path>: 'org' holding small/src/auth.py and 'org/small'
  // holding src/auth.py would both answer org/small/src/auth.py
  const schema = freshSchema();
  const small = indexedProject({ "src/auth.py": "def login_user():\n    return 1\n" });
  const org = indexedProject({ "small/src/auth.py": "def login_user():\n    return 2\n" });
  const ss = await small.index();
  const so = await org.index();
  try {
    await publishIndex(client, "org/small", ss, { schema });
    const before = await client.query(`SELECT repo_id, name, generation FROM ${schema}.repos ORDER BY repo_id`);
    const files = await client.query(`SELECT count(*)::int AS n FROM ${schema}.file_versions`);
    await expect(publishIndex(client, "org", so, { schema })).rejects.toThrow(
      "repo: 'org' would share paths with repository 'org/small' of the store: over several repositories a path is <repo>/<path>, and 'org/small/…' would name files of both 'org' and 'org/small'",
    );
    await expect(publishIndex(client, "org/small/x", so, { schema })).rejects.toThrow("repo: 'org/small/x' would share paths with repository 'org/small'");
    // nothing written: no row for the refused names, no file
    expect(await client.query(`SELECT repo_id, name, generation FROM ${schema}.repos ORDER BY repo_id`)).toEqual(before);
    expect(await client.query(`SELECT count(*)::int AS n FROM ${schema}.file_versions`)).toEqual(files);
    // names that only begin alike are no folder of each other; the same name publishes again
    expect((await publishIndex(client, "org-small", so, { schema })).generation).toBe(1);
    expect((await publishIndex(client, "org/smaller", so, { schema })).generation).toBe(1);
    expect((await publishIndex(client, "org/small", ss, { schema })).generation).toBe(2);
    expect((await listRepos(client, schema)).map((r) => r.name)).toEqual(["org-small", "org/small", "org/smaller"]);
  } finally {
    ss.close();
    so.close();
    small.project.cleanup();
    org.project.cleanup();
  }
});

test("removing a repository deletes every row the store held of it and nothing of the others", async () => {
  const schema = freshSchema();
  const a = indexedProject();
  const b = indexedProject({ "lib.py": "def helper():\n    return 42\n", "sub/more.py": "import lib\n\nlib.helper()\n" });
  const sa = await a.index();
  const sb = await b.index();
  // every table of the schema, and how many rows each holds
  const counts = async () => {
    const tables = await client.query<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1",
      [schema],
    );
    const out: Record<string, number> = {};
    for (const { t } of tables) out[t] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.${t}`))[0]!.n;
    return out;
  };
  try {
    await publishIndex(client, "keep", sa, { schema });
    const before = await counts();
    await publishIndex(client, "gone", sb, { schema });
    await publishIndex(client, "gone", sb, { schema });
    expect(await removeRepository(client, "gone", { schema })).toEqual({ repo: "gone", generation: 2, files: 2 });
    // the sequences of ids move on; every table's rows are as before "gone" was published
    expect(await counts()).toEqual(before);
    expect((await listRepos(client, schema)).map((r) => r.name)).toEqual(["keep"]);
    expect(await new PgIndexReader(client, "all", schema).textFileCount()).toBe(4);
    await expect(removeRepository(client, "gone", { schema, url: "the store" })).rejects.toThrow("unknown repository 'gone'; the store holds: keep");
    await removeRepository(client, "keep", { schema });
    await expect(removeRepository(client, "keep", { schema })).rejects.toThrow("unknown repository 'keep': the shared store holds no repositories");
  } finally {
    sa.close();
    sb.close();
    a.project.cleanup();
    b.project.cleanup();
  }
});

test("a reader refuses a store of another schema, naming the way out; a publication upgrades an older one", async () => {
  const schema = freshSchema();
  const p = indexedProject();
  const store = await p.index();
  const setVersion = (v: string) => client.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'schema_version'`, [v]);
  try {
    await publishIndex(client, "demo", store, { schema });
    await setVersion("99");
    await expect(listRepos(client, schema)).rejects.toThrow(
      "the shared store has schema 99 and this cortex reads 8: a newer cortex published into it; upgrade cortex",
    );
    // an older store: the 2 → 3 upgrade needs the heads column gone, and 3 → 4 the file rows' foreign
    // keys there, as a schema-2 store has them
    const fileKeys = async () =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND confrelid = '${schema}.file_versions'::regclass`,
        )
      )[0]!.n;
    await client.exec(`ALTER TABLE ${schema}.chunks DROP COLUMN heads;
      ${FILE_ROW_TABLES.map((t) => `ALTER TABLE ${schema}.${t} ADD FOREIGN KEY (file_id) REFERENCES ${schema}.file_versions(file_id) ON DELETE CASCADE;`).join("\n")}`);
    expect(await fileKeys()).toBe(FILE_ROW_TABLES.length);
    await setVersion("2");
    await expect(listRepos(client, schema)).rejects.toThrow(
      "the shared store has schema 2 and this cortex reads 8: publish any repository with this version (cortex index --repo <name> <path>), which upgrades the store in place",
    );
    await publishIndex(client, "demo", store, { schema });
    expect((await listRepos(client, schema)).map((r) => [r.name, r.generation])).toEqual([["demo", 2]]);
    expect(await fileKeys()).toBe(0);
    // and a store of version 3 loses the keys alone
    await client.exec(`ALTER TABLE ${schema}.symbols ADD FOREIGN KEY (file_id) REFERENCES ${schema}.file_versions(file_id) ON DELETE CASCADE`);
    await setVersion("3");
    await publishIndex(client, "demo", store, { schema });
    expect(await fileKeys()).toBe(0);
    expect((await listRepos(client, schema)).map((r) => [r.name, r.generation])).toEqual([["demo", 3]]);
    expect(await orphans(schema)).toEqual(none);
    // a store of version 4 searched text through pg_trgm's index, dropped now, and had no posting lists:
    // its repositories' files are every search's candidates until they are published again
    await client.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE INDEX file_versions_trgm ON ${schema}.file_versions USING gin (content gin_trgm_ops);
      ALTER TABLE ${schema}.repos DROP COLUMN postings;
      DELETE FROM ${schema}.trigram_postings;`);
    await setVersion("4");
    await publishIndex(client, "other", store, { schema });
    const index = async () => (await client.query(`SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = 'file_versions_trgm'`, [schema])).length;
    expect(await index()).toBe(0);
    const selective = { op: "and", args: trigramsOf("strings.ToUpper").map((t) => ({ op: "tri", t }) as const) } as const;
    const candidates = async (repo: string) => {
      const reader = new PgIndexReader(client, [repo], schema);
      return (await reader.textFiles(await reader.textCandidates(selective), false)).map((f) => f.path).sort();
    };
    expect(await candidates("demo")).toEqual(["README.md", "src/http/header.ts", "src/server.ts", "src/util.go"]);
    expect(await candidates("other")).toEqual(["src/util.go"]);
    await publishIndex(client, "demo", store, { schema });
    expect(await candidates("demo")).toEqual(["src/util.go"]);
    // a store of version 5 indexed every reference by name, target and enclosing definition: the first
    // two become the partial indexes of the rows their questions read, the third goes
    const refIndexes = async () =>
      (
        await client.query<{ name: string; def: string }>(
          `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = 'refs' ORDER BY indexname`,
          [schema],
        )
      ).map((r) => `${r.name}: ${r.def.replace(/^.* USING btree /, "")}`);
    const v6 = [
      "refs_file: (file_id)",
      "refs_target: (target_symbol_id) WHERE (target_symbol_id IS NOT NULL)",
      "refs_unresolved_name: (name) WHERE (target_symbol_id IS NULL)",
    ];
    expect(await refIndexes()).toEqual(v6);
    await client.exec(`DROP INDEX ${schema}.refs_target; DROP INDEX ${schema}.refs_unresolved_name;
      CREATE INDEX refs_name ON ${schema}.refs (name); CREATE INDEX refs_target ON ${schema}.refs (target_symbol_id);
      CREATE INDEX refs_enclosing ON ${schema}.refs (enclosing_symbol_id);`);
    await setVersion("5");
    await publishIndex(client, "demo", store, { schema });
    expect(await refIndexes()).toEqual(v6);
    expect((await listRepos(client, schema)).map((r) => [r.name, r.generation])).toEqual([
      ["demo", 5],
      ["other", 1],
    ]);
    // a store of version 6 matched keywords through GIN indexes on the vectors and had no keyword lists:
    // the upgrade drops the indexes and makes the live generations' lists from the vectors stored, and
    // keyword search answers as before
    const reader = new PgIndexReader(client, "all", schema);
    const answers = async () => ({
      chunks: await reader.keywordSearch(["server", "header", "parse"], { symbols: 10, title: 5, path: 2, body: 1 }, {}, 50),
      files: [
        ...(await reader.weightedFileScores(
          new Map([
            ["server", 1],
            ["header", 2],
          ]),
          { path: 3, defs: 2, doc: 0, code: 1 },
          {},
        )),
      ].sort(),
    });
    const published = await answers();
    expect(published.chunks.length).toBeGreaterThan(0);
    expect(published.files.length).toBeGreaterThan(0);
    const lists = async () =>
      (
        await client.query<{ l: string }>(
          `SELECT repo_id || ' ' || generation || ' ' || lexeme || ' ' || coalesce(files::text, '-') || ' ' || coalesce(heads::text, '-') || ' ' || coalesce(chunks::text, '-') AS l
           FROM ${schema}.keyword_postings ORDER BY repo_id, generation, lexeme`,
        )
      ).map((r) => r.l);
    const written = await lists();
    await client.exec(`DROP TABLE ${schema}.keyword_postings;
      CREATE INDEX file_versions_words ON ${schema}.file_versions USING gin (words);
      CREATE INDEX chunks_words ON ${schema}.chunks USING gin (words);
      CREATE INDEX chunks_heads ON ${schema}.chunks USING gin (heads);`);
    await setVersion("6");
    await ensureSchema(client, schema);
    expect(await lists()).toEqual(written);
    expect(await answers()).toEqual(published);
    const gin = await client.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%USING gin%'`, [schema]);
    expect(gin).toEqual([]);
    // a store of version 7 analysed the vectors and lists; 8 keeps no statistics of them (nor of the texts)
    const unanalysed = async () =>
      (
        await client.query<{ c: string }>(
          `SELECT c.relname || '.' || a.attname AS c FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
           WHERE c.relnamespace = $1::regnamespace AND a.attstattarget = 0 ORDER BY 1`,
          [schema],
        )
      ).map((r) => r.c);
    const v8 = [
      "chunks.heads",
      "chunks.text",
      "chunks.words",
      "file_versions.content",
      "file_versions.words",
      "keyword_postings.chunks",
      "keyword_postings.files",
      "keyword_postings.heads",
      "trigram_postings.postings",
    ];
    expect(await unanalysed()).toEqual(v8);
    await client.exec(`ALTER TABLE ${schema}.chunks ALTER COLUMN words SET STATISTICS -1, ALTER COLUMN heads SET STATISTICS -1;
      ALTER TABLE ${schema}.file_versions ALTER COLUMN words SET STATISTICS -1;
      ALTER TABLE ${schema}.keyword_postings ALTER COLUMN files SET STATISTICS -1, ALTER COLUMN heads SET STATISTICS -1, ALTER COLUMN chunks SET STATISTICS -1;
      ALTER TABLE ${schema}.trigram_postings ALTER COLUMN postings SET STATISTICS -1;`);
    expect(await unanalysed()).toEqual(["chunks.text", "file_versions.content"]);
    await setVersion("7");
    await ensureSchema(client, schema);
    expect(await unanalysed()).toEqual(v8);
    expect(await answers()).toEqual(published);
  } finally {
    store.close();
    p.project.cleanup();
  }
});

test("bad input is refused with the problem named", async () => {
  const p = indexedProject();
  const store = await p.index();
  try {
    await expect(publishIndex(client, "", store)).rejects.toThrow("repo: a repository needs a name");
    await expect(publishIndex(client, "all", store)).rejects.toThrow("repo: 'all' means every repository to a reader");
    for (const bad of [" ", "a,b", "my repo", "/abs", "org//x", "x/", "../up"]) {
      await expect(publishIndex(client, bad, store)).rejects.toThrow(`repo: '${bad}' is not a repository name`);
    }
    await expect(publishIndex(client, "x", store, { schema: "Robert'); DROP" })).rejects.toThrow("must be lower-case letters");
  } finally {
    store.close();
    p.project.cleanup();
  }
});
