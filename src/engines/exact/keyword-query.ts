/**
 * The cortex_exact query language: terms, "exact phrases", prefix*, AND, OR, NOT (also -term) and
 * parentheses. Operators are the upper-case words; AND is implied between neighbours; NOT binds tightest,
 * then AND, then OR. A term is everything up to whitespace, a parenthesis or a quote, so identifiers
 * work as typed: `sync.RWMutex`, `handle_login`, `useState`, `std::vector`. A malformed query is an
 * INVALID_INPUT error that names the problem and its column.
 */
import { CortexError } from "../../core/errors.ts";

export type KeywordNode =
  | { kind: "term"; text: string; phrase: boolean; prefix: boolean; column: number }
  | { kind: "and" | "or"; items: KeywordNode[] }
  | { kind: "not"; item: KeywordNode };

type Token =
  | { t: "("; col: number }
  | { t: ")"; col: number }
  | { t: "neg"; col: number }
  | { t: "phrase"; text: string; col: number }
  | { t: "word"; text: string; col: number };

const MAX_TERMS = 32;
const MAX_TERM_LENGTH = 200;

const fail = (message: string): never => {
  throw new CortexError("INVALID_INPUT", `query: ${message}`);
};

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i]!;
    const col = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ t: c, col });
      i++;
    } else if (c === '"') {
      let text = "";
      let j = i + 1;
      for (; j < q.length && q[j] !== '"'; j++) {
        if (q[j] === "\\" && (q[j + 1] === '"' || q[j + 1] === "\\")) j++;
        text += q[j];
      }
      if (j >= q.length) fail(`unterminated quote starting at column ${col}`);
      if (text.trim() === "") fail(`empty phrase at column ${col}`);
      tokens.push({ t: "phrase", text, col });
      i = j + 1;
      if (q[i] === "*") fail(`'*' after a phrase at column ${i + 1}: prefixes apply to single terms`);
    } else if (c === "-" && (q[i + 1] === '"' || q[i + 1] === "(")) {
      tokens.push({ t: "neg", col });
      i++;
    } else {
      let j = i;
      while (j < q.length && !/[\s()"]/.test(q[j]!)) j++;
      const word = q.slice(i, j);
      if (word.length > 1 && word.startsWith("-")) {
        tokens.push({ t: "neg", col });
        tokens.push({ t: "word", text: word.slice(1), col: col + 1 });
      } else tokens.push({ t: "word", text: word, col });
      i = j;
    }
  }
  return tokens;
}

const isOp = (tok: Token | undefined, op: string) => tok?.t === "word" && tok.text === op;

