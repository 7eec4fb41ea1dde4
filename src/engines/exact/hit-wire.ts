/**
 * A verification worker's hits in the form they cross threads: numbers in typed arrays and every string
 * in one, cut by lengths. Posted as objects, a broad grep's hits (go-src's `func\s+\w+`: 51,095 lines,
 * each with its match details) cost 170-230 ms of structured cloning, most of it on the thread that
 * prints them; packed, a few milliseconds, and the objects are built again where they are read.
 */
import type { LineHit, MatchDetail } from "./line-scan.ts";
import type { VerifiedFile } from "./pool.ts";

export interface HitWire {
  /** Per file: its item, its hit count, 1 when stale. */
  items: Int32Array;
  counts: Int32Array;
  stale: Uint8Array;
  /** Per hit: line, context start, context lines, matches, 1 when truncated. */
  hits: Int32Array;
  /** Per match: column, groups (-1 when the detail has none), named groups (-1 when none). */
  matches: Int32Array;
  /** Per group value and named group value in order: 1 when null (no string for it). */
  nulls: Uint8Array;
  /** The length of each string in `text`, in order. */
  lens: Int32Array;
  text: string;
}

const HIT_FIELDS = 5;
const MATCH_FIELDS = 3;

export function packHits(files: readonly VerifiedFile[]): HitWire {
  const strings: string[] = [];
  const hitNums: number[] = [];
  const matchNums: number[] = [];
  const nulls: number[] = [];
  const value = (v: string | null) => {
    nulls.push(v === null ? 1 : 0);
    if (v !== null) strings.push(v);
  };
  for (const f of files) {
    for (const h of f.hits) {
      hitNums.push(h.line, h.contextStart, h.context.length, h.matches.length, h.truncated ? 1 : 0);
      strings.push(h.text);
      for (const c of h.context) strings.push(c);
      for (const m of h.matches) {
        const named = m.named_groups === undefined ? undefined : Object.entries(m.named_groups);
        matchNums.push(m.column, m.groups === undefined ? -1 : m.groups.length, named === undefined ? -1 : named.length);
        strings.push(m.text);
        if (m.groups !== undefined) for (const g of m.groups) value(g);
        if (named !== undefined)
          for (const [name, v] of named) {
            strings.push(name);
            value(v);
          }
      }
    }
  }
  return {
    items: Int32Array.from(files, (f) => f.item),
    counts: Int32Array.from(files, (f) => f.hits.length),
    stale: Uint8Array.from(files, (f) => (f.stale ? 1 : 0)),
    hits: Int32Array.from(hitNums),
    matches: Int32Array.from(matchNums),
    nulls: Uint8Array.from(nulls),
    lens: Int32Array.from(strings, (s) => s.length),
    text: strings.join(""),
  };
}

/** packHits undone: the same files, hits and details. */
export function unpackHits(w: HitWire): VerifiedFile[] {
  let s = 0; // next string
  let at = 0; // its offset in text
  const next = (): string => {
    const len = w.lens[s++]!;
    const out = w.text.slice(at, at + len);
    at += len;
    return out;
  };
  let n = 0; // next null flag
  const value = (): string | null => (w.nulls[n++] === 1 ? null : next());
  let h = 0; // next hit's fields
  let m = 0; // next match's fields
  const files: VerifiedFile[] = new Array(w.items.length);
  for (let f = 0; f < w.items.length; f++) {
    const hits: LineHit[] = new Array(w.counts[f]!);
    for (let k = 0; k < hits.length; k++, h += HIT_FIELDS) {
      const text = next();
      const context: string[] = new Array(w.hits[h + 2]!);
      for (let c = 0; c < context.length; c++) context[c] = next();
      const matches: MatchDetail[] = new Array(w.hits[h + 3]!);
      for (let d = 0; d < matches.length; d++, m += MATCH_FIELDS) {
        const detail: MatchDetail = { text: next(), column: w.matches[m]! };
        const groups = w.matches[m + 1]!;
        if (groups >= 0) {
          detail.groups = new Array(groups);
          for (let g = 0; g < groups; g++) detail.groups[g] = value();
        }
        const named = w.matches[m + 2]!;
        if (named >= 0) {
          detail.named_groups = {};
          for (let g = 0; g < named; g++) {
            const name = next();
            detail.named_groups[name] = value();
          }
        }
        matches[d] = detail;
      }
      const hit: LineHit = { line: w.hits[h]!, text, contextStart: w.hits[h + 1]!, context, matches };
      if (w.hits[h + 4] === 1) hit.truncated = true;
      hits[k] = hit;
    }
    const file: VerifiedFile = { item: w.items[f]!, hits };
    if (w.stale[f] === 1) file.stale = true;
    files[f] = file;
  }
  return files;
}
