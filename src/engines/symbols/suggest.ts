/**
 * Near-miss names for a symbol that matched nothing: the same name in another case, names containing it
 * (or contained in it), and names a couple of edits away. Runs only on a miss, so it may scan the
 * distinct names of similar length.
 */
import type { SymbolReader } from "../../store/contract.ts";

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

export async function suggestNames(name: string, store: SymbolReader, max: number): Promise<string[]> {
  const out: string[] = [];
  const add = (n: string) => {
    if (n !== name && !out.includes(n) && out.length < max) out.push(n);
  };
  for (const n of await store.namesIgnoringCase(name)) add(n);
  const lower = name.toLowerCase();
  const budget = name.length <= 4 ? 1 : 2;
  const scored = (await store.namesOfLength(Math.max(1, name.length - budget), name.length + budget))
    .map((n) => ({ n, d: editDistance(lower, n.toLowerCase(), budget) }))
    .filter((x) => x.d <= budget)
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  for (const x of scored) add(x.n);
  if (name.length >= 3) {
    const containing = (await store.namesContaining(name)).sort((a, b) => a.length - b.length || a.localeCompare(b));
    for (const n of containing) add(n);
  }
  return out;
}