class KeywordParser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): KeywordNode {
    if (this.tokens.length === 0) fail("must contain at least one term");
    const node = this.or();
    const rest = this.tokens[this.i];
    if (rest) fail(rest.t === ")" ? `unexpected ')' at column ${rest.col}` : `unexpected text at column ${rest.col}`);
    return node;
  }

  private startsOperand(tok: Token | undefined): boolean {
    if (!tok) return false;
    if (tok.t === "(" || tok.t === "neg" || tok.t === "phrase") return true;
    return tok.t === "word" && tok.text !== "AND" && tok.text !== "OR";
  }

  private or(): KeywordNode {
    const items = [this.and()];
    while (isOp(this.tokens[this.i], "OR")) {
      const op = this.tokens[this.i++]!;
      if (!this.startsOperand(this.tokens[this.i])) fail(`OR at column ${op.col} needs a term on both sides`);
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  }

  private and(): KeywordNode {
    const first = this.tokens[this.i];
    if (isOp(first, "AND") || isOp(first, "OR")) fail(`${(first as { text: string }).text} at column ${first!.col} needs a term on both sides`);
    const items = [this.unary()];
    for (;;) {
      const tok = this.tokens[this.i];
      if (isOp(tok, "AND")) {
        this.i++;
        if (!this.startsOperand(this.tokens[this.i])) fail(`AND at column ${tok!.col} needs a term on both sides`);
        items.push(this.unary());
      } else if (this.startsOperand(tok)) items.push(this.unary());
      else break;
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  }

  private unary(): KeywordNode {
    const tok = this.tokens[this.i];
    if (tok && (tok.t === "neg" || isOp(tok, "NOT"))) {
      this.i++;
      if (!this.startsOperand(this.tokens[this.i])) fail(`${tok.t === "neg" ? "'-'" : "NOT"} at column ${tok.col} needs a term after it`);
      return { kind: "not", item: this.unary() };
    }
    return this.primary();
  }

  private primary(): KeywordNode {
    const tok = this.tokens[this.i++];
    if (!tok) return fail("ends where a term was expected");
    switch (tok.t) {
      case "(": {
        if (this.tokens[this.i]?.t === ")") fail(`empty parentheses at column ${tok.col} (to search for '()', put it in quotes: "foo()")`);
        const inner = this.or();
        if (this.tokens[this.i]?.t !== ")") fail(`missing ')' for the '(' at column ${tok.col}`);
        this.i++;
        return inner;
      }
      case "phrase":
        return term(tok.text, true, false, tok.col);
      case "word": {
        if (tok.text === "*") fail(`'*' at column ${tok.col} needs a word before it`);
        const prefix = tok.text.length > 1 && tok.text.endsWith("*");
        return term(prefix ? tok.text.slice(0, -1) : tok.text, false, prefix, tok.col);
      }
      default:
        return fail(`unexpected '${tok.t === ")" ? ")" : "-"}' at column ${tok.col}`);
    }
  }
}

function term(text: string, phrase: boolean, prefix: boolean, column: number): KeywordNode {
  if (text.length > MAX_TERM_LENGTH) fail(`the term at column ${column} is longer than ${MAX_TERM_LENGTH} characters`);
  return { kind: "term", text, phrase, prefix, column };
}

/** Terms that count for a match (not under NOT): those are ranked and highlighted. */
export function positiveTerms(node: KeywordNode, negated = false, out: Array<Extract<KeywordNode, { kind: "term" }>> = []) {
  if (node.kind === "term") {
    if (!negated) out.push(node);
  } else if (node.kind === "not") positiveTerms(node.item, !negated, out);
  else for (const i of node.items) positiveTerms(i, negated, out);
  return out;
}

function allTerms(node: KeywordNode, out: Array<Extract<KeywordNode, { kind: "term" }>> = []) {
  if (node.kind === "term") out.push(node);
  else if (node.kind === "not") allTerms(node.item, out);
  else for (const i of node.items) allTerms(i, out);
  return out;
}

/** Parses a query; throws INVALID_INPUT naming the problem. */
export function parseKeywordQuery(query: string): KeywordNode {
  const node = new KeywordParser(tokenize(query)).parse();
  if (allTerms(node).length > MAX_TERMS) fail(`at most ${MAX_TERMS} terms`);
  if (positiveTerms(node).length === 0) fail("needs at least one term that is not negated (NOT and '-' only exclude)");
  return node;
}

/** The query as understood, for the result (`sync.RWMutex AND (lock OR NOT "read only")`). */
export function describeKeywordQuery(node: KeywordNode): string {
  switch (node.kind) {
    case "term":
      return node.phrase ? JSON.stringify(node.text) : node.text + (node.prefix ? "*" : "");
    case "not":
      return `NOT ${node.item.kind === "term" || node.item.kind === "not" ? describeKeywordQuery(node.item) : `(${describeKeywordQuery(node.item)})`}`;
    case "and":
      return node.items.map((i) => (i.kind === "or" ? `(${describeKeywordQuery(i)})` : describeKeywordQuery(i))).join(" AND ");
    case "or":
      return node.items.map(describeKeywordQuery).join(" OR ");
  }
}
