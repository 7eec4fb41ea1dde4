/**
 * FileFacts: everything the indexer learns from one file in one parse. Language modules produce it;
 * the store persists it; every engine reads what was stored. Lines and columns are 1-based; columns
 * count UTF-16 code units of the line (what JavaScript strings index), so `line.slice(column - 1)`
 * starts at the symbol.
 */

export const CODE_LANGUAGES = [
  "go",
  "typescript",
  "tsx",
  "javascript",
  "jsx",
  "python",
  "rust",
  "java",
  "c",
  "cpp",
  "c_sharp",
  "php",
  "ruby",
  "kotlin",
] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export interface LineCounts {
  total: number;
  code: number;
  comment: number;
  blank: number;
}

export type TypeKind = "struct" | "interface" | "class" | "enum" | "type_alias" | "trait" | "union" | "record" | "object" | "module" | "namespace";

export interface TypeFact {
  name: string;
  /** e.g. `auth.Handler`, `Outer.Inner`, `pkg.module.Class` */
  qualifiedName: string;
  kind: TypeKind;
  startLine: number;
  endLine: number;
  startColumn: number;
  exported: boolean;
  fieldCount: number;
  methodCount: number;
  /** First line of the doc comment attached to the declaration, when there is one. */
  docStartLine?: number;
  /** Name of the enclosing type, for nested types. */
  container?: string;
}

export interface FunctionFact {
  name: string;
  /** e.g. `auth.Login`, `Handler.ServeHTTP`, `Outer.Inner.method` */
  qualifiedName: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  exported: boolean;
  isMethod: boolean;
  /** The owner type for methods as written (Go receiver `*Handler`, class name elsewhere). */
  receiverType?: string;
  paramCount: number;
  returnCount: number;
  /** Lines of the body (the block), 0 when the function has no body (abstract, declaration). */
  bodyLines: number;
  /** Cyclomatic complexity: 1 + decision points (branches, loops, cases, catch, && / ||, ternaries). */
  complexity: number;
  /** The declaration up to (not including) its body, whitespace-collapsed. */
  signature: string;
  docStartLine?: number;
}

export type VariableKind = "constant" | "variable" | "enum_member" | "field" | "property";

/** Module-level (or type-level) named values: the raw material of `data` chunks and symbol look-ups. */
export interface VariableFact {
  name: string;
  qualifiedName: string;
  kind: VariableKind;
  startLine: number;
  endLine: number;
  startColumn: number;
  exported: boolean;
  container?: string;
}

export interface ImportFact {
  /** The module as written: `fmt`, `github.com/a/b`, `./util`, `os.path`, `java.util.List`, `stdio.h`. */
  module: string;
  isStandardLib: boolean;
  isExternal: boolean;
  isRelative: boolean;
  /** Names brought in (`{a, b}` in JS, `from x import a, b`); empty when the whole module is imported. */
  symbols: string[];
  /** Local alias of the module (`import foo as bar`, Go `alias "pkg"`), when given. */
  alias?: string;
  line: number;
  column: number;
}

export type ReferenceKind = "call" | "type" | "inherit" | "implement" | "import" | "read";

export interface ReferenceFact {
  /** The referenced name as written at this site, unqualified: `Login`, `Handler`. */
  name: string;
  /**
   * What qualifies it at the site, when the syntax shows one: the package alias (`auth` in `auth.Login`),
   * the receiver expression (`s` in `s.handle()`, `this`, `self`), or the namespace.
   */
  qualifier?: string;
  /**
   * The qualifier's type when the syntax shows it, as a bare type name (`Handler` for a Go receiver
   * `h *Handler` or a parameter `h Handler`); reference resolution looks the member up on it.
   */
  qualifierType?: string;
  kind: ReferenceKind;
  line: number;
  column: number;
  /** Qualified name of the innermost definition containing the site (function, method, type); absent at top level. */
  enclosing?: string;
}

export interface FileFacts {
  language: CodeLanguage;
  /** The language-level package / namespace / module name the file declares, when it declares one. */
  packageName?: string;
  lines: LineCounts;
  types: TypeFact[];
  functions: FunctionFact[];
  variables: VariableFact[];
  imports: ImportFact[];
  references: ReferenceFact[];
  /** Number of ERROR / MISSING nodes in the tree: the file parsed with recoverable errors. */
  syntaxErrors: number;
}
