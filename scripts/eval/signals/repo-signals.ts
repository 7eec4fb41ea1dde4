/**
 * Everything the signal rankers read about one repository at one base commit, kept in step with the
 * corpus incrementally: the plain BM25 index (path + content), the BM25F field index, a chunk index
 * (one document per definition-level chunk) and, per defined name, how many files define it.
 */
import { Bm25Index, DEFAULT_BM25 } from "../bm25.ts";
import type { CorpusFile } from "../corpus.ts";
import { FieldIndex } from "./field-index.ts";
import { analyzeFile, type FileAnalysis } from "./file-analysis.ts";

export class RepoSignals {
  readonly whole = new Bm25Index(DEFAULT_BM25);
  readonly fields = new FieldIndex();
  readonly chunks = new Bm25Index(DEFAULT_BM25);
  readonly files = new Map<string, FileAnalysis & { blob: string }>();
  /** Lower-cased defined name → number of files defining it. */
  readonly definers = new Map<string, number>();

  /** Scores computed for the current corpus, shared by the rankers that ask the same question. */
  private readonly memo = new Map<string, unknown>();

  /** `compute()` once per key until the corpus changes. */
  cached<T>(key: string, compute: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = compute();
    this.memo.set(key, v);
    return v;
  }

  sync(corpus: ReadonlyMap<string, CorpusFile>): void {
    this.memo.clear();
    for (const path of [...this.files.keys()]) if (!corpus.has(path)) this.remove(path);
    for (const [path, file] of corpus) {
      if (this.files.get(path)?.blob === file.blob) continue;
      this.remove(path);
      const a = { ...analyzeFile(path, file.text), blob: file.blob };
      this.files.set(path, a);
      this.whole.set(path, a.whole);
      this.fields.set(path, a.fields);
      a.chunks.forEach((c, k) => this.chunks.set(`${path}#${k}`, c));
      for (const d of a.defined) this.definers.set(d, (this.definers.get(d) ?? 0) + 1);
    }
  }

  private remove(path: string): void {
    const a = this.files.get(path);
    if (!a) return;
    this.files.delete(path);
    this.whole.delete(path);
    this.fields.delete(path);
    for (let k = 0; k < a.chunks.length; k++) this.chunks.delete(`${path}#${k}`);
    for (const d of a.defined) {
      const n = this.definers.get(d)! - 1;
      if (n === 0) this.definers.delete(d);
      else this.definers.set(d, n);
    }
  }
}
