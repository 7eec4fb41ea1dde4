/**
 * The protocol's BM25 floor: Okapi BM25 (k1 1.2, b 0.75) over path + content of each corpus file, the
 * whole issue text as the query, tokens from tokenize.ts. Term bags are cached by blob id, so moving
 * to the next base commit re-tokenizes only the files that changed. For instances labelled with
 * functions it also ranks the corpus's functions the same way (bm25-functions.ts).
 */
import { Bm25Index, DEFAULT_BM25, queryWeights, termBag, type TermBag } from "./bm25.ts";
import { FunctionCorpusIndex } from "./bm25-functions.ts";
import { tokenize } from "./tokenize.ts";
import type { CorpusFile } from "./corpus.ts";
import type { Ranker, RankRequest } from "./ranker.ts";

/** Keeps a Bm25Index equal to a corpus that changes between calls, rebuilding only changed documents. */
export class CorpusIndex {
  readonly index = new Bm25Index(DEFAULT_BM25);
  private readonly blobs = new Map<string, string>();

  constructor(private readonly bagOf: (path: string, file: CorpusFile) => TermBag) {}

  sync(corpus: ReadonlyMap<string, CorpusFile>): void {
    for (const path of [...this.blobs.keys()]) {
      if (corpus.has(path)) continue;
      this.index.delete(path);
      this.blobs.delete(path);
    }
    for (const [path, file] of corpus) {
      if (this.blobs.get(path) === file.blob) continue;
      this.index.set(path, this.bagOf(path, file));
      this.blobs.set(path, file.blob);
    }
  }
}

/**
 * Query weights of plain BM25: every distinct query token once. (Counting repeats was measured to agree
 * less with the reference ranks; see docs/benchmarks.md.)
 */
export function plainQuery(text: string): Map<string, number> {
  const w = queryWeights(tokenize(text));
  for (const k of w.keys()) w.set(k, 1);
  return w;
}

export function createBm25Ranker(): Ranker {
  const corpusIndex = new CorpusIndex((path, file) => termBag(tokenize(path + "\n" + file.text)));
  const functionIndex = new FunctionCorpusIndex();
  return {
    name: "bm25",
    async rank(req: RankRequest) {
      corpusIndex.sync(req.corpus);
      return corpusIndex.index.rank(plainQuery(req.query));
    },
    async rankChunks(req: RankRequest) {
      await functionIndex.sync(req.corpus);
      return functionIndex.rank(plainQuery(req.query), 100);
    },
  };
}
