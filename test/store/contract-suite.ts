/**
 * The reader contract's shared suite (src/store/contract.ts): every method's behaviour on one small Go
 * project written here and indexed by the real indexer into SQLite. An implementation runs it by passing
 * a factory that turns that built index into its reader (the SQLite reader opens the file; a PostgreSQL
 * reader publishes it into its database first), so both answer the very same questions.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { IndexReader, RefSite, TrigramQuery } from "../../src/store/contract.ts";
import { trigramsOf } from "../../src/store/trigrams.ts";
import { SQLITE_INDEX_DIALECT } from "../../src/store/sql-dialect.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { textKey } from "../../src/core/hash.ts";

/** The project the suite indexes and the SQLite index the indexer built from it. */
export interface ContractFixture {
  root: string;
  indexPath: string;
}

export type ReaderFactory = (fixture: ContractFixture) => Promise<IndexReader>;

export const CONTRACT_FILES: Record<string, string> = {
  "go.mod": "module example.com/shop\n\ngo 1.21\n",
  "README.md": "# Shop\n\nA small shop used by the store contract tests.\n",
  "store/store.go": `// Package store keeps the shop's records.
package store

// DB is the record store.
type DB struct {
	rows map[string]string
}

// Open returns an empty store.
func Open() *DB {
	return &DB{rows: map[string]string{}}
}

// Get reads one record.
func (d *DB) Get(key string) string {
	return d.rows[key]
}
`,
  "auth/auth.go": `package auth

import "example.com/shop/store"

// Checker decides whether a user may enter.
type Checker interface {
	Check(user string) bool
}

// Handler checks users against the store.
type Handler struct {
	db *store.DB
}

// Check tells whether the user is known.
func (h *Handler) Check(user string) bool {
	return h.db.Get(user) != ""
}

// Login signs a user in with a password.
func Login(user string, password string) bool {
	db := store.Open()
	missing(user)
	return db.Get(user) == password
}
`,
  "auth/auth_test.go": `package auth

import "testing"

func TestLogin(t *testing.T) {
	if Login("ann", "secret") {
		t.Fatal("unexpected login")
	}
}
`,
  "cyc/a/a.go": `package a

import "example.com/shop/cyc/b"

func A() int { return b.B() + 1 }
`,
  "cyc/b/b.go": `package b

import "example.com/shop/cyc/a"

func B() int { return a.A() - 1 }
`,
};

const sorted = <T>(xs: Iterable<T>): T[] => [...xs].sort();
/** A literal's trigram query: every trigram of it (case-folded), as the exact planner builds it. */
const literal = (s: string): TrigramQuery => ({ op: "and", args: trigramsOf(s.toLowerCase()).map((t) => ({ op: "tri" as const, t })) });

