/**
 * Definitions, references, the import graph and chunk texts from the shared store, beside the local
 * index's own answers (GraphStore, chunk-vectors) on the polyglot and graph fixtures, published to PGlite.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import type { IndexStore } from "../../../src/store/index-store.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { chunkHashes, chunkTextsByHash } from "../../../src/store/chunk-vectors.ts";
import { GraphFacts } from "../../../src/store/graph-facts.ts";
import { callsByFile, importsByFile, importUsage, languageShares, projectTotals } from "../../../src/store/project-queries.ts";
import { BACKENDS } from "./backends.ts";
import { publishedFixture, type PublishedFixture } from "./fixture.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const SCHEMA = "t_graph";
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let fixture: PublishedFixture | undefined;
    let client: PgClient;
    let store: IndexStore;
    let graph: GraphStore;
    let reader: PgIndexReader;

    beforeAll(async () => {
      fixture = await publishedFixture(backend, "graph", SCHEMA);
      ({ client, store, reader } = fixture);
      graph = new GraphStore(store);
    }, 180_000);

    afterAll(async () => {
      await fixture?.stop();
    });

    const sorted = <T>(rows: T[]): T[] =>
      rows
        .map((r) => JSON.stringify(r))
        .sort()
        .map((r) => JSON.parse(r) as T);

    test("definitions by name, file and id: the local rows, in source order", async () => {
      const all = graph.allSymbols();
      expect(all.length).toBeGreaterThan(100);
      const names = [...new Set(all.map((s) => s.name))].slice(0, 40);
      expect(await reader.symbolsNamed(names)).toEqual(graph.symbolsNamed(names));
      const files = [...new Set(all.map((s) => s.file))].slice(0, 10);
      expect(await reader.symbolsOfFiles(files)).toEqual(graph.symbolsOfFiles(files));
      const ids = all.slice(0, 50).map((s) => s.id);
      expect(sorted(await reader.symbolsById(ids))).toEqual(sorted(graph.symbolsById(ids)));
    });

    test("references by target, by enclosing definition, unresolved, and into files", async () => {
      const all = graph.allSymbols();
      const ids = all.map((s) => s.id);
      const byTarget = graph.refsByTargets(ids);
      expect(byTarget.length).toBeGreaterThan(50);
      expect(sorted(await reader.refsByTargets(ids))).toEqual(sorted(byTarget));
      expect(sorted(await reader.refsInside(ids))).toEqual(sorted(graph.refsInside(ids)));
      const unresolved: string[] = [];
      graph.forEachRef((r) => {
        if (r.targetId === null && unresolved.length < 10) unresolved.push(r.name);
      });
      for (const name of unresolved) expect(sorted(await reader.unresolvedNamed(name))).toEqual(sorted(graph.unresolvedNamed(name)));
      const files = [...new Set(all.map((s) => s.file))];
      const into = graph.refsIntoFiles(files);
      expect(into.length).toBeGreaterThan(10);
      expect(sorted(await reader.refsIntoFiles(files))).toEqual(sorted(into));
    });

    test("name look-ups: ignoring case, containing, by length, method owners", async () => {
      const names = [...new Set(graph.allSymbols().map((s) => s.name))];
      const sample = names.slice(0, 15);
      for (const n of sample) {
        expect((await reader.namesIgnoringCase(n.toUpperCase())).sort()).toEqual(graph.namesIgnoringCase(n.toUpperCase()).sort());
        const frag = n.slice(1, 4);
        if (frag.length === 3)
          expect((await reader.namesContaining(frag)).sort()).toEqual(graph.namesLike(`%${frag.replace(/[\\%_]/g, (c) => `\\${c}`)}%`).sort());
      }
      expect((await reader.namesOfLength(3, 6)).sort()).toEqual(graph.namesOfLength(3, 6).sort());
      for (const language of ["go", "java", "python", "typescript"]) {
        expect(sorted(await reader.methodOwners(language, names))).toEqual(sorted(graph.methodOwners(language, names)));
      }
    });

    test("the import graph: edges out, in, among files, first imports, cycles and size", async () => {
      const edges = graph.allEdges();
      expect(edges.length).toBeGreaterThan(10);
      const files = [...new Set(edges.map((e) => e.file))];
      const targets = [...new Set(edges.map((e) => e.target))];
      expect(sorted(await reader.edgesOf(files))).toEqual(sorted(graph.edgesOf(files)));
      expect(sorted(await reader.edgesInto(targets))).toEqual(sorted(graph.edgesInto(targets)));
      const among = [...new Set([...files, ...targets])];
      expect(sorted(await reader.edgesAmong(among))).toEqual(sorted(graph.edgesAmong(among)));
      const pairs = edges.slice(0, 20).map((e) => [e.file, e.target] as const);
      const first = await reader.firstImports(pairs);
      for (const [f, t] of pairs) expect(first.get(`${f}\0${t}`)).toEqual(graph.firstImport(f, t));
      expect(await reader.componentFiles(undefined)).toEqual(graph.componentFiles(undefined));
      expect(await reader.importGraphSize("")).toEqual(graph.importGraphSize(""));
      const dir = files[0]!.split("/")[0]!;
      expect(await reader.importGraphSize(dir)).toEqual(graph.importGraphSize(dir));
    });

    test("chunk hashes and texts for vectors are the local index's", async () => {
      const local = chunkHashes(store);
      expect(sorted(await reader.chunkHashes())).toEqual(sorted(local));
      const some = local.slice(0, 20).map((c) => c.hash);
      expect(await reader.chunkTextsByHash(some)).toEqual(chunkTextsByHash(store, some));
    });

    test("a reader of several repositories names ids with their repository, and answers id questions with them", async () => {
      const all = new PgIndexReader(client, "all", SCHEMA);
      const mains = await all.symbolsNamed(["main"]);
      expect(mains.length).toBeGreaterThan(0);
      expect(mains.every((s) => s.file.startsWith("graph/"))).toBe(true);
      const local = graph.symbolsNamed(["main"]);
      // repo_id * 2^32 + the building index's id
      expect(mains.map((s) => s.id % 2 ** 32).sort()).toEqual(local.map((s) => s.id).sort());
      expect(mains.every((s) => s.id >= 2 ** 32)).toBe(true);
      expect((await all.symbolsById(mains.map((s) => s.id))).map((s) => s.id).sort()).toEqual(mains.map((s) => s.id).sort());
      const refs = await all.refsByTargets(mains.map((s) => s.id));
      expect(refs.length).toBe(graph.refsByTargets(local.map((s) => s.id)).length);
      expect(refs.every((r) => mains.some((m) => m.id === r.targetId))).toBe(true);
    });

    test("graph facts per file: importers, users, unresolved callers, top-level names, cycles", async () => {
      const facts = new GraphFacts(store);
      const targets = [...new Set(graph.allEdges().map((e) => e.target))];
      let importers = 0;
      for (const t of targets) {
        const local = facts.importers(t);
        importers += local.length;
        expect(await reader.importers(t)).toEqual(local);
      }
      expect(importers).toBeGreaterThan(5);
      const files = [...new Set(graph.allSymbols().map((s) => s.file))];
      for (const f of files.slice(0, 25)) {
        const ids = facts.symbolIdsOf(f);
        expect((await reader.symbolIdsOf(f)).sort()).toEqual([...ids].sort());
        expect(await reader.users(ids, f)).toEqual(facts.users(ids, f));
        expect((await reader.topLevelNames(f, 5)).sort()).toEqual(facts.topLevelNames(f, 5).sort());
        const first = graph.symbolsOfFiles([f])[0];
        if (first) expect(await reader.symbolIdsNamedWithin(f, first.name, 1, 10_000)).toEqual(facts.symbolIdsNamedWithin(f, first.name, 1, 10_000));
      }
      const unresolved: string[] = [];
      graph.forEachRef((r) => {
        if (r.targetId === null && r.kind === "call" && unresolved.length < 10) unresolved.push(r.name);
      });
      for (const name of unresolved) expect(await reader.unresolvedCallers(name, "")).toEqual(facts.unresolvedCallers(name, ""));
      expect(sorted(await reader.importedModules())).toEqual(sorted(facts.importedModules()));
      expect((await reader.inImportCycles(files)).sort()).toEqual(facts.inImportCycles(files).sort());
    });

    test("whole-project facts: language shares, import usage, totals, imports and calls per file", async () => {
      expect(sorted(await reader.languageShares())).toEqual(sorted(languageShares(store)));
      expect(sorted(await reader.importUsage())).toEqual(sorted(importUsage(store)));
      expect(await reader.projectTotals()).toEqual(projectTotals(store));
      const byFile = (m: Map<string, string[]>) => [...m].map(([f, l]) => [f, [...l].sort()]).sort();
      expect(byFile(await reader.importsByFile())).toEqual(byFile(importsByFile(store)));
      const calls = (m: Map<string, Set<string>>) => [...m].map(([f, l]) => [f, [...l].sort()]).sort();
      expect(calls(await reader.callsByFile())).toEqual(calls(callsByFile(store)));
    });
  });
}
