/**
 * The tokenizer of the retrieval protocol: every identifier, lower-cased, plus its snake_case and
 * camelCase parts, so `getUserName` matches an issue that says "user name" and one that says
 * `getUserName`. The same function tokenizes documents (path and content) and queries.
 */

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
const CAMEL_PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

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

/** Tokens of a text: each identifier lower-cased, followed by its parts when it has several. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IDENTIFIER)) {
    const id = m[0];
    out.push(id.toLowerCase());
    for (const p of identifierParts(id)) out.push(p);
  }
  return out;
}
