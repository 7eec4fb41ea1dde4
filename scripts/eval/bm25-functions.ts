/**
 * The BM25 floor at function level: plain Okapi BM25 over every function of the corpus (path + the
 * function's lines as a document, functions found by cortex's own parse, src/lang), so function-level
 * figures have a floor to compare with as file-level ones do. Files are parsed once per blob.
 */
import { FactsParser } from "../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { Bm25Index, DEFAULT_BM25, termBag } from "./bm25.ts";
import { tokenize } from "./tokenize.ts";
import type { CorpusFile } from "./corpus.ts";
import type { RankedChunk } from "./ranker.ts";

interface FunctionDoc {
  path: string;
  start_line: number;
  end_line: number;
  name: string;
}

export class FunctionCorpusIndex {
  readonly index = new Bm25Index(DEFAULT_BM25);
  private readonly blobs = new Map<string, string>();
  /** Document ids of each file's functions. */
  private readonly byFile = new Map<string, string[]>();
  private readonly docs = new Map<string, FunctionDoc>();
  private parser: FactsParser | undefined;
  private readonly project = emptyProjectInfo();

  async sync(corpus: ReadonlyMap<string, CorpusFile>): Promise<void> {
    this.parser ??= await FactsParser.create();
    for (const path of [...this.blobs.keys()]) if (!corpus.has(path)) this.drop(path);
    for (const [path, file] of corpus) {
      if (this.blobs.get(path) === file.blob) continue;
      this.drop(path);
      const functions = (await this.parser.parse(path, file.text, this.project)).facts?.functions ?? [];
      const lines = file.text.split("\n");
      const ids: string[] = [];
      for (const f of functions) {
        const id = `${path}#${f.startLine}-${f.endLine}#${f.qualifiedName}`;
        if (this.docs.has(id)) continue;
        this.index.set(id, termBag(tokenize(path + "\n" + lines.slice(f.startLine - 1, f.endLine).join("\n"))));
        this.docs.set(id, { path, start_line: f.startLine, end_line: f.endLine, name: f.name });
        ids.push(id);
      }
      this.byFile.set(path, ids);
      this.blobs.set(path, file.blob);
    }
  }

  /** Functions best first, at most `limit`. */
  rank(weights: Map<string, number>, limit: number): RankedChunk[] {
    return this.index
      .rank(weights)
      .slice(0, limit)
      .map((id) => {
        const d = this.docs.get(id)!;
        return { path: d.path, start_line: d.start_line, end_line: d.end_line, chunk_type: "definitions", kind: "function", name: d.name };
      });
  }

  private drop(path: string): void {
    for (const id of this.byFile.get(path) ?? []) {
      this.index.delete(id);
      this.docs.delete(id);
    }
    this.byFile.delete(path);
    this.blobs.delete(path);
  }
}
