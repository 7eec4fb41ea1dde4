/**
 * A generation's keyword lists (schema.ts, keyword_postings) as the publisher makes them: every lexeme of
 * every vector it writes, with the id of the file version or chunk holding it (writeBatch adds them as it
 * writes the vectors), and the unchanged files' entries carried over from the live generation's lists,
 * which hold them already: a later publication does not read or tokenize those files again.
 */
import type { PgQueryable } from "./client.ts";
import { BinaryCopy } from "./copy-binary.ts";
import { KEYWORD_LISTS } from "./schema.ts";

type Kind = (typeof KEYWORD_LISTS)[keyof typeof KEYWORD_LISTS];
const KINDS: readonly Kind[] = [KEYWORD_LISTS.fileWords, KEYWORD_LISTS.chunkHeads, KEYWORD_LISTS.chunkWords];

/** List rows per COPY. */
const ROWS_PER_COPY = 20_000;

const COLUMNS = ["repo_id", "generation", "lexeme", ...KINDS] as const;

/** One kind's entries: (lexeme id, row id) pairs in the order added, which is the row ids' order. */
class Entries {
  lexemes = new Int32Array(1 << 16);
  ids = new Float64Array(1 << 16);
  n = 0;
  /** Lexeme id → how many entries it has (counted as they are added). */
  counts = new Int32Array(1 << 12);

  add(lexemes: readonly number[], id: number, count: number): void {
    if (this.n + count > this.ids.length) {
      const size = Math.max(this.ids.length * 2, this.n + count);
      const l = new Int32Array(size);
      l.set(this.lexemes.subarray(0, this.n));
      this.lexemes = l;
      const i = new Float64Array(size);
      i.set(this.ids.subarray(0, this.n));
      this.ids = i;
    }
    for (let k = 0; k < count; k++) {
      const l = lexemes[k]!;
      if (l >= this.counts.length) {
        const c = new Int32Array(Math.max(this.counts.length * 2, l + 1));
        c.set(this.counts);
        this.counts = c;
      }
      this.counts[l]!++;
      this.lexemes[this.n] = l;
      this.ids[this.n++] = id;
    }
  }

  /**
   * The row ids grouped by lexeme (a counting sort, stable: each lexeme's ids stay ascending) and where
   * each lexeme's run starts (`start[l]`, its length `counts[l]`).
   */
  grouped(lexemeCount: number): { ids: Float64Array; start: Int32Array; counts: Int32Array } {
    const counts = new Int32Array(lexemeCount);
    counts.set(this.counts.subarray(0, Math.min(lexemeCount, this.counts.length)));
    const start = new Int32Array(lexemeCount);
    for (let l = 0, at = 0; l < lexemeCount; l++) {
      start[l] = at;
      at += counts[l]!;
    }
    const next = start.slice();
    const ids = new Float64Array(this.n);
    for (let k = 0; k < this.n; k++) ids[next[this.lexemes[k]!]!++] = this.ids[k]!;
    return { ids, start, counts };
  }
}

export class KeywordPostings {
  /**
   * Per kind, the (lexeme, id) entries as added (the publisher's KeywordVectors' lexeme ids), the ids
   * ascending since versions and chunks are added in the order of their ids. Flat typed arrays, grouped
   * by lexeme once when written: an array per lexeme and kind, pushed to, cost go-src's publisher twice
   * as much (millions of entries) and left the collector as many arrays.
   */
  private readonly entries = new Map<Kind, Entries>(KINDS.map((k) => [k, new Entries()]));

  /** Lists `id` under each of the first `count` of `lexemes` (the lexeme ids of one vector, each once). */
  add(kind: Kind, lexemes: readonly number[], id: number, count = lexemes.length): void {
    this.entries.get(kind)!.add(lexemes, id, count);
  }

