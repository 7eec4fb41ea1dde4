/**
 * A literal as one LIKE condition (literal-condition.ts): exact for the files it admits, and left out
 * where ILIKE could miss what the engine matches.
 */
import { expect, test } from "bun:test";
import type { PgValue } from "../../../src/store/postgres/client.ts";
import { likeCondition } from "../../../src/store/postgres/literal-condition.ts";
import { startPglite } from "./pglite-client.ts";

test("a literal is one LIKE condition, exact for the files it admits, and none where ILIKE could miss a match", async () => {
  const { client } = await startPglite();
  try {
    const texts = ["x := ErrNotExist", "errnotexist here", "Err NotExist", "rate 100%_off", "rate 1000_off", "ÄRGER ärger", "a->b", "back\\slash"];
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
    // LIKE's own wildcards and escape in the literal match themselves only
    expect(await admitted("100%_off", true)).toEqual(["rate 100%_off"]);
    expect(await admitted("k\\s", true)).toEqual(["back\\slash"]);
    expect(await admitted("->", true)).toEqual(["a->b"]);
    // case-folding other letters is beyond ILIKE in collation C: no condition, the engine decides
    expect(await admitted("ärger", false)).toBeUndefined();
    expect(await admitted("ärger", true)).toEqual(["ÄRGER ärger"]);
    expect(await admitted("", true)).toBeUndefined();
  } finally {
    await client.close();
  }
});
