/**
 * The contract of a language module. Adding a language is adding one file in src/lang/ that exports a
 * LanguageModule, and one line in src/lang/registry.ts.
 */
import type { Node, Tree } from "web-tree-sitter";
import type { CodeLanguage, FileFacts } from "./types.ts";
import type { ProjectInfo } from "./project.ts";

export interface ExtractContext {
  /** Root-relative path with forward slashes. */
  path: string;
  source: string;
  project: ProjectInfo;
}

/** What a module extracts; the common pipeline adds language, line counts and the syntax-error count. */
export type Extracted = Omit<FileFacts, "language" | "lines" | "syntaxErrors">;

export interface LanguageModule {
  id: CodeLanguage;
  /** File extensions including the dot, lower case: [".go"]. */
  extensions: string[];
  /** The grammar file in grammars/ (e.g. "tree-sitter-go.wasm"). */
  grammar: string;
  /**
   * The module's one tree-sitter query, run once per file (each query execution walks the whole tree, so
   * one combined query is several times cheaper than many). Captures named `comment` are the file's
   * comments (docstrings included where the language treats them as documentation) and feed the line
   * counts; every match is handed to `extract`.
   */
  query: string;
  /** Test-file classification by this language's conventions. */
  isTestFile(path: string): boolean;
  extract(tree: Tree, ctx: ExtractContext, matches: QueryMatch[]): Extracted;
}

/** One match of a query: the captures of one pattern, by capture name (the last one wins on repeats). */
export type QueryMatch = Record<string, Node | undefined>;
