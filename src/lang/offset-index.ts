/**
 * Innermost-span look-ups by string offset. Tree nodes nest or are disjoint, so spans sorted by start with
 * a pointer to the span around each answer "which definition contains this offset" exactly, even when
 * several definitions share a line (minified code, one-line arrow functions), in O(log n + depth).
 */

export interface OffsetSpan<T> {
  start: number;
  /** Exclusive. */
  end: number;
  item: T;
}

export class OffsetIndex<T> {
  private readonly spans: OffsetSpan<T>[];
  private readonly parent: number[];

  constructor(spans: OffsetSpan<T>[]) {
    this.spans = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
    this.parent = new Array<number>(this.spans.length).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < this.spans.length; i++) {
      const s = this.spans[i]!;
      while (stack.length > 0 && this.spans[stack[stack.length - 1]!]!.end <= s.start) stack.pop();
      this.parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
      stack.push(i);
    }
  }

  /** The item of the innermost span with start <= offset < end, or undefined. */
  find(offset: number): T | undefined {
    const spans = this.spans;
    let lo = 0;
    let hi = spans.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]!.start <= offset) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (at >= 0 && spans[at]!.end <= offset) at = this.parent[at]!;
    return at >= 0 ? spans[at]!.item : undefined;
  }
}
