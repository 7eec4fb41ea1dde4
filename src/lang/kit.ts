/**
 * Shared helpers for language modules: line counts from comment ranges, doc comments, signatures,
 * complexity attribution and enclosing definitions. Each works on positions, so modules stay small.
 */
import type { Language, Node } from "web-tree-sitter";
import type { FunctionFact, LineCounts, ReferenceFact, TypeFact, VariableFact } from "./types.ts";

/**
 * Classifies each line as blank (whitespace only), code (any non-whitespace outside a comment) or
 * comment (non-whitespace, all of it inside comments). `comments` are [start, end) string offsets.
 */
export function countLines(source: string, comments: Array<[number, number]>): LineCounts {
  const counts: LineCounts = { total: 0, code: 0, comment: 0, blank: 0 };
  if (source.length === 0) return counts;
  const ranges = comments.length > 1 ? [...comments].sort((a, b) => a[0] - b[0]) : comments;
  let r = 0;
  let hasCode = false;
  let hasComment = false;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      counts.total++;
      if (hasCode) counts.code++;
      else if (hasComment) counts.comment++;
      else counts.blank++;
      hasCode = false;
      hasComment = false;
      continue;
    }
    // space, tab, CR, vertical tab, form feed, BOM, NBSP
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0xfeff || c === 0xa0) continue;
    while (r < ranges.length && ranges[r]![1] <= i) r++;
    if (r < ranges.length && ranges[r]![0] <= i) hasComment = true;
    else {
      // a line with code is a code line whatever follows: go straight to its end
      hasCode = true;
      const eol = source.indexOf("\n", i + 1);
      if (eol < 0) break;
      i = eol - 1;
    }
  }
  if (source.charCodeAt(n - 1) !== 10) {
    counts.total++;
    if (hasCode) counts.code++;
    else if (hasComment) counts.comment++;
    else counts.blank++;
  }
  return counts;
}

export const line = (n: Node): number => n.startPosition.row + 1;
/** Line and column of a node's start in one call (each position read crosses into WASM). */
export const at = (n: Node): { line: number; column: number } => {
  const p = n.startPosition;
  return { line: p.row + 1, column: p.column + 1 };
};
/** A node's text as the source's slice (Node.text asks WASM for the end, then cuts the text it was parsed from). */
export const textOf = (src: string, n: Node): string => src.slice(n.startIndex, n.endIndex);

/**
 * A reference at `n`'s start, built whole with its fields in the order the spread literals it replaced gave
 * them (name, qualifier, kind, line, column): `...at(n)` made an object and a runtime copy per reference.
 * The qualifier is left out only when undefined.
 */
/**
 * Whether an identifier is read where it stands, judged by its parent's type: absent from `notRead`, it
 * is; `false`, no child of that parent is (a parameter list, an import, a member name); a field name, every
 * child but that field is (a definition's name, an assignment's left side, a call's callee).
 */
export function readsIdentifier(ident: Node, notRead: Readonly<Record<string, string | false>>): boolean {
  const parent = ident.parent;
  if (!parent) return false;
  const field = notRead[parent.type];
  if (field === undefined) return true;
  if (field === false) return false;
  return parent.childForFieldName(field)?.startIndex !== ident.startIndex;
}

export function refAt(name: string, kind: ReferenceFact["kind"], n: Node, qualifier?: string): ReferenceFact {
  const p = n.startPosition;
  return qualifier === undefined ? { name, kind, line: p.row + 1, column: p.column + 1 } : { name, qualifier, kind, line: p.row + 1, column: p.column + 1 };
}
export const endLine = (n: Node): number => {
  // A node ending at column 0 ends on the previous line (its last character is a newline).
  const p = n.endPosition;
  return p.column === 0 && p.row > n.startPosition.row ? p.row : p.row + 1;
};
export const column = (n: Node): number => n.startPosition.column + 1;

/** Number of lines a body spans (a one-line `{}` is 1). */
export function spanLines(n: Node | null | undefined): number {
  if (!n) return 0;
  return endLine(n) - line(n) + 1;
}

/**
 * The first line of the run of comments directly above `decl` (no blank line between), if any.
 * `isComment` decides which sibling nodes are comments.
 */
export function docStartLine(decl: Node, isComment: (n: Node) => boolean): number | undefined {
  let expected = line(decl) - 1;
  let start: number | undefined;
  let prev = decl.previousSibling;
  while (prev && isComment(prev) && endLine(prev) === expected) {
    start = line(prev);
    expected = start - 1;
    prev = prev.previousSibling;
  }
  return start;
}

