/**
 * Cheap structure of a Python file for the ranking research, read with regular expressions (no parse):
 * the names it defines (class / def), its docstrings and comments, the rest of its code, and its
 * chunks (one per top-level or class-level definition). Cached by blob id, because most files do not
 * change from one base commit to the next.
 */
import { termBag, type TermBag } from "../bm25.ts";
import { tokenize } from "../tokenize.ts";

export interface FileAnalysis {
  path: string;
  /** Fields for BM25F. */
  fields: { path: TermBag; defs: TermBag; doc: TermBag; code: TermBag };
  /** The plain protocol document: path + content. */
  whole: TermBag;
  /** Lower-cased names of the classes and functions the file defines. */
  defined: Set<string>;
  chunks: TermBag[];
}

const DEFINITION = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/gm;
const DOC = /"""[\s\S]*?"""|'''[\s\S]*?'''|#[^\n]*/g;
/** A chunk starts at a definition or decorator indented by at most one level (4 spaces or a tab). */
const CHUNK_START = /^(?: {0,4}|\t?)(?:@|(?:async[ \t]+)?(?:def|class)[ \t])/;

/** Adds `bag`'s counts times `sign` into `into`. */
function addInto(into: TermBag, bag: TermBag, sign: 1 | -1): void {
  for (const [t, n] of bag.tf) {
    const v = (into.tf.get(t) ?? 0) + sign * n;
    if (v > 0) into.tf.set(t, v);
    else into.tf.delete(t);
  }
  into.length += sign * bag.length;
}

const emptyBag = (): TermBag => ({ tf: new Map(), length: 0 });

/**
 * Tokenizes the content once, chunk by chunk: the whole document and the code field are sums and
 * differences of those bags (doc spans never split an identifier, so content = code + doc exactly).
 */
export function analyzeFile(path: string, text: string): FileAnalysis {
  const defined = new Set<string>();
  const defNames: string[] = [];
  for (const m of text.matchAll(DEFINITION)) {
    defined.add(m[1]!.toLowerCase());
    defNames.push(m[1]!);
  }
  const docParts: string[] = [];
  for (const m of text.matchAll(DOC)) docParts.push(m[0]);
  const pathBag = termBag(tokenize(path));
  const content = emptyBag();
  const chunks: TermBag[] = [];
  const lines = text.split("\n");
  let start = 0;
  const flush = (end: number) => {
    if (end <= start) return;
    const body = termBag(tokenize(lines.slice(start, end).join("\n")));
    addInto(content, body, 1);
    addInto(body, pathBag, 1);
    chunks.push(body);
    start = end;
  };
  for (let i = 1; i < lines.length; i++) {
    if (CHUNK_START.test(lines[i]!) && !(lines[i - 1] ?? "").trimStart().startsWith("@")) flush(i);
  }
  flush(lines.length);
  const doc = termBag(tokenize(docParts.join("\n")));
  const code = emptyBag();
  addInto(code, content, 1);
  addInto(code, doc, -1);
  const whole = emptyBag();
  addInto(whole, pathBag, 1);
  addInto(whole, content, 1);
  return {
    path,
    fields: { path: pathBag, defs: termBag(tokenize(defNames.join(" "))), doc, code },
    whole,
    defined,
    chunks,
  };
}
