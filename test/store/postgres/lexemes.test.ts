/**
 * The keyword vectors the publisher writes (lexemes.ts) are the server's own: every file's and chunk's
 * words and heads equal what `to_tsvector('english', …)` with setweight and || makes of the same words.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { LexemeMap, tokensOf } from "../../../src/store/postgres/lexemes.ts";
import { IndexSource } from "../../../src/store/postgres/source.ts";
import { BACKENDS } from "./backends.ts";
import { publishedFixture, type PublishedFixture } from "./fixture.ts";

setDefaultTimeout(120_000);

const SCHEMA = "t_lexemes";
for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let fixture: PublishedFixture | undefined;
    let client: PgClient;

    beforeAll(async () => {
      fixture = await publishedFixture(backend, "polyglot", SCHEMA);
      client = fixture.client;
    }, 180_000);

    afterAll(async () => {
      await fixture?.stop();
    });

    /** Whether the stored vector equals the server's computation from the words texts (one class per text, weights A, B, C, D in order). */
    const same = async (stored: string, texts: string[], weights: string[]) => {
      const expr = texts.map((_, i) => `setweight(to_tsvector('english', $${i + 2}), '${weights[i]}')`).join(" || ");
      const [r] = await client.query<{ same: boolean; mine: string; theirs: string }>(
        `SELECT $1::tsvector = (${expr}) AS same, $1::tsvector::text AS mine, (${expr})::text AS theirs`,
        [stored, ...texts],
      );
      expect(r!.mine).toBe(r!.theirs);
      return r!.same;
    };

    test("every published file's and chunk's keyword vector is the one to_tsvector makes of its words", async () => {
      const source = new IndexSource(fixture!.store);
      const files = await client.query<{ path: string; words: string }>(`SELECT path, words::text AS words FROM ${SCHEMA}.live_files WHERE repo = 'polyglot'`);
      const chunks = new Map(
        (
          await client.query<{ id: string; words: string; heads: string }>(
            `SELECT chunk_id AS id, words::text AS words, heads::text AS heads FROM ${SCHEMA}.chunks`,
          )
        ).map((c) => [c.id, c]),
      );
      let checked = 0;
      for (const f of source.files()) {
        const rows = source.rowsOf(f);
        const stored = files.find((r) => r.path === f.path)!;
        expect(await same(stored.words, [rows.words.path, rows.words.defs, rows.words.code], ["A", "B", "D"])).toBe(true);
        for (const c of rows.chunks) {
          const row = chunks.get(String(c.chunk_id))!;
          const heads = [String(c.w_symbols), String(c.w_title), String(c.w_path)];
          expect(await same(row.heads, heads, ["A", "B", "C"])).toBe(true);
          expect(await same(row.words, [...heads, String(c.w_body)], ["A", "B", "C", "D"])).toBe(true);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(50);
    });

    test("stop words take a position, long texts stop at position 16383, a lexeme keeps 255 positions", async () => {
      const map = new LexemeMap();
      const texts: Array<[string, string]> = [
        ["the server of a user", "and then the user"],
        [`${"word other ".repeat(9000)}tail`, "after_all words"],
        ["x_1 http2 utf8 1e5 0x1f 12 parse_header", ""],
        ["", "only later"],
      ];
      await map.learn(client, texts.flat());
      for (const [a, b] of texts) {
        expect(
          await same(
            map.vector([
              [a, "A"],
              [b, "D"],
            ]),
            [a, b],
            ["A", "D"],
          ),
        ).toBe(true);
      }
      expect(tokensOf(" parse_header  http ")).toEqual(["parse", "header", "http"]);
      expect(() => new LexemeMap().vector([["unlearnt", "A"]])).toThrow("unlearnt");
    });
  });
}
