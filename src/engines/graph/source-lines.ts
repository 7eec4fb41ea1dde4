/**
 * Lines of indexed files, cut from the stored content (not the disk, so positions always agree with the
 * facts). Lines are JavaScript strings, so multi-byte UTF-8 text comes out whole; a trailing CR is
 * dropped. One split per file per request.
 */
import type { IndexStore } from "../../store/index-store.ts";

export class SourceLines {
  private readonly store: IndexStore;
  private readonly cache = new Map<string, string[]>();

  constructor(store: IndexStore) {
    this.store = store;
  }

  private linesOf(file: string): string[] {
    let lines = this.cache.get(file);
    if (!lines) {
      lines = (this.store.contentOf(file) ?? "").split("\n");
      this.cache.set(file, lines);
    }
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
