/**
 * The keyword vectors the publisher writes (keyword-vectors.ts) are the server's own: every published
 * file's and chunk's words and heads equal what `to_tsvector('english', …)` with setweight and || makes
 * of the same words, and so do the vectors of large real texts (this project's own sources) and of
 * classes joined at the limits of positions.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { wordsText } from "../../../src/core/words.ts";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { BinaryCopy } from "../../../src/store/postgres/copy-binary.ts";
import { KeywordVectors, parseVectorText, tokensOf, type Weight } from "../../../src/store/postgres/keyword-vectors.ts";
import { bodyWords, IndexSource, type WordPieces } from "../../../src/store/postgres/source.ts";
import { BACKENDS } from "./backends.ts";
import { publishedFixture, type PublishedFixture } from "./fixture.ts";

setDefaultTimeout(120_000);

const SCHEMA = "t_keyword_vectors";
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

    /** The server's vector of the words texts (one weight class per text, joined with ||) as text. */
    const servers = async (texts: string[], weights: Weight[]): Promise<string> => {
      const expr = texts.map((_, i) => `setweight(to_tsvector('english', $${i + 1}), '${weights[i]}')`).join(" || ");
      const [r] = await client.query<{ v: string }>(`SELECT (${expr})::text AS v`, texts);
      return r!.v;
    };
    /** A vector the publisher wrote, as the server reads and prints it. */
    const mine = async (vector: string): Promise<string> => {
      const [r] = await client.query<{ v: string }>("SELECT $1::tsvector::text AS v", [vector]);
      return r!.v;
    };

    test("tsvector text as the server prints it is read back lexeme by lexeme, quotes, backslashes and weights included", async () => {
      for (const text of ["parse header parsing headers", "it's a don''t", "back\\slash and 'quoted' word", "x1 0x1f 1e5 utf8", ""]) {
        const [r] = await client.query<{ v: string; l: string }>(
          `SELECT to_tsvector('simple', $1)::text AS v,
                  (SELECT coalesce(json_agg(json_build_array(lexeme, positions)), '[]'::json) FROM unnest(to_tsvector('simple', $1)))::text AS l`,
          [text],
        );
        expect(parseVectorText(r!.v)).toEqual(JSON.parse(r!.l));
      }
      // weights follow positions in setweight's output and are read past
      expect(parseVectorText("'a':1A,2 'b''c':3B")).toEqual([
        ["a", [1, 2]],
        ["b'c", [3]],
      ]);
      expect(() => parseVectorText("a:1")).toThrow("quoted");
    });

    test("every published file's and chunk's keyword vector is the one to_tsvector makes of its words", async () => {
      const source = new IndexSource(fixture!.store);
      const files = new Map(
        (await client.query<{ path: string; words: string }>(`SELECT path, words::text AS words FROM ${SCHEMA}.live_files WHERE repo = 'polyglot'`)).map(
          (r) => [r.path, r.words],
        ),
      );
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
        expect(files.get(f.path)).toBe(await servers([rows.words.path, rows.words.defs, rows.words.code], ["A", "B", "D"]));
        for (const c of rows.chunks) {
          const row = chunks.get(String(c.chunk_id))!;
          const heads = [String(c.w_symbols), String(c.w_title), String(c.w_path)];
          expect(row.heads).toBe(await servers(heads, ["A", "B", "C"]));
          expect(row.words).toBe(await servers([...heads, bodyWords(c.w_body as string | WordPieces, rows.fileWords)], ["A", "B", "C", "D"]));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(50);
    });

    test("large texts: stop words take a position, positions stop at 16383, a lexeme keeps 255 of them, 256 when joined", async () => {
      const ours = readFileSync(join(import.meta.dir, "../../../src/store/postgres/reader.ts"), "utf8");
      const texts: Array<[string, string]> = [
        ["the server of a user", "and then the user"],
        [`${"word other ".repeat(9000)}tail`, "after_all words"],
        ["x_1 http2 utf8 1e5 0x1f 12 parse_header _lead trail_ a__b", ""],
        ["", "only later"],
        [wordsText("src/store/postgres/reader.ts"), wordsText(ours.repeat(3))],
        // more distinct tokens than the lookup table first holds (it grows)
        [Array.from({ length: 40_000 }, (_, i) => `tok${i}x`).join(" "), "tok7x tok39999x"],
        // a lexeme at 16383 on the left takes nothing more from the right
        [`${"x ".repeat(17_000)}tail`, "tail tails x"],
        // 255 positions on the left and more on the right: 256 joined
        [`${"user ".repeat(300)}`, "users user"],
      ];
      const vectors = new KeywordVectors();
      await vectors.learn(client, texts.flat());
      const keywords = (out: BinaryCopy, a: string, d: string) =>
        vectors.writeVector(out, [
          [a, "A"],
          [d, "D"],
        ]);
      for (const [a, d] of texts) {
        expect(await mine(vectors.vector([[a, "A"]]))).toBe(await servers([a], ["A"]));
        expect(
          await mine(
            vectors.vector([
              [a, "A"],
              [d, "D"],
            ]),
          ),
        ).toBe(await servers([a, d], ["A", "D"]));
        // an empty part between two, and the classes the other way round
        expect(
          await mine(
            vectors.vector([
              [d, "B"],
              ["", "C"],
              [a, "D"],
            ]),
          ),
        ).toBe(await servers([d, "", a], ["B", "C", "D"]));
      }
      // the same vectors in binary COPY's format (what the publisher writes)
      const out = new BinaryCopy();
      texts.forEach(([a, d], i) => {
        out.row(2);
        out.value("integer", i);
        keywords(out, a, d);
      });
      await client.exec(`CREATE TABLE ${SCHEMA}.binary_vectors (i integer, v tsvector)`);
      await client.copyIn(`${SCHEMA}.binary_vectors`, ["i", "v"], out.data());
      const back = await client.query<{ v: string }>(`SELECT v::text AS v FROM ${SCHEMA}.binary_vectors ORDER BY i`);
      expect(back.length).toBe(texts.length);
      for (const [i, [a, d]] of texts.entries()) expect(back[i]!.v).toBe(await servers([a, d], ["A", "D"]));
      // a chunk's heads and words, the second continuing the first (writeHeadsAndWords), at the limits too
      const pairs = new BinaryCopy();
      texts.forEach(([a, d], i) => {
        pairs.row(3);
        pairs.value("integer", i);
        const both = vectors.writeHeadsAndWords(
          pairs,
          [
            [d, "A"],
            [a, "B"],
          ],
          [`${a} ${d}`, "D"],
        );
        expect(both.heads).toBeLessThanOrEqual(both.lexemes.length);
      });
      await client.exec(`CREATE TABLE ${SCHEMA}.binary_pairs (i integer, heads tsvector, words tsvector)`);
      await client.copyIn(`${SCHEMA}.binary_pairs`, ["i", "heads", "words"], pairs.data());
      const pairsBack = await client.query<{ heads: string; words: string }>(
        `SELECT heads::text AS heads, words::text AS words FROM ${SCHEMA}.binary_pairs ORDER BY i`,
      );
      for (const [i, [a, d]] of texts.entries()) {
        expect(pairsBack[i]!.heads).toBe(await servers([d, a], ["A", "B"]));
        expect(pairsBack[i]!.words).toBe(await servers([d, a, `${a} ${d}`], ["A", "B", "D"]));
      }
      expect(tokensOf(" parse_header  http ")).toEqual(["parse", "header", "http"]);
      expect(() => new KeywordVectors().vector([["unlearnt", "A"]])).toThrow("unlearnt");
    });
  });
}
