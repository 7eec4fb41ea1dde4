/**
 * The store's door (src/store/sqlite-access.ts): outside src/store nothing opens SQLite, reaches a
 * store's connection or writes SQL, except the files-query compiler, which compiles against a dialect.
 * A second backend then has one contract to implement: the store's methods.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

const outside = sourceFiles(SRC)
  .map((p) => relative(ROOT, p))
  .filter((p) => !p.startsWith("src/store/"));

/** Every module specifier a file imports or re-exports, type-only and dynamic imports included. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\b(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm,
  )) {
    out.push(m[1] ?? m[2] ?? m[3]!);
  }
  return out;
}

const FORBIDDEN = [/^bun:sqlite$/, /(^|\/)store\/sqlite-access(\.ts)?$/, /(^|\/)store\/db(\.ts)?$/];

test("the scan sees what it must (a forbidden import in a sample is caught)", () => {
  const sample = `import type { Database } from "bun:sqlite";\nexport { sqliteOf } from "../store/sqlite-access.ts";\nconst m = await import("../../store/db.ts");`;
  expect(specifiers(sample).filter((s) => FORBIDDEN.some((f) => f.test(s)))).toEqual(["bun:sqlite", "../store/sqlite-access.ts", "../../store/db.ts"]);
});

test("nothing outside src/store opens SQLite or reaches a store's connection", () => {
  expect(outside.length).toBeGreaterThan(50);
  const offending: string[] = [];
  for (const file of outside) {
    for (const s of specifiers(readFileSync(join(ROOT, file), "utf8"))) {
      if (FORBIDDEN.some((f) => f.test(s))) offending.push(`${file} imports ${s}`);
    }
  }
  expect(offending).toEqual([]);
});

/** SQL in code (comments removed by the transpiler): statements a backend would have to understand. */
const SQL = /\b(SELECT\s+[\w*"(]|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|PRAGMA\s+\w|CREATE\s+(TABLE|INDEX|VIEW|TRIGGER|VIRTUAL))/;
const transpiler = new Bun.Transpiler({ loader: "ts" });

test("the SQL check sees SQL in code and not in comments", () => {
  expect(SQL.test(transpiler.transformSync(`const q = "SELECT name FROM symbols";`))).toBe(true);
  expect(SQL.test(transpiler.transformSync(`// SELECT name FROM symbols\n/* PRAGMA data_version */\nexport const x = 1;`))).toBe(false);
});

test("no SQL outside src/store except the files-query compiler", () => {
  const allowed = new Set(["src/engines/files/compile.ts"]);
  const offending = outside.filter((file) => !allowed.has(file) && SQL.test(transpiler.transformSync(readFileSync(join(ROOT, file), "utf8"))));
  expect(offending).toEqual([]);
});

/**
 * The read path's door (src/store/contract.ts): engines and tools read an index through the asynchronous
 * reader contract, never through the synchronous SQLite modules behind it. The exceptions are the build
 * side, which runs inside the indexer (reference resolution reads and writes through GraphStore while an
 * index run holds the IndexStore), and the composition root's inspection handle (Session.store(): the
 * CLI's statistics export, tests and benchmarks).
 */
const SYNC_READERS =
  /(^|\/)store\/(index-store|graph-store|graph-facts|chunk-search|chunk-vectors|project-queries|content-index|sqlite-reader|reader-queries|trigram-candidates)(\.ts)?$/;
const BUILD_SIDE: Record<string, RegExp> = {
  "src/engines/symbols/resolve-hook.ts": /store\/(index-store|graph-store)\.ts$/,
  "src/engines/symbols/resolve.ts": /store\/graph-store\.ts$/,
  "src/engines/symbols/symbol-index.ts": /store\/graph-store\.ts$/,
  "src/engines/symbols/scope.ts": /store\/graph-store\.ts$/,
  "src/tools/session.ts": /store\/index-store\.ts$/,
};

test("the reader check sees a synchronous reader import and lets the contract through", () => {
  expect(SYNC_READERS.test("../../store/graph-facts.ts")).toBe(true);
  expect(SYNC_READERS.test("../store/index-store.ts")).toBe(true);
  expect(SYNC_READERS.test("../../store/contract.ts")).toBe(false);
  expect(SYNC_READERS.test("../../store/open-reader.ts")).toBe(false);
});

test("engines and tools read through the contract, except the documented build side", () => {
  const readPath = outside.filter((f) => f.startsWith("src/engines/") || f.startsWith("src/tools/"));
  expect(readPath.length).toBeGreaterThan(40);
  const offending: string[] = [];
  for (const file of readPath) {
    for (const s of specifiers(readFileSync(join(ROOT, file), "utf8"))) {
      if (SYNC_READERS.test(s) && !BUILD_SIDE[file]?.test(s)) offending.push(`${file} imports ${s}`);
    }
  }
  expect(offending).toEqual([]);
});