export function readerContractSuite(name: string, factory: ReaderFactory): void {
  describe(`reader contract: ${name}`, () => {
    let p: TmpProject;
    let reader: IndexReader;

    beforeAll(async () => {
      p = tmpProject(CONTRACT_FILES);
      const session = new Session(p.root);
      try {
        await session.index();
        const indexPath = session.reader()!.source;
        session.close();
        reader = await factory({ root: p.root, indexPath });
      } finally {
        session.close();
      }
    });
    afterAll(async () => {
      await reader?.close();
      p?.cleanup();
    });

    test("state: meta values, a complete parse tier, languages and recorded file states", async () => {
      expect(await reader.meta("last_run")).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await reader.meta("no such key")).toBeUndefined();
      expect(await reader.parseTierState()).toBeUndefined();
      const langs = await reader.languageCounts();
      expect(langs.go).toBe(5);
      expect(Object.values(langs).reduce((a, b) => a + b, 0)).toBe(Object.keys(CONTRACT_FILES).length);
      const all = await reader.fileStates();
      expect(sorted(all.keys())).toEqual(sorted(Object.keys(CONTRACT_FILES)));
      const some = await reader.fileStates(["auth/auth.go", "nope.go"]);
      expect([...some.keys()]).toEqual(["auth/auth.go"]);
      const st = some.get("auth/auth.go")!;
      expect(st.sizeBytes).toBe(Buffer.byteLength(CONTRACT_FILES["auth/auth.go"]!));
      expect(st.contentHash).toBe(all.get("auth/auth.go")!.contentHash);
      expect(typeof reader.source).toBe("string");
    });

    test("files: parse-tier rows, paths under folders and modules, code files and contents", async () => {
      const info = await reader.filesInfo(["auth/auth_test.go", "store/store.go", "missing.go"]);
      expect(sorted(info.keys())).toEqual(["auth/auth_test.go", "store/store.go"]);
      expect(info.get("auth/auth_test.go")).toEqual({ path: "auth/auth_test.go", language: "go", modulePath: "auth", isTest: true });
      expect(info.get("store/store.go")!.isTest).toBe(false);
      const all = await reader.allFiles();
      expect(all.map((f) => f.path)).toEqual(sorted(Object.keys(CONTRACT_FILES)));
      expect(await reader.fileCount()).toBe(all.length);
      expect(await reader.filesUnder("cyc")).toEqual(["cyc/a/a.go", "cyc/b/b.go"]);
      expect(await reader.filesUnder("")).toEqual(all.map((f) => f.path));
      expect(await reader.filesOfModules(["auth", "cyc/b"])).toEqual(["auth/auth.go", "auth/auth_test.go", "cyc/b/b.go"]);
      const code = (await reader.codeFiles()).map((f) => f.path);
      expect(code).toEqual(["auth/auth.go", "auth/auth_test.go", "cyc/a/a.go", "cyc/b/b.go", "store/store.go"]);
      const texts = await reader.contents(["store/store.go", "README.md", "gone.txt"]);
      expect(texts.get("store/store.go")).toBe(CONTRACT_FILES["store/store.go"]!);
      expect(texts.get("README.md")).toBe(CONTRACT_FILES["README.md"]!);
      expect(texts.has("gone.txt")).toBe(false);
    });

    test("text search: candidates for a trigram query, counts, rows and texts by id", async () => {
      const rows = await reader.textFiles(null, true);
      expect(rows.length).toBe(Object.keys(CONTRACT_FILES).length);
      expect(await reader.textFileCount()).toBe(rows.length);
      const byPath = new Map(rows.map((r) => [r.path, r]));
      expect(byPath.get("auth/auth.go")!.language).toBe("go");
      const ids = await reader.textCandidates(literal("password"));
      expect(ids).not.toBeNull();
      // auth.go holds the word; the candidates may include others but never miss it, and are ascending
      expect([...ids!]).toContain(byPath.get("auth/auth.go")!.fileId);
      expect([...ids!]).toEqual([...ids!].sort((a, b) => a - b));
      expect([...ids!]).not.toContain(byPath.get("go.mod")!.fileId);
      expect(await reader.textCandidates({ op: "all" })).toBeNull();
      const [one, all] = await reader.textCandidateCounts([literal("password"), { op: "all" }]);
      expect(one).toBe(ids!.length);
      expect(all).toBe(rows.length);
      const picked = await reader.textFiles(Uint32Array.from([byPath.get("store/store.go")!.fileId]), false);
      expect(picked.map((r) => r.path)).toEqual(["store/store.go"]);
      const id = byPath.get("store/store.go")!.fileId;
      const [text, unknown] = await reader.texts([id, 987654], "string");
      expect(text).toBe(CONTRACT_FILES["store/store.go"]!);
      expect(unknown).toBeUndefined();
      const [bytes] = await reader.texts([id], "bytes");
      expect(new TextDecoder().decode(bytes)).toBe(CONTRACT_FILES["store/store.go"]!);
    });

    test("keyword search: chunk hits with filters, definitions, weighted scores, rows by id", async () => {
      const weights = { symbols: 4, title: 2, path: 2, body: 1 };
      const hits = await reader.keywordSearch(["password"], weights, {}, 10);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0]!.filePath).toBe("auth/auth.go");
      expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score)).toBe(true);
      expect(await reader.keywordSearch(["password"], weights, { pathPrefixes: ["store"] }, 10)).toEqual([]);
      expect(await reader.keywordSearch([], weights, {}, 10)).toEqual([]);
      const defs = await reader.definitionsNamed(["Login"], {}, 10);
      expect(defs.map((d) => [d.filePath, d.name])).toEqual([["auth/auth.go", "Login"]]);
      const chunkScores = await reader.weightedChunkScores(new Map([["password", 1]]), weights, {});
      expect([...chunkScores.values()].some((v) => v.filePath === "auth/auth.go" && v.score > 0)).toBe(true);
      const fileScores = await reader.weightedFileScores(new Map([["record", 1]]), { path: 3, defs: 3, doc: 0.5, code: 1 }, {});
      expect(fileScores.get("store/store.go")).toBeGreaterThan(0);
      expect(fileScores.has("cyc/a/a.go")).toBe(false);
      const defining = await reader.definingFiles(["Get", "Nothing"]);
      expect([...defining.keys()]).toEqual(["Get"]);
      expect(sorted(defining.get("Get")!)).toEqual(["store/store.go"]);
      const rows = await reader.chunksById([defs[0]!.id, "symbols:nope.go#x"]);
      expect([...rows.keys()]).toEqual([defs[0]!.id]);
      const row = rows.get(defs[0]!.id)!;
      expect(row.file_path).toBe("auth/auth.go");
      expect(row.chunk_type).toBe("definitions");
      expect(row.text).toContain("func Login(user string, password string) bool");
      expect(row.is_test).toBe(0);
      expect(row.text_hash).toBe(textKey(row.text as string));
      expect(Array.isArray(JSON.parse(row.tags))).toBe(true);
      const overview = await reader.fileOverviewChunks(["store/store.go", "nope.go"]);
      expect([...overview.keys()]).toEqual(["store/store.go"]);
      expect(overview.get("store/store.go")!.isTest).toBe(false);
      expect(await reader.filesPassing(["auth/auth.go", "auth/auth_test.go"], { excludeTests: true })).toEqual(new Set(["auth/auth.go"]));
      expect(await reader.chunkCount()).toBeGreaterThanOrEqual(defs.length + 5);
      // tags some chunk carries: of those asked, or the most common (every code chunk has "code" and "go")
      expect(sorted(await reader.chunkTags(["go", "auth", "klingon"], 5))).toEqual(["auth", "go"]);
      const common = await reader.chunkTags(undefined, 3);
      expect(common.length).toBe(3);
      expect(common.slice(0, 2).sort()).toEqual(["code", "go"]);
    });

    test("vectors: chunk hashes (filtered or not) and texts by hash", async () => {
      const all = await reader.chunkHashes();
      expect(all.length).toBe(await reader.chunkCount());
      const inStore = await reader.chunkHashes({ pathPrefixes: ["store"] });
      expect(inStore.length).toBeGreaterThan(0);
      expect(inStore.length).toBeLessThan(all.length);
      expect(inStore.every((c) => c.id.includes("store/store.go"))).toBe(true);
      const texts = await reader.chunkTextsByHash([inStore[0]!.hash, "00".repeat(16)]);
      expect([...texts.keys()]).toEqual([inStore[0]!.hash]);
      expect(textKey(texts.get(inStore[0]!.hash)!)).toBe(inStore[0]!.hash);
    });

    test("symbols and references: by name, file and id; names for suggestions", async () => {
      const get = await reader.symbolsNamed(["Get", "Open"]);
      expect(get.map((s) => [s.qname, s.kind, s.file])).toEqual([
        ["store.Open", "function", "store/store.go"],
        ["store.DB.Get", "method", "store/store.go"],
      ]);
      const ofFile = await reader.symbolsOfFiles(["store/store.go"]);
      expect(ofFile.map((s) => s.name)).toEqual(["DB", "Open", "Get"]);
      expect((await reader.symbolsById([get[1]!.id])).map((s) => s.qname)).toEqual(["store.DB.Get"]);
      const callers = await reader.refsByTargets([get[1]!.id]);
      expect(sorted(callers.filter((r) => r.kind === "call").map((r) => `${r.file}:${r.line}`))).toEqual(["auth/auth.go:17", "auth/auth.go:24"]);
      const login = (await reader.symbolsNamed(["Login"]))[0]!;
      const inside = await reader.refsInside([login.id]);
      expect(sorted(inside.filter((r) => r.kind === "call").map((r) => r.name))).toEqual(["Get", "Open", "missing"]);
      expect((await reader.unresolvedNamed("missing")).map((r) => r.file)).toEqual(["auth/auth.go"]);
      // the sites are the same references with the same fields, the enclosing definition aside
      const site = (r: RefSite) => ({
        id: r.id,
        file: r.file,
        name: r.name,
        qualifier: r.qualifier,
        kind: r.kind,
        line: r.line,
        column: r.column,
        targetId: r.targetId,
        resolution: r.resolution,
      });
      const byId = (a: RefSite, b: RefSite) => a.id - b.id;
      expect((await reader.refSitesByTargets([get[1]!.id])).map(site).sort(byId)).toEqual(callers.map(site).sort(byId));
      expect((await reader.unresolvedSitesNamed("missing")).map(site).sort(byId)).toEqual((await reader.unresolvedNamed("missing")).map(site).sort(byId));
      expect(await reader.unresolvedSitesNamed("nothingNamedThis")).toEqual([]);
      // the definition a reference is written in, for the references asked about only
      const writtenIn = await reader.enclosingOf(callers.map((r) => r.id));
      expect([...writtenIn.keys()].sort()).toEqual(callers.map((r) => r.id).sort());
      for (const r of callers) expect(writtenIn.get(r.id)).toBe(r.enclosing);
      expect((await reader.enclosingOf([])).size).toBe(0);
      const into = await reader.refsIntoFiles(["store/store.go"]);
      expect(into.every((r) => r.targetFile === "store/store.go" && r.file !== "store/store.go")).toBe(true);
      expect(sorted(new Set(into.map((r) => r.name)))).toEqual(["DB", "Get", "Open"]);
      const owners = (await reader.methodOwners("go", ["Check"])).map((o) => `${o.container}.${o.name} ${o.file}`);
      expect(sorted(owners)).toEqual(["auth.Checker.Check auth/auth.go", "auth.Handler.Check auth/auth.go"]);
      expect(await reader.namesIgnoringCase("login")).toEqual(["Login"]);
      expect(sorted(await reader.namesContaining("ogi"))).toEqual(["Login", "TestLogin"]);
      expect(await reader.namesContaining("o_")).toEqual([]);
      expect(sorted(await reader.namesOfLength(1, 1))).toEqual(["A", "B"]);
    });

    test("import graph: edges out, in, among files, first imports, cycles and size", async () => {
      const out = await reader.edgesOf(["auth/auth.go"]);
      expect(out.map((e) => [e.target, e.line, e.module])).toEqual([["store/store.go", 3, "example.com/shop/store"]]);
      const inn = await reader.edgesInto(["store/store.go"]);
      expect(inn.map((e) => e.file)).toEqual(["auth/auth.go"]);
      const among = await reader.edgesAmong(["cyc/a/a.go", "cyc/b/b.go"]);
      expect(sorted(among.map((e) => `${e.file}>${e.target}`))).toEqual(["cyc/a/a.go>cyc/b/b.go", "cyc/b/b.go>cyc/a/a.go"]);
      const first = await reader.firstImports([
        ["cyc/a/a.go", "cyc/b/b.go"],
        ["store/store.go", "auth/auth.go"],
      ]);
      expect([...first.entries()]).toEqual([["cyc/a/a.go\u0000cyc/b/b.go", { line: 3, column: 8, module: "example.com/shop/cyc/b" }]]);
      expect([...(await reader.componentFiles(undefined)).values()]).toEqual([["cyc/a/a.go", "cyc/b/b.go"]]);
      expect([...(await reader.componentFiles("auth")).values()]).toEqual([]);
      expect(await reader.importGraphSize("")).toEqual({ files: 3, edges: 3 });
      expect(await reader.importGraphSize("cyc")).toEqual({ files: 2, edges: 2 });
    });

    test("graph facts: importers, definitions of a file, users, unresolved callers, cycles", async () => {
      expect(await reader.importers("store/store.go")).toEqual([{ file: "auth/auth.go", count: 1 }]);
      const ids = await reader.symbolIdsOf("store/store.go");
      expect(ids.length).toBe(3);
      const getIds = await reader.symbolIdsNamedWithin("store/store.go", "Get", 1, 100);
      expect(getIds.length).toBe(1);
      expect(await reader.symbolIdsNamedWithin("store/store.go", "Get", 1, 5)).toEqual([]);
      const users = await reader.users(ids, "store/store.go");
      expect(users.map((u) => u.file)).toEqual(["auth/auth.go"]);
      expect(users[0]!.count).toBeGreaterThanOrEqual(3);
      expect(await reader.users([], "x")).toEqual([]);
      expect(await reader.unresolvedCallers("missing", "store/store.go")).toEqual(["auth/auth.go"]);
      expect(await reader.unresolvedCallers("missing", "auth/auth.go")).toEqual([]);
      const modules = await reader.importedModules();
      expect(modules).toContainEqual({ file: "auth/auth_test.go", module: "testing" });
      expect(modules.length).toBe(4);
      expect(await reader.topLevelNames("store/store.go", 2)).toEqual(["DB", "Open"]);
      expect(sorted(await reader.inImportCycles(["cyc/a/a.go", "auth/auth.go", "cyc/b/b.go"]))).toEqual(["cyc/a/a.go", "cyc/b/b.go"]);
    });

    test("project facts: language shares, import usage, totals, imports and calls per file", async () => {
      const shares = await reader.languageShares();
      expect(shares[0]!.language).toBe("go");
      expect(shares[0]!.files).toBe(5);
      expect(shares[0]!.test_files).toBe(1);
      const usage = await reader.importUsage();
      expect(usage.find((u) => u.module === "testing")).toEqual({ module: "testing", files: 1, external: false, std: true });
      expect(usage.find((u) => u.module === "example.com/shop/store")!.std).toBe(false);
      const totals = await reader.projectTotals();
      expect(totals.files).toBe(Object.keys(CONTRACT_FILES).length);
      expect(totals.test_files).toBe(1);
      expect(totals.types).toBe(3);
      expect(totals.functions).toBe(8); // Open, Get, Handler.Check, Checker.Check (an interface method), Login, TestLogin, A, B
      const imports = await reader.importsByFile();
      expect(imports.get("cyc/a/a.go")).toEqual(["example.com/shop/cyc/b"]);
      const calls = await reader.callsByFile();
      expect(calls.get("cyc/b/b.go")).toEqual(new Set(["A", "a.A"]));
    });

    test("statistics: a compiled query runs in the reader's dialect", async () => {
      expect(["sqlite", "postgres"]).toContain(reader.dialect.name);
      const d = reader.dialect;
      const sql = `SELECT ${d.quote("file_path")}, ${d.quote("is_test")} FROM ${d.quote("files")} WHERE ${d.quote("language")} = ${d.placeholder(1)} AND ${d.quote("file_path")} ${d.likeOperator(false)} ${d.placeholder(2)} ORDER BY 1`;
      const r = await reader.runStatsQuery(sql, ["go", "AUTH/%"]);
      expect(r.columns).toEqual(["file_path", "is_test"]);
      expect(r.rows.map((x) => [x[0], x[1] === true || x[1] === 1])).toEqual([
        ["auth/auth.go", false],
        ["auth/auth_test.go", true],
      ]);
      expect(d === SQLITE_INDEX_DIALECT || d.name === "postgres").toBe(true);
    });
  });
}
