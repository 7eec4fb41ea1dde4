/**
 * What the keyword indexes (FTS5, detail=full) store of a field's words: each distinct word
 * 1 + floor(log2(n)) times for its n occurrences, repeats side by side, in order of first appearance;
 * numbers (words of digits only) not at all.
 * - FTS5 keeps a position per occurrence; in code most of them are repeats (`err` fifty times in a file),
 *   and BM25 saturates in the count anyway (k1 = 1.2: a word's 8th occurrence adds 2 % to its part of the
 *   score). The count stays monotone (1, 2, 2, 3, 3, 3, 3, 4…), so the words still rank files that use
 *   them more. go-src: keyword indexes 81 → 65 MiB.
 * - Numbers are mostly the line numbers of chunk headers (`(net/http/server.go:120-180)`) and literals;
 *   a search never asks for one (engines/search/query.ts drops them from queries), and they took 5 MiB
 *   of go-src's chunk index. Identifiers holding digits (`int64`, `utf8`) are kept whole.
 * Words are single spaces apart (core/words.ts).
 */
export function compactWords(text: string): string {
  if (text.length === 0) return text;
  const counts = new Map<string, number>();
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf(" ", at);
    if (end < 0) end = text.length;
    if (end > at && !allDigits(text, at, end)) {
      const w = text.slice(at, end);
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    at = end + 1;
  }
  const out: string[] = [];
  for (const [w, n] of counts) {
    out.push(w);
    for (let k = n; k >= 2; k >>= 1) out.push(w);
  }
  return out.join(" ");
}

function allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
