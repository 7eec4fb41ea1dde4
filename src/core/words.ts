/**
 * Words for keyword search over code: identifiers are kept whole (lower-cased) and also split into their
 * parts (camelCase, PascalCase, snake_case, SCREAMING_CASE, digits), so `handleLogin`, `handle_login`
 * and "handle login" meet. Shared by the indexer (what is stored) and the search (what is asked).
 */

const TOKEN = /[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g;
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

/** Every searchable word of a text: whole identifiers and their parts, lower-cased, 2–40 characters. */
export function wordsOf(text: string, unique = false): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const w = m[0];
    if (w.length > 64) continue;
    const lw = w.toLowerCase();
    if (lw.length >= 2) out.push(lw);
    if (/[A-Z]/.test(w.slice(1)) || w.includes("_") || /[a-z][0-9]|[0-9][a-z]/i.test(w)) {
      for (const p of identifierParts(w)) if (p.length >= 2 && p !== lw) out.push(p);
    }
  }
  return unique ? [...new Set(out)] : out;
}
