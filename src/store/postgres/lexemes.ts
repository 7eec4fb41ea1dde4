/**
 * Keyword vectors (tsvector) built by the publisher instead of the server's `to_tsvector('english', …)`.
 *
 * The server spent a third of a publication's CPU parsing and stemming the same words text twice, a file's
 * and its chunks' (go-src: about 30 of 90 s). The words are already split (core/words.ts: lower-case
 * ASCII letters, digits and _, space apart), and code repeats few distinct words many times, so the
 * server is asked once per distinct token what it makes of it (`to_tsvector('english', token)`: its
 * lexemes, or none for a stop word) and the publisher writes the vectors as tsvector text, weights and
 * positions as to_tsvector and setweight(…) || setweight(…) would give them: a stop word takes a
 * position; a class's positions follow the largest position of the classes before it; positions stop at
 * 16,383 and a lexeme keeps 255 of them at most. The reader's `to_tsquery('english', …)` meets the same
 * lexemes. The store's tests compare these vectors with the server's own.
 */
import type { PgQueryable } from "./client.ts";

/** What one token of words text becomes: lexemes at positions relative to the token, and the positions it takes. */
interface TokenLexemes {
  lexemes: Array<readonly [string, number[]]>;
  span: number;
}

/** PostgreSQL's limits on positions: the largest position, and how many a lexeme keeps. */
const MAX_POS = 16383;
const MAX_POSITIONS = 255;

/** Tokens of words text: what PostgreSQL's parser reads as words between spaces and underscores. */
export function tokensOf(words: string): string[] {
  return words.split(/[ _]+/).filter((t) => t !== "");
}

/** One weight class of a vector: its words text and its weight letter. */
export type WeightedWords = readonly [words: string, weight: "A" | "B" | "C" | "D"];

export class LexemeMap {
  private readonly known = new Map<string, TokenLexemes>();

  /** Asks the server about the tokens of `texts` it has not been asked about yet (one statement). */
  async learn(db: PgQueryable, texts: Iterable<string>): Promise<void> {
    const fresh = new Set<string>();
    for (const text of texts) for (const t of tokensOf(text)) if (!this.known.has(t)) fresh.add(t);
    if (fresh.size === 0) return;
    const rows = await db.query<{ t: string; l: Array<[string, number[]]> | null }>(
      `SELECT t, (SELECT json_agg(json_build_array(lexeme, positions)) FROM unnest(to_tsvector('english', t))) AS l
       FROM json_array_elements_text($1::text::json) AS t`,
      [JSON.stringify([...fresh])],
    );
    for (const r of rows) {
      const lexemes = (r.l ?? []).map(([lexeme, positions]) => [lexeme, positions] as const);
      let span = 1;
      for (const [, positions] of lexemes) for (const p of positions) span = Math.max(span, p);
      this.known.set(r.t, { lexemes, span });
    }
  }

  /**
   * The tsvector text of the classes in order, as `setweight(to_tsvector('english', words), weight) || …`
   * gives it. Every token must have been learnt.
   */
  vector(classes: readonly WeightedWords[]): string {
    const lexemes = new Map<string, { positions: string[]; last: number; inClass: number; klass: number }>();
    let offset = 0;
    for (let k = 0; k < classes.length; k++) {
      const [words, weight] = classes[k]!;
      let pos = 0;
      let top = 0;
      for (const token of tokensOf(words)) {
        const known = this.known.get(token);
        if (known === undefined) throw new Error(`keyword token '${token}' was not learnt`);
        for (const [lexeme, relative] of known.lexemes) {
          for (const r of relative) {
            const own = Math.min(MAX_POS, pos + r);
            const at = Math.min(MAX_POS, own + offset);
            top = Math.max(top, own);
            const seen = lexemes.get(lexeme);
            if (seen === undefined) {
              lexemes.set(lexeme, { positions: [`${at}${weight}`], last: at, inClass: 1, klass: k });
              continue;
            }
            if (seen.klass !== k) {
              seen.klass = k;
              seen.inClass = 0;
            }
            // to_tsvector keeps 255 positions of a lexeme and none after 16383; || joins up to 256
            if (seen.inClass < MAX_POSITIONS && seen.positions.length < MAX_POSITIONS + 1 && seen.last !== MAX_POS && seen.last !== at) {
              seen.positions.push(`${at}${weight}`);
              seen.last = at;
              seen.inClass++;
            }
          }
        }
        pos += known.span;
      }
      offset = Math.min(MAX_POS, offset + top);
    }
    const out: string[] = [];
    for (const [lexeme, { positions }] of lexemes) out.push(`'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}':${positions.join(",")}`);
    return out.join(" ");
  }
}
