/**
 * GraphStore.forEachRefToResolve reads ref_rows itself, a chunk at a time (reference resolution's full
 * run): it must give every reference the refs view gives, in the same order, with the same fields.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { GraphStore, type RefToResolve } from "../../src/store/graph-store.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "graph");
let p: TmpProject;
let session: Session;

beforeAll(async () => {
  p = tmpProject();
  // languages with qualifiers, receiver types, resolutions of every kind and references outside definitions
  for (const lang of ["go", "python", "typescript", "java"]) cpSync(join(FIXTURES, lang), join(p.root, lang), { recursive: true });
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
    g.forEachRefToResolve((r) => read.push(r), chunk);
    expect(read).toEqual(fromView);
  }
});
