/**
 * Words for keyword search over code: identifiers are kept whole (lower-cased) and also split into their
 * parts (camelCase, PascalCase, snake_case, SCREAMING_CASE, digits), so `handleLogin`, `handle_login`
 * and "handle login" meet. Shared by the indexer (what is stored) and the search (what is asked).
 */

const PARTS = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/** The parts of one identifier, lower-cased: `parseHTTPRequest2` → parse, http, request, 2. */
export function identifierParts(id: string): string[] {
  const out: string[] = [];
  for (const seg of id.split("_")) {
    if (!seg) continue;
    for (const m of seg.matchAll(PARTS)) out.push(m[0].toLowerCase());
  }
  return out;
}

/**
 * The words one token contributes, cached: code repeats its identifiers constantly, so splitting each
 * distinct one once saves most of the work. Bounded so a huge vocabulary cannot grow it without end.
 */
const tokenCache = new Map<string, string[]>();
const CACHE_LIMIT = 200_000;

function tokenWords(w: string): string[] {
  let words = tokenCache.get(w);
  if (words) return words;
  words = [];
  const lw = w.toLowerCase();
  if (lw.length >= 2) words.push(lw);
  if (/[A-Z]/.test(w.slice(1)) || w.includes("_") || /[a-z][0-9]|[0-9][a-z]/i.test(w)) {
    for (const p of identifierParts(w)) if (p.length >= 2 && p !== lw) words.push(p);
  }
  if (tokenCache.size >= CACHE_LIMIT) tokenCache.clear();
  tokenCache.set(w, words);
  return words;
}

const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Every searchable word of a text: whole identifiers and their parts, lower-cased, at least 2 characters.
 * A hand-written scanner: this runs over every chunk at index time, where regex match objects cost more
 * than the words themselves.
 */
export function wordsOf(text: string, unique = false): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let j = i + 1;
    if (isIdentStart(c)) {
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
    } else if (isDigit(c)) {
      while (j < n && isDigit(text.charCodeAt(j))) j++;
    } else {
      i = j;
      continue;
    }
    if (j - i <= 64) for (const x of tokenWords(text.slice(i, j))) out.push(x);
    i = j;
  }
  return unique ? [...new Set(out)] : out;
}
