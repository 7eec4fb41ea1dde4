/**
 * The trigram query the shared store's candidate statement uses is the planner's query rewritten with
 * fewer conditions: equal on every set of trigrams (random queries against random files), and for the
 * regex that motivated it, a handful of conditions instead of dozens.
 */
import { expect, test } from "bun:test";
import type { TrigramQuery } from "../../../src/store/contract.ts";
import { likeCondition, simplifyTrigramQuery, trigramCondition } from "../../../src/store/postgres/trigram-condition.ts";
import type { PgValue } from "../../../src/store/postgres/client.ts";
import { startPglite } from "./pglite-client.ts";
import { compilePattern } from "../../../src/engines/exact/text-query.ts";

function holds(q: TrigramQuery, file: Set<number>): boolean {
  switch (q.op) {
    case "all":
      return true;
    case "tri":
      return file.has(q.t);
    case "and":
      return q.args.every((a) => holds(a, file));
    case "or":
      return q.args.some((a) => holds(a, file));
  }
}

/** A small deterministic generator (tests must not differ between runs). */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function randomQuery(next: () => number, depth: number): TrigramQuery {
  const r = next();
  if (depth === 0 || r < 0.35) return r < 0.03 ? { op: "all" } : { op: "tri", t: 0x616161 + Math.floor(next() * 5) };
  const args = Array.from({ length: Math.floor(next() * 4) }, () => randomQuery(next, depth - 1));
  return { op: r < 0.7 ? "and" : "or", args };
}

test("the simplified query admits exactly the files the planner's query admits", () => {
  const next = rng(7);
  for (let i = 0; i < 3000; i++) {
    const q = randomQuery(next, 4);
    const s = simplifyTrigramQuery(q);
    for (let f = 0; f < 32; f++) {
      const file = new Set([0, 1, 2, 3, 4].filter((b) => (f >> b) & 1).map((b) => 0x616161 + b));
      expect({ q, file: [...file], admitted: holds(s, file) }).toEqual({ q, file: [...file], admitted: holds(q, file) });
    }
  }
});

test("a regex whose alternatives repeat trigrams becomes a few conditions", () => {
  const { plan } = compilePattern("func \\(\\w+ \\*?Context\\)", true, false);
  const count = (sql: string) => sql.split("ILIKE").length - 1;
  let raw = 0;
  const tally = (q: TrigramQuery): void => {
    if (q.op === "tri") raw++;
    if (q.op === "and" || q.op === "or") q.args.forEach(tally);
  };
  tally(plan.query);
  const params: string[] = [];
  const sql = trigramCondition(plan.query, "content", (v) => {
    params.push(String(v));
    return `$${params.length}`;
  });
  expect(raw).toBeGreaterThan(40);
  expect(count(sql)).toBeLessThanOrEqual(11);
  expect(params).not.toContain("%c (%");
  expect(params).toContain("%con%");
});

test("a literal is one LIKE condition in PostgreSQL, exact for the files it admits, and left to the trigram query when it could not narrow or could miss", async () => {
  const { client } = await startPglite();
  try {
    const texts = ["x := ErrNotExist", "errnotexist here", "Err NotExist", "rate 100%_off", "rate 1000_off", "ÄRGER ärger", "a->b"];
    await client.exec('CREATE TABLE t (id int, content text COLLATE "C")');
    for (const [i, text] of texts.entries()) await client.query("INSERT INTO t VALUES ($1, $2)", [i, text]);
    const admitted = async (text: string, caseSensitive: boolean) => {
      const params: PgValue[] = [];
      const cond = likeCondition({ text, caseSensitive }, "content", (v) => {
        params.push(v);
        return `$${params.length}`;
      });
      if (cond === undefined) return undefined;
      return (await client.query<{ id: number }>(`SELECT id FROM t WHERE ${cond} ORDER BY id`, params)).map((r) => texts[r.id]);
    };
    expect(await admitted("ErrNotExist", true)).toEqual(["x := ErrNotExist"]);
    expect(await admitted("ErrNotExist", false)).toEqual(["x := ErrNotExist", "errnotexist here"]);
    // LIKE's own wildcards in the literal match themselves only
    expect(await admitted("100%_off", true)).toEqual(["rate 100%_off"]);
    // case-folding other letters is beyond ILIKE (it folds ASCII only): no condition, the trigram query answers
    expect(await admitted("ärger", false)).toBeUndefined();
    expect(await admitted("ärger", true)).toEqual(["ÄRGER ärger"]);
    // no three letters or digits in a row: the index could not narrow it
    expect(await admitted("->", true)).toBeUndefined();
  } finally {
    await client.close();
  }
});
