/**
 * MultiRowInsert (src/store/multi-row-insert.ts): rows go in a group per statement, in order, with
 * consecutive rowids from the one it returns, which the store's id ranges (ref_first…, symbol_first…) rely on.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { MultiRowInsert } from "../../src/store/multi-row-insert.ts";

function table(autoincrement: boolean): Database {
  const db = new Database(":memory:", { strict: true });
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY${autoincrement ? " AUTOINCREMENT" : ""}, a TEXT, b INTEGER)`);
  return db;
}

test("inserts every row in order with consecutive rowids, past one statement's group, and returns the first", () => {
  for (const autoincrement of [false, true]) {
    const db = table(autoincrement);
    const rows = new MultiRowInsert(db, "t (a, b)", 2);
    expect(rows.insert(["x", 1])).toBe(1);
    const values: Array<string | number | null> = [];
    for (let i = 0; i < 75; i++) values.push(`r${i}`, i % 3 === 0 ? null : i);
    const first = rows.insert(values);
    expect(first).toBe(2);
    const got = db.query("SELECT id, a, b FROM t WHERE id >= ? ORDER BY id").all(first!) as Array<{ id: number; a: string; b: number | null }>;
    expect(got.map((r) => r.id)).toEqual(Array.from({ length: 75 }, (_, i) => first! + i));
    expect(got.map((r) => [r.a, r.b])).toEqual(Array.from({ length: 75 }, (_, i) => [`r${i}`, i % 3 === 0 ? null : i]));
    db.close();
  }
});

test("continues after a deleted last row as a single insert would (AUTOINCREMENT never reuses an id)", () => {
  const db = table(true);
  const rows = new MultiRowInsert(db, "t (a, b)", 2);
  rows.insert(["a", 1, "b", 2, "c", 3]);
  db.exec("DELETE FROM t WHERE id = 3");
  expect(rows.insert(["d", 4, "e", 5])).toBe(4);
  db.close();
});

test("inserts nothing for no values, and refuses values that do not make whole rows", () => {
  const db = table(false);
  const rows = new MultiRowInsert(db, "t (a, b)", 2);
  expect(rows.insert([])).toBeUndefined();
  expect(() => rows.insert(["a", 1, "b"])).toThrow("3 values do not make rows of 2 columns for t (a, b)");
  expect((db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n).toBe(0);
  db.close();
});
