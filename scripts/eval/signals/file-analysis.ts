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

export function analyzeFile(path: string, text: string): FileAnalysis {
  const defined = new Set<string>();
  const defNames: string[] = [];
  for (const m of text.matchAll(DEFINITION)) {
    defined.add(m[1]!.toLowerCase());
    defNames.push(m[1]!);
  }
  const docParts: string[] = [];
  const code = text.replace(DOC, (s) => {
    docParts.push(s);
    return " ";
  });
  const lines = text.split("\n");
  const chunks: TermBag[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (end > start) chunks.push(termBag(tokenize(path + "\n" + lines.slice(start, end).join("\n"))));
    start = end;
  };
  for (let i = 1; i < lines.length; i++) {
    if (CHUNK_START.test(lines[i]!) && !(lines[i - 1] ?? "").trimStart().startsWith("@")) flush(i);
  }
  flush(lines.length);
  return {
    path,
    fields: {
      path: termBag(tokenize(path)),
      defs: termBag(tokenize(defNames.join(" "))),
      doc: termBag(tokenize(docParts.join("\n"))),
      code: termBag(tokenize(code)),
    },
    whole: termBag(tokenize(path + "\n" + text)),
    defined,
    chunks,
  };
}