/** The declaration text before its body, with whitespace collapsed, capped for storage. */
export function signatureOf(source: string, decl: Node, body: Node | null | undefined, max = 400): string {
  const end = body ? body.startIndex : decl.endIndex;
  const text = source.slice(decl.startIndex, end).replace(/\s+/g, " ").trim();
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** Collapses whitespace of a node's text and caps its length (for qualifiers and receiver types). */
export function compactText(n: Node, max = 120): string {
  const t = n.text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max) : t;
}

interface Span {
  startLine: number;
  endLine: number;
  startColumn: number;
}

const before = (aLine: number, aCol: number, bLine: number, bCol: number): boolean => aLine < bLine || (aLine === bLine && aCol <= bCol);

/**
 * Finds the innermost span containing a position in O(log n + depth): spans sorted by start, each with
 * a pointer to the span around it, so a look-up is a binary search and a short climb.
 */
export class SpanIndex<T extends Span> {
  private readonly spans: T[];
  private readonly parent: number[];

  constructor(spans: T[]) {
    this.spans = [...spans].sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn || b.endLine - a.endLine);
    this.parent = new Array(this.spans.length).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < this.spans.length; i++) {
      const s = this.spans[i]!;
      while (stack.length > 0 && this.spans[stack[stack.length - 1]!]!.endLine < s.startLine) stack.pop();
      this.parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
      stack.push(i);
    }
  }

  /** The innermost span containing (line, column), or undefined. */
  find(line: number, column: number): T | undefined {
    const spans = this.spans;
    let lo = 0;
    let hi = spans.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = spans[mid]!;
      if (before(s.startLine, s.startColumn, line, column)) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (at >= 0 && spans[at]!.endLine < line) at = this.parent[at]!;
    return at >= 0 ? spans[at] : undefined;
  }
}

/**
 * Adds the decision points to the innermost named function containing each (anonymous functions and
 * lambdas count toward the function around them). `functions[i].complexity` starts at 1.
 */
export function attributeComplexity(functions: FunctionFact[], decisions: Node[]): void {
  if (functions.length === 0 || decisions.length === 0) return;
  const index = new SpanIndex(functions);
  for (const d of decisions) {
    const p = d.startPosition;
    const f = index.find(p.row + 1, p.column + 1);
    if (f) f.complexity++;
  }
}

/** Sets `enclosing` on each reference to the qualified name of the innermost definition around it. */
export function assignEnclosing(refs: ReferenceFact[], functions: FunctionFact[], types: TypeFact[], variables: VariableFact[] = []): void {
  const defs: Array<Span & { qualifiedName: string }> = [...functions, ...types, ...variables];
  if (defs.length === 0 || refs.length === 0) return;
  const index = new SpanIndex(defs);
  for (const r of refs) {
    const d = index.find(r.line, r.column);
    if (d) r.enclosing = d.qualifiedName;
  }
}

/** Joins qualifier parts with dots, skipping empty ones. */
/** A variable, constant or field named by `nameNode` in the declaration `decl`; `container` kept when given. */
export function variableFact(nameNode: Node, decl: Node, kind: VariableFact["kind"], exported: boolean, container: string | undefined): VariableFact {
  const v: VariableFact = {
    name: nameNode.text,
    qualifiedName: qualify(container, nameNode.text),
    kind,
    startLine: line(decl),
    endLine: endLine(decl),
    startColumn: column(nameNode),
    exported,
  };
  if (container !== undefined) v.container = container;
  return v;
}

export function qualify(...parts: Array<string | undefined | null>): string {
  return parts.filter((p): p is string => !!p && p.length > 0).join(".");
}

/** Strips matching quotes from a string literal's text. */
export function unquote(s: string): string {
  if (s.length >= 2) {
    const a = s[0];
    const b = s[s.length - 1];
    if ((a === '"' || a === "'" || a === "`") && a === b) return s.slice(1, -1);
  }
  return s;
}

/**
 * A value per node type id of a grammar, looked up by type name in `byName` (`otherwise` for the rest) and
 * kept per grammar: a collect walk (module.ts) asks each node's type id, one WebAssembly call, where its
 * type name would be that and a look-up.
 */
export function typeIdTable<T>(byName: Record<string, T>, otherwise: T): (language: Language) => T[] {
  const tables = new WeakMap<Language, T[]>();
  return (language) => {
    let table = tables.get(language);
    if (!table) {
      table = Array.from(language.types, (name) => byName[name] ?? otherwise);
      tables.set(language, table);
    }
    return table;
  };
}
