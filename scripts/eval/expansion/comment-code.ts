/**
 * Word neighbours learned from the project itself (issue 15, item 2): which code words go with which
 * comment words. Every function that carries a description (docstring or leading comment, read as the
 * generated docstring set reads them: ../sets/doc-comments.ts) is one observation: the words of its
 * description, and the words of its code (identifier parts and whole identifiers, the description left
 * out). A description word's neighbours are the code words that follow it across the project's functions
 * more than chance does, by normalised pointwise mutual information:
 *
 *   npmi(w, k) = ln(c(w,k) · N / (n(w) · n(k))) / −ln(c(w,k) / N)
 *
 * with N the documented functions, n(w) those whose description says w, n(k) those whose code holds k,
 * c(w,k) both. So "remove" can lead to `evict` where the project's own comments say "remove" above code
 * that evicts. Measured through the engine's file ranking by research.ts (`--variants project`), not
 * shipped unless it helps (docs/benchmarks.md).
 *
 * The evaluation's corpus is what the index sees (the docstring set's descriptions blanked), so the table
 * never holds a question's own description.
 */
import { FactsParser } from "../../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../../src/lang/project.ts";
import { wordsOf } from "../../../src/core/words.ts";
import { STOP } from "../../../src/engines/search/query.ts";
import { docComments } from "../sets/doc-comments.ts";
import { sameStem } from "./query-expansion.ts";
import type { CorpusFile } from "../corpus.ts";
import type { Neighbour, NeighbourTable } from "./word-neighbours.ts";

/** One documented function: the distinct words of its description and of its code. */
interface Observation {
  comment: readonly string[];
  code: readonly string[];
}

const project = emptyProjectInfo();

/**
 * Words worth pairing: not stop words, not numbers, at least three letters, and no whole compound
 * identifier (`_force_tempfile_pager`): its parts are words the keyword index matches, the compound names
 * one definition, which is chance in a table learned from a few hundred functions.
 */
function keptWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of wordsOf(text)) if (w.length >= 3 && !STOP.has(w) && !/^\d/.test(w) && !w.includes("_") && w.length <= 20) out.add(w);
  return [...out];
}

/** The text with the given [start, end) ranges cut out. */
function without(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  let out = "";
  let at = 0;
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (s < at) continue;
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at);
}

export interface CommentCodeSettings {
  /** Pairs seen in fewer functions than this are chance; so are code words in fewer functions. */
  minPairs: number;
  /** At most this many neighbours per word, best first. */
  perWord: number;
}

/** The documented functions of a corpus, kept by blob so a corpus that changes a little re-parses a little. */
export class CommentCodeModel {
  private readonly byBlob = new Map<string, Observation[]>();
  private parser: FactsParser | undefined;

  /** The observations of every file of the corpus the parser knows. */
  async observations(corpus: ReadonlyMap<string, CorpusFile>): Promise<Observation[]> {
    this.parser ??= await FactsParser.create();
    const all: Observation[] = [];
    const live = new Set<string>();
    for (const [path, file] of corpus) {
      const key = `${path}\0${file.blob}`;
      live.add(key);
      let obs = this.byBlob.get(key);
      if (!obs) {
        obs = await this.parse(path, file.text);
        this.byBlob.set(key, obs);
      }
      for (const o of obs) all.push(o);
    }
    for (const key of this.byBlob.keys()) if (!live.has(key)) this.byBlob.delete(key);
    return all;
  }

  private async parse(path: string, text: string): Promise<Observation[]> {
    if (text.length > 1_000_000) return [];
    const parsed = await this.parser!.parse(path, text, project);
    if (!parsed.facts || !parsed.comments) return [];
    const functions = parsed.facts.functions;
    const lineStart = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStart.push(i + 1);
    const out: Observation[] = [];
    for (const [i, doc] of docComments(text, { language: parsed.language, functions, comments: parsed.comments })) {
      const fn = functions[i]!;
      const from = lineStart[fn.startLine - 1] ?? 0;
      const to = lineStart[fn.endLine] ?? text.length;
      // a Python docstring lies inside the function; a leading comment above it, outside the slice
      const inside = doc.ranges.filter(([a, b]) => a >= from && b <= to).map(([a, b]) => [a - from, b - from] as const);
      const code = without(text.slice(from, to), inside);
      const comment = keptWords(doc.query);
      if (comment.length === 0) continue;
      out.push({ comment, code: keptWords(`${fn.name} ${code}`) });
    }
    return out;
  }
}

/** The neighbour table of the given description words over these observations. */
export function commentCodeTable(words: Iterable<string>, observations: readonly Observation[], s: CommentCodeSettings): NeighbourTable {
  const asked = new Set(words);
  const n = observations.length;
  const table = new Map<string, Neighbour[]>();
  if (n === 0 || asked.size === 0) return table;
  const codeCount = new Map<string, number>();
  const commentCount = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  for (const o of observations) {
    for (const k of o.code) codeCount.set(k, (codeCount.get(k) ?? 0) + 1);
    for (const w of o.comment) {
      if (!asked.has(w)) continue;
      commentCount.set(w, (commentCount.get(w) ?? 0) + 1);
      let row = pairs.get(w);
      if (!row) pairs.set(w, (row = new Map()));
      for (const k of o.code) row.set(k, (row.get(k) ?? 0) + 1);
    }
  }
  for (const [w, row] of pairs) {
    const nw = commentCount.get(w)!;
    const list: Neighbour[] = [];
    for (const [k, c] of row) {
      if (c < s.minPairs || k === w || sameStem(w, k)) continue;
      const nk = codeCount.get(k)!;
      if (c >= n || nk < s.minPairs + 1) continue;
      const npmi = Math.log((c * n) / (nw * nk)) / -Math.log(c / n);
      if (npmi > 0) list.push({ word: k, similarity: npmi });
    }
    list.sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : 1));
    table.set(w, list.slice(0, s.perWord));
  }
  return table;
}