  /** Writes the lists as generation `gen`'s rows, one per lexeme, in the key's order; `lexeme` names a lexeme id. */
  async write(tx: PgQueryable, s: string, repoId: number, gen: number, lexeme: (id: number) => string): Promise<void> {
    const count = Math.max(...KINDS.map((k) => this.entries.get(k)!.counts.length));
    const byKind = KINDS.map((k) => this.entries.get(k)!.grouped(count));
    const order: Array<[string, number]> = [];
    for (let l = 0; l < count; l++) if (byKind.some((g) => g.counts[l]! > 0)) order.push([lexeme(l), l]);
    // the primary key's order (collation C: bytes; UTF-16 order differs only past U+D800, where a few
    // rows out of order cost nothing)
    order.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let out = new BinaryCopy();
    for (const [text, l] of order) {
      out.row(COLUMNS.length);
      out.value("integer", repoId);
      out.value("integer", gen);
      out.value("text", text);
      for (const g of byKind) {
        const n = g.counts[l]!;
        if (n === 0) out.value("bigint", null);
        else out.bigintArray(g.ids, g.start[l]!, g.start[l]! + n);
      }
      if (out.rows >= ROWS_PER_COPY) {
        await tx.copyIn(`${s}.keyword_postings`, COLUMNS, out.data());
        out = new BinaryCopy();
      }
    }
    if (out.rows > 0) await tx.copyIn(`${s}.keyword_postings`, COLUMNS, out.data());
  }
}

/**
 * Carries the entries of `kept` (the unchanged files' live versions, which generation `next` shows
 * again) and of their chunks over from generation `live`'s lists into generation `next`'s, merged with
 * the lists written for the new versions (whose ids, newer, come after). `whole`: every live version is
 * kept, so the lists are carried over as they are, without taking them apart.
 */
export async function carryOverKeywordPostings(
  tx: PgQueryable,
  s: string,
  repoId: number,
  live: number,
  next: number,
  kept: readonly number[],
  whole: boolean,
): Promise<void> {
  if (kept.length === 0) return;
  // NULL || list is the list
  const merge = `ON CONFLICT (repo_id, generation, lexeme) DO UPDATE SET ${KINDS.map((k) => `${k} = excluded.${k} || k.${k}`).join(", ")}`;
  const columns = KINDS.join(", ");
  if (whole) {
    await tx.query(
      `INSERT INTO ${s}.keyword_postings AS k (repo_id, generation, lexeme, ${columns})
       SELECT repo_id, $3::int, lexeme, ${columns} FROM ${s}.keyword_postings WHERE repo_id = $1::int AND generation = $2::int
       ${merge}`,
      [repoId, live, next],
    );
    return;
  }
  // the kept ids as two sets the server hashes (versions, and their chunks found by chunks_file), each
  // list filtered against its kind's set
  const kept1 = (kind: Kind, set: string) => `(SELECT array_agg(i ORDER BY i) FROM unnest(o.${kind}) i WHERE i IN (SELECT id FROM ${set}))`;
  await tx.query(
    `WITH kf AS MATERIALIZED (SELECT unnest($4::bigint[]) AS id),
       kc AS MATERIALIZED (SELECT c.row_id AS id FROM ${s}.chunks c WHERE c.file_id IN (SELECT id FROM kf))
     INSERT INTO ${s}.keyword_postings AS k (repo_id, generation, lexeme, ${columns})
     SELECT repo_id, $3::int, lexeme, ${columns} FROM (
       SELECT o.repo_id, o.lexeme, ${kept1(KEYWORD_LISTS.fileWords, "kf")} AS ${KEYWORD_LISTS.fileWords},
         ${kept1(KEYWORD_LISTS.chunkHeads, "kc")} AS ${KEYWORD_LISTS.chunkHeads}, ${kept1(KEYWORD_LISTS.chunkWords, "kc")} AS ${KEYWORD_LISTS.chunkWords}
       FROM ${s}.keyword_postings o WHERE o.repo_id = $1::int AND o.generation = $2::int) x
     WHERE ${KINDS.map((k) => `${k} IS NOT NULL`).join(" OR ")}
     ${merge}`,
    [repoId, live, next, `{${kept.join(",")}}`],
  );
}
