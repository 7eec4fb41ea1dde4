/**
 * The exact engine's view of one index database: candidate files for a trigram query (including files
 * the trigram index does not cover yet), file rows, stored text, and how each file stands on disk.
 * Derived data is cached until another connection commits (PRAGMA data_version), so a long-lived server
 * sees incremental index runs at once without reopening anything.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { ContentIndex, ContentFileRow } from "../../store/content-index.ts";
import { unionSorted } from "../../store/trigrams.ts";
import { CandidateFinder } from "./candidates.ts";
import type { TrigramQuery } from "./plan.ts";

export type DiskState = "same" | "changed" | "deleted";

export class ExactIndexView {
  private version = -1;
  private uncovered: Uint32Array = new Uint32Array(0);
  private hasTrigrams = false;
  private all: ContentFileRow[] | undefined;
  private allWithLanguage: ContentFileRow[] | undefined;

  constructor(
    readonly index: ContentIndex,
    readonly root: string,
    readonly dbPath: string,
  ) {}

  private refresh(): void {
    const v = this.index.dataVersion();
    if (v === this.version) return;
    this.version = v;
    this.all = undefined;
    this.allWithLanguage = undefined;
    this.hasTrigrams = this.index.available();
    this.uncovered = this.hasTrigrams ? Uint32Array.from(this.index.uncovered()).sort() : new Uint32Array(0);
  }

  /** Candidate file ids (ascending) for a query, or null for every file. */
  candidates(q: TrigramQuery): Uint32Array | null {
    this.refresh();
    if (!this.hasTrigrams) return null; // an index from before the trigram tables: scan everything
    const ids = new CandidateFinder(this.index).evaluate(q);
    return ids === null ? null : unionSorted(ids, this.uncovered);
  }

  /** How many files a query admits (for idf estimates): the index's answer, uncovered files included. */
  candidateCount(q: TrigramQuery): number {
    const c = this.candidates(q);
    return c === null ? this.fileCount() : c.length;
  }

  fileCount(): number {
    return this.allFiles().length;
  }

  /** Every indexed file, cached per index version. */
  allFiles(withLanguage = false): ContentFileRow[] {
    this.refresh();
    if (withLanguage) return (this.allWithLanguage ??= this.index.files(undefined, true));
    return (this.all ??= this.allWithLanguage ?? this.index.files(undefined, false));
  }

  /** Rows of candidate files (every file for null); few ids are looked up, many are filtered from the cache. */
  rows(ids: Uint32Array | null, withLanguage = false): ContentFileRow[] {
    this.refresh();
    if (ids === null) return this.allFiles(withLanguage);
    if (ids.length > 2000) {
      const set = new Set(ids);
      return this.allFiles(withLanguage).filter((r) => set.has(r.fileId));
    }
    return this.index.files(ids, withLanguage);
  }

  text(fileId: number): string | undefined {
    return this.index.text(fileId);
  }

  /** Stored texts of several files (strings or UTF-8 bytes), in the order of `ids`. */
  texts(ids: number[], as: "string"): Array<string | undefined>;
  texts(ids: number[], as: "bytes"): Array<Uint8Array | undefined>;
  texts(ids: number[], as: "string" | "bytes"): Array<string | Uint8Array | undefined> {
    return as === "bytes" ? this.index.texts(ids, "bytes") : this.index.texts(ids, "string");
  }

  /** Whether a file on disk still is what was indexed (same size and modification time, as the indexer decides). */
  diskState(row: ContentFileRow): DiskState {
    try {
      const st = statSync(join(this.root, row.path));
      return Math.trunc(st.mtimeMs) === row.mtimeMs && st.size === row.sizeBytes ? "same" : "changed";
    } catch {
      return "deleted";
    }
  }
}
