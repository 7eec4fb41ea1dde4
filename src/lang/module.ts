/**
 * The contract of a language module. Adding a language is adding one file in src/lang/ that exports a
 * LanguageModule, one line in src/lang/registry.ts, its grammar (scripts/sync-grammars.ts) and its
 * tests (docs/design.md, "Adding a language"). Everything the engines need to know of the language is
 * here: its syntax (query, extract), its imports (resolveImport) and its resolution rules.
 */
import type { Node, Tree } from "web-tree-sitter";
import type { CodeLanguage, FileFacts, ImportFact } from "./types.ts";
import type { ProjectInfo } from "./project.ts";
import type { ResolutionRules } from "./resolution.ts";

export interface ExtractContext {
  /** Root-relative path with forward slashes. */
  path: string;
  source: string;
  project: ProjectInfo;
  /**
   * Where the tree's MISSING nodes start (tokens the parser invented to recover: no text, and one can
   * start where a real token does), from the syntax-error count's walk: empty for a tree without errors.
   * A module may read a token's text from the source alone (its end is where the grammar's token must
   * end) everywhere else; when this is absent it asks the tree.
   */
  missingStarts?: ReadonlySet<number>;
}

/** What a module extracts; the common pipeline adds language, line counts and the syntax-error count. */
export type Extracted = Omit<FileFacts, "language" | "lines" | "syntaxErrors">;

export interface LanguageModule {
  id: CodeLanguage;
  /** File extensions including the dot, lower case: [".go"]. */
  extensions: string[];
  /** Whole file names (lower case) that are this language whatever their extension: ["gemfile"]. */
  filenames?: string[];
  /** The grammar file in grammars/ (e.g. "tree-sitter-go.wasm"). */
  grammar: string;
  /**
   * The module's one tree-sitter query, run once per file (each query execution walks the whole tree, so
   * one combined query is several times cheaper than many). Captures named `comment` are the file's
   * comments (docstrings included where the language treats them as documentation) and feed the line
   * counts; every match is handed to `extract`. A module with `collect` does not run it: its query says
   * which captures `collect` must give, and a test compares the two.
   */
  query: string;
  /**
   * Gathers the query's matches without running it, from nodes tree-sitter lists in one walk
   * (Node.descendantsOfType): a query cursor's walk costs about half as much again as that walk (it works
   * out each node's field and its siblings' for every step), so a module whose patterns are node types, a
   * field of one and a few rare shapes is cheaper this way. The same matches as the query, by capture name,
   * in the query's order for every capture name extraction reads in order.
   */
  collect?(root: Node, source: string): CollectedMatches;
  /** How a line comment starts, for notes set into a snippet of code ("//" when absent). */
  lineComment?: string;
  /** Test-file classification by this language's conventions. */
  isTestFile(path: string): boolean;
  extract(tree: Tree, ctx: ExtractContext, matches: QueryMatch[]): Extracted;
  /**
   * The project files an import of this language refers to (root-relative paths), for the import graph
   * and reference resolution: `./util` → `src/util.ts`, `example.com/shop/store` → every file of
   * `store/`, `pkg.mod` → `pkg/mod.py`. Empty when the import is not a project file (std, external).
   */
  resolveImport?(imp: ImportFact, fromPath: string, files: ProjectFiles): string[];
  /** How reference resolution, the symbol and graph queries and test look-ups treat the language. */
  resolution: ResolutionRules;
}

/** What import resolution may ask about the indexed project. */
export interface ProjectFiles {
  project: ProjectInfo;
  /** Whether a root-relative path is an indexed file. */
  has(path: string): boolean;
  /** The indexed files directly inside a directory ("" for the root). */
  inDir(dir: string): string[];
}

/** One match of a query: the captures of one pattern, by capture name (the last one wins on repeats). */
export type QueryMatch = Record<string, Node | undefined>;

/** A file's matches as the parser hands them over: the comments' [start, end) offsets, and every other match. */
export interface CollectedMatches {
  comments: Array<[number, number]>;
  matches: QueryMatch[];
}
