/**
 * The tokenizer of the retrieval protocol: every identifier, lower-cased, plus its snake_case and
 * camelCase parts, so `getUserName` matches an issue that says "user name" and one that says
 * `getUserName`. The same function tokenizes documents (path and content) and queries.
 *
 * Source code repeats its identifiers, so the tokens of each distinct identifier are memoized: that
 * makes tokenizing a large repository several times faster than splitting every occurrence afresh.
 */

const CAMEL_PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const MEMO_LIMIT = 500_000;
const memo = new Map<string, readonly string[]>();

/** The snake and camel parts of one identifier, lower-cased; empty when it has only one part. */
export function identifierParts(identifier: string): string[] {
  const parts: string[] = [];
  for (const piece of identifier.split("_")) {
    if (piece === "") continue;
    const camel = piece.match(CAMEL_PART);
    if (camel) for (const c of camel) parts.push(c.toLowerCase());
  }
  return parts.length > 1 ? parts : [];
}

/** The tokens one identifier contributes: itself lower-cased, then its parts when it has several. */
export function identifierTokens(identifier: string): readonly string[] {
  let t = memo.get(identifier);
  if (t === undefined) {
    t = [identifier.toLowerCase(), ...identifierParts(identifier)];
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(identifier, t);
  }
  return t;
}

/** Tokens of a text: each identifier lower-cased, followed by its parts when it has several. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (!isIdentifierStart(c)) {
      i++;
      continue;
    }
    let j = i + 1;
    // Plain lower-case words (most identifiers) have no parts: no split, no memo look-up.
    let plain = c >= 97 && c <= 122;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (!isIdentifierPart(d)) break;
      if (plain && !(d >= 97 && d <= 122)) plain = false;
      j++;
    }
    if (plain) out.push(text.slice(i, j));
    else for (const t of identifierTokens(text.slice(i, j))) out.push(t);
    i = j;
  }
  return out;
}

// [A-Za-z_] and [A-Za-z0-9_]: a hand-written scan is several times faster than a global regex here.
function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}
