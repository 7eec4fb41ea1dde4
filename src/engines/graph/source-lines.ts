/**
 * Lines of indexed files, cut from the stored content (not the disk, so positions always agree with the
 * facts). Lines are JavaScript strings, so multi-byte UTF-8 text comes out whole; a trailing CR is
 * dropped. The files a request needs are read from the store in one batch (load), then split once each.
 */
import type { FileReader } from "../../store/contract.ts";

export class SourceLines {
  private readonly store: FileReader;
  private readonly cache = new Map<string, string[]>();

  constructor(store: FileReader) {
    this.store = store;
  }

  /** Reads the files not read yet, in one batch: call it with every file whose lines will be asked for. */
  async load(files: Iterable<string>): Promise<this> {
    const missing = [...new Set(files)].filter((f) => !this.cache.has(f));
    if (missing.length === 0) return this;
    const texts = await this.store.contents(missing);
    for (const f of missing) this.cache.set(f, (texts.get(f) ?? "").split("\n"));
    return this;
  }

  private linesOf(file: string): string[] {
    const lines = this.cache.get(file);
    if (!lines) throw new Error(`SourceLines: ${file} was not loaded`);
    return lines;
  }

  /** One line (1-based), "" beyond the file. */
  line(file: string, n: number): string {
    return (this.linesOf(file)[n - 1] ?? "").replace(/\r$/, "");
  }

  /** `around` lines either side of line n, clipped to the file: the first line's number and the lines. */
  window(file: string, n: number, around: number): { start_line: number; lines: string[] } {
    const lines = this.linesOf(file);
    const last = lines.length > 0 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
    const start = Math.max(1, n - around);
    const end = Math.min(last, n + around);
    const out: string[] = [];
    for (let i = start; i <= end; i++) out.push((lines[i - 1] ?? "").replace(/\r$/, ""));
    return { start_line: start, lines: out };
  }
}
