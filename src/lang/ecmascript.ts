/**
 * TypeScript, TSX, JavaScript and JSX share one grammar family, so they share one module: the query
 * (src/lang/ecmascript-query.ts), the extractor (src/lang/ecmascript-extract.ts) and import handling
 * (src/lang/ecmascript-imports.ts). Each dialect only says which node types its grammar has
 * (src/lang/typescript.ts, src/lang/javascript.ts).
 *
 * Rules this module applies (the language has no single answer, so they are written down here):
 * - Functions: declarations, generators, signatures (`declare function`, .d.ts; an overload signature is
 *   dropped when an implementation or an earlier signature has the same name), class members (methods,
 *   getters, setters, constructors, abstract and declared methods, fields holding a function), functions
 *   bound to a name (`const f = () => …`, `exports.f = function …`, `X.prototype.f = …`, `obj.f = …`),
 *   object-literal members (`{ get() {} }`, `{ get: () => … }`) qualified by the object's binding, and
 *   anonymous default exports (named `default`). Other anonymous functions are not definitions: their
 *   decision points count toward the named function around them.
 * - qualifiedName: the chain of enclosing named definitions (namespaces, classes, functions, object bindings).
 * - exported: `export`, `export default`, `export { a as b }` lists, `export = a`, CommonJS `module.exports`
 *   and `exports.x`; members of exported namespaces that say `export` (every member in an ambient
 *   `declare namespace` / `declare module`); every top-level declaration of a global .d.ts script (one
 *   without import or export). A class member is exported when its class is and it is public (not
 *   `private`, `protected` or `#private`). Object-literal members follow their object's binding.
 * - returnCount is 0 or 1 (a function returns one value; tuples are one value). A TypeScript return
 *   annotation decides when present: `void`, `never`, `undefined`, `Promise<void>` and `asserts x` are 0,
 *   anything else 1. Without one: constructors and setters 0, generators 1 (they return an iterator),
 *   expression-bodied arrows 1, otherwise 1 when the function's own body has `return <expression>`.
 * - complexity: 1 + if, for, for-in/of, while, do, case (not default), catch, ?:, &&, ||, ??, &&=, ||=, ??=.
 * - imports: `symbols` are the names as the module exports them (`default` for a default import);
 *   `alias` is the local name of a whole-module binding (`* as ns`, `x = require()`, `import x = require()`).
 *   Re-exports (`export … from`) are imports too. `require("x")` and `import("x")` with a literal count.
 *   Classes: relative (`./`, `../`, `/`), standard library (`node:` and `bun:` prefixes, Node's built-in
 *   modules), the project's own (names its package.json files declare, and specifiers no npm package can
 *   have: `@/x`, `~/x`, `#x`), external otherwise.
 * - references: calls, `new X()`, JSX components (`<Foo/>`, `<ui.Button/>`: a call of Foo / Button),
 *   decorators (calls), TypeScript type uses, extends (inherit), implements (implement), the local name of
 *   every import, and reads of module-level names and of members of whole-module imports (`ns.VALUE`).
 * - Class fieldCount / methodCount count distinct member names (a getter and setter pair is one method);
 *   constructor parameter properties (`constructor(private x: T)`) are fields.
 */
import type { LanguageModule } from "./module.ts";
import type { CodeLanguage } from "./types.ts";
import { ecmaQuery } from "./ecmascript-query.ts";
import { EcmaExtraction } from "./ecmascript-extract.ts";
import { resolveEcmaImport } from "./ecmascript-imports.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, arrowReturn, colonField, colonParameter, ecmaLocal, type ResolutionRules } from "./resolution.ts";

export interface EcmaDialect {
  id: CodeLanguage;
  extensions: string[];
  grammar: string;
  /** The grammar has TypeScript's node types (interfaces, enums, type identifiers, namespaces). */
  typed: boolean;
  /** The grammar parses JSX. */
  jsx: boolean;
  /** The language a user means by this one's parent name (tsx is TypeScript, jsx JavaScript). */
  dialectOf?: CodeLanguage;
}

/**
 * TypeScript, JavaScript and their JSX dialects are one family: each sees the others' exports. A module is
 * a file and names come through imports; annotations show parameter, local, field and return types.
 */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "js",
  strictModules: true,
  selfQualifiers: ["this"],
  superQualifiers: ["super"],
  coreMembers: [
    "get",
    "set",
    "has",
    "delete",
    "clear",
    "add",
    "push",
    "pop",
    "shift",
    "unshift",
    "slice",
    "splice",
    "map",
    "filter",
    "reduce",
    "forEach",
    "find",
    "findIndex",
    "includes",
    "indexOf",
    "join",
    "split",
    "replace",
    "trim",
    "keys",
    "values",
    "entries",
    "then",
    "catch",
    "finally",
    "toString",
    "valueOf",
    "concat",
    "sort",
    "some",
    "every",
    "emit",
    "on",
    "once",
    "call",
    "apply",
    "bind",
  ],
  packageScope: "file",
  types: { parameter: colonParameter, local: ecmaLocal, field: colonField, returnType: arrowReturn },
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

/** Test files by the ecosystem's conventions: `*.test.*`, `*.spec.*`, and files under __tests__/, test/, tests/. */
export function isEcmaTestFile(path: string): boolean {
  const segs = path.split("/");
  const base = segs[segs.length - 1]!;
  if (/\.(test|spec)\./.test(base)) return true;
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    if (s === "__tests__" || s === "test" || s === "tests") return true;
  }
  return false;
}

export function ecmaModule(d: EcmaDialect): LanguageModule {
  return {
    id: d.id,
    extensions: d.extensions,
    grammar: d.grammar,
    resolution: d.dialectOf ? { ...RULES, dialectOf: d.dialectOf } : RULES,
    query: ecmaQuery(d),
    isTestFile: isEcmaTestFile,
    extract: (tree, ctx, matches) => new EcmaExtraction(ctx, matches, tree.rootNode).run(),
    resolveImport: resolveEcmaImport,
  };
}
