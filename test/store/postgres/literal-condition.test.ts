/**
 * A literal as one strpos condition (literal-condition.ts): exact for the files it admits, and left out
 * where folding case in collation C could miss what the engine matches.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import type { PgValue } from "../../../src/store/postgres/client.ts";
import { literalCondition } from "../../../src/store/postgres/literal-condition.ts";
import { startPglite } from "./pglite-client.ts";

// starting PGlite alone takes seconds on a loaded machine
setDefaultTimeout(120_000);

test("a literal is one strpos condition, exact for the files it admits, and none where folding case could miss a match", async () => {
  const { client } = await startPglite();
  try {
    const texts = ["x := ErrNotExist", "errnotexist here", "Err NotExist", "rate 100%_off", "rate 1000_off", "ÄRGER ärger", "a->b", "back\\slash"];
    await client.exec('CREATE TABLE t (id int, content text COLLATE "C")');
    for (const [i, text] of texts.entries()) await client.query("INSERT INTO t VALUES ($1, $2)", [i, text]);
    const admitted = async (text: string, caseSensitive: boolean) => {
      const params: PgValue[] = [];
      const cond = literalCondition({ text, caseSensitive }, "content", (v) => {
        params.push(v);
        return `$${params.length}`;
      });
      if (cond === undefined) return undefined;
      return (await client.query<{ id: number }>(`SELECT id FROM t WHERE ${cond} ORDER BY id`, params)).map((r) => texts[r.id]);
    };
    expect(await admitted("ErrNotExist", true)).toEqual(["x := ErrNotExist"]);
    expect(await admitted("ErrNotExist", false)).toEqual(["x := ErrNotExist", "errnotexist here"]);
    // LIKE's wildcards and escape, and regex syntax, in the literal match themselves only
    expect(await admitted("100%_off", true)).toEqual(["rate 100%_off"]);
    expect(await admitted("100%_OFF", false)).toEqual(["rate 100%_off"]);
    expect(await admitted("k\\s", true)).toEqual(["back\\slash"]);
    expect(await admitted("->", true)).toEqual(["a->b"]);
    expect(await admitted("ERR NOTEXIST", false)).toEqual(["Err NotExist"]);
    // case-folding other letters is beyond lower() in collation C: no condition, the engine decides
    expect(await admitted("ärger", false)).toBeUndefined();
    expect(await admitted("ärger", true)).toEqual(["ÄRGER ärger"]);
    expect(await admitted("", true)).toBeUndefined();
    // text holds no NUL: the engine answers such a literal itself
    expect(await admitted("a\u0000b", true)).toBeUndefined();
  } finally {
    await client.close();
  }
});
