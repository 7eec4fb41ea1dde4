/**
 * ResolutionReads (a full resolution's reads) decodes ref_rows and symbol_rows itself: it must give every
 * reference the refs view gives and every definition the symbols view gives, in the same order, with the
 * same fields.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { GraphStore, type RefToResolve } from "../../src/store/graph-store.ts";
import { IndexStore } from "../../src/store/index-store.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "graph");
let p: TmpProject;
let session: Session;

beforeAll(async () => {
  p = tmpProject();
  // languages with qualifiers, receiver types, resolutions of every kind, references outside definitions,
  // and every way a qualified name is stored (package, container, C++ scope, as text)
  for (const lang of ["go", "python", "typescript", "java", "cpp", "rust"]) cpSync(join(FIXTURES, lang), join(p.root, lang), { recursive: true });
  session = new Session(p.root);
  await session.index();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

test("forEachRefToResolve gives the refs view's rows in rowid order, whatever its chunk size", async () => {
  const g = new GraphStore(await session.requireStore());
  const fromView: RefToResolve[] = [];
  g.forEachRef(({ enclosing: _, ...r }) => fromView.push(r));
  expect(fromView.length).toBeGreaterThan(100);
  expect(new Set(fromView.map((r) => r.resolution))).toEqual(new Set([null, "exact", "import", "name-only"]));
  expect(fromView.some((r) => r.qualifier !== null && r.qualifierType !== null && r.enclosingId !== null)).toBe(true);
  for (const chunk of [1, 7, 100_000]) {
    const read: RefToResolve[] = [];
    g.resolutionReads().forEachRefToResolve((r) => read.push(r), chunk);
    expect(read).toEqual(fromView);
  }
});

test("ResolutionReads gives the symbols view's definitions by name and by file, in its order", async () => {
  const g = new GraphStore(await session.requireStore());
  const reads = g.resolutionReads();
  const all = g.allSymbols();
  expect(all.length).toBeGreaterThan(100);
  // every stored form of a qualified name and a container
  expect(all.some((s) => s.container !== null)).toBe(true);
  expect(all.some((s) => s.qname !== s.name && s.container === null)).toBe(true);
  const names = [...new Set(all.map((s) => s.name))];
  expect(reads.symbolsNamed(names)).toEqual(g.symbolsNamed(names));
  expect(reads.symbolsNamed(names.slice(0, 3))).toEqual(g.symbolsNamed(names.slice(0, 3)));
  const files = [...new Set(all.map((s) => s.file))];
  expect(reads.symbolsOfFiles(files)).toEqual(g.symbolsOfFiles(files));
  expect(reads.symbolsOfFiles(files.slice(1, 4).reverse())).toEqual(g.symbolsOfFiles(files.slice(1, 4)));
  expect(reads.symbolsOfFiles(["no/such/file.go"])).toEqual([]);
});

test("setTargets writes every target it is given, in whole statements and one by one past them", async () => {
  // a copy of the index, written here
  const copy = join(p.root, "index-copy.db");
  cpSync((await session.requireStore()).path, copy);
  const store = IndexStore.open(copy);
  const g = new GraphStore(store);
  const before: RefToResolve[] = [];
  g.forEachRef(({ enclosing: _, ...r }) => before.push(r));
  // one statement of 256 and a remainder written row by row, the rest untouched
  expect(before.length).toBeGreaterThan(256 + 7 + 10);
  const ids = before.slice(0, 256 + 7).map((r) => r.id);
  const hows = ["exact", "import", "name-only", null] as const;
  const want = ids.map((id, i) => ({ id, targetId: i % 4 === 3 ? null : 1000 + i, resolution: hows[i % 4] ?? null }));
  g.transaction(() => g.setTargets(want.length, (i) => want[i]!));
  const after = new Map<number, RefToResolve>();
  g.forEachRef(({ enclosing: _, ...r }) => after.set(r.id, r));
  for (const w of want) expect([after.get(w.id)!.targetId, after.get(w.id)!.resolution]).toEqual([w.targetId, w.resolution]);
  // the references past them are untouched
  for (const r of before.slice(want.length)) expect(after.get(r.id)).toEqual(r);
  store.close();
  for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
});
