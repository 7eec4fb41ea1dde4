/**
 * The exact engine's view of one index: its reader (candidate files for a trigram query, file rows,
 * stored text, all through the store's contract) and how each file stands on disk under the project root.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { ContentFileRow, LiteralHint, TextSearchReader } from "../../store/contract.ts";
import type { TrigramQuery } from "./plan.ts";
import { describesLocalTree } from "../../store/open-reader.ts";

export type DiskState = "same" | "changed" | "deleted";

/**
 * How the file at `path` under `root` stands against its indexed row (same size and modification time,
 * as the indexer decides). A path this process may not look at (a folder where the file was, no
 * permission) counts as deleted.
 */
export function diskStateAt(root: string, path: string, row: { mtimeMs: number; sizeBytes: number }): DiskState {
  try {
    const st = statSync(join(root, path), { throwIfNoEntry: false });
    if (st === undefined) return "deleted";
    return Math.trunc(st.mtimeMs) === row.mtimeMs && st.size === row.sizeBytes ? "same" : "changed";
  } catch {
    return "deleted";
  }
}

export class ExactIndexView {
  /** Whether the index describes files on this machine (a shared store's do not: its text is the truth). */
  readonly local: boolean;

  constructor(
    readonly index: TextSearchReader,
    readonly root: string,
    /** Where a verification worker opens the same index (store/open-reader.ts). */
    readonly source: string,
  ) {
    this.local = describesLocalTree(source);
  }

  /** Candidate file ids (ascending) for a query, or null for every file (`literal`: see TextSearchReader). */
  candidates(q: TrigramQuery, literal?: LiteralHint): Promise<Uint32Array | null> {
    return this.index.textCandidates(q, literal);
  }

  /** How many files each query admits (for idf estimates): the index's answer, uncovered files included. */
  candidateCounts(qs: TrigramQuery[]): Promise<number[]> {
    return this.index.textCandidateCounts(qs);
  }

  fileCount(): Promise<number> {
    return this.index.textFileCount();
  }

  /** Every indexed file. */
  allFiles(withLanguage = false): Promise<ContentFileRow[]> {
    return this.index.textFiles(null, withLanguage);
  }

  /** Rows of candidate files (every file for null). */
  rows(ids: Uint32Array | null, withLanguage = false): Promise<ContentFileRow[]> {
    return this.index.textFiles(ids, withLanguage);
  }

  /** Stored texts of several files (strings or UTF-8 bytes), in the order of `ids`. */
  texts(ids: number[], as: "string"): Promise<Array<string | undefined>>;
  texts(ids: number[], as: "bytes"): Promise<Array<Uint8Array | undefined>>;
  texts(ids: number[], as: "string" | "bytes"): Promise<Array<string | Uint8Array | undefined>> {
    return as === "bytes" ? this.index.texts(ids, "bytes") : this.index.texts(ids, "string");
  }

  /** Whether a file on disk still is what was indexed (same size and modification time, as the indexer decides). */
  diskState(row: ContentFileRow): DiskState {
    // a shared store's files are not on this machine: the indexed text is the truth
    return this.local ? diskStateAt(this.root, row.path, row) : "same";
  }
}
