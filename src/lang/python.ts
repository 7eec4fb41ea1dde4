/**
 * Python: classes, functions, methods (nested and async too), module-level variables, imports classified
 * against Python 3.12's standard library and the project's own packages, and references (calls, type
 * annotations, base classes, imported names, reads through imported modules).
 *
 * The rules this module decides, so every count means one thing:
 * - Qualified names follow the import path: `package.module.Class.method`, the module taken from the file
 *   path from the project's top-level package (ProjectInfo.pythonTopLevel, src/ layouts included) or from
 *   the root when the root itself is a package; `__init__.py` is its package.
 * - Class kinds: a subclass of Enum / IntEnum / StrEnum / Flag / IntFlag / ReprEnum (or of an enum of the
 *   same file, or with an enum metaclass) is an `enum`; of Protocol an `interface`; of NamedTuple a
 *   `record` (immutable named fields); of TypedDict a `struct` (a dict shape: fields, no methods). A
 *   `@dataclass` stays a `class`: the decorator only writes methods of an ordinary class.
 * - fieldCount: names assigned or annotated in the class body (enum members included) plus the distinct
 *   `self.x` attributes assigned in `__init__`; dunder names (`__slots__`) are protocol, not fields.
 * - paramCount: every parameter the caller can pass (`*args` and `**kwargs` one each; the bare `*` and `/`
 *   markers are none). A method's first parameter (`self` / `cls`) is not counted, as Go's receiver is not:
 *   the caller never passes it. Static methods count them all.
 * - returnCount: from the annotation when there is one (`None` / `NoReturn` / `Never` 0, `tuple[a, b]` 2,
 *   `tuple[a, ...]` and anything else 1); otherwise the most values any `return` of the function gives
 *   (`return a, b` 2, bare `return` and `return None` 0), and 1 for a generator.
 * - exported: a name without a leading underscore (dunder names are public), or, when the module defines
 *   `__all__`, a top-level name listed there. Members are exported when their class is; functions and
 *   classes defined inside functions never are.
 * - complexity: 1 + if, elif, for, while, except, conditional expressions, `and` / `or`, comprehension
 *   `for` and `if` clauses (match guards are such `if` clauses too), and match cases other than the
 *   irrefutable ones (`case _:`, `case name:` without a guard), which play the part of a default.
 * - Comments: `#` comments and every statement that is only a string literal: docstrings, and the
 *   attribute docstrings PEP 257 describes, which Python evaluates and throws away.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule, ProjectFiles, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, arrowReturn, assignedLocal, colonParameter, pythonField, type ResolutionRules } from "./resolution.ts";
import type { ProjectInfo } from "./project.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, TypeKind, VariableFact } from "./types.ts";
import { SpanIndex, at, assignEnclosing, attributeComplexity, column, docStartLine, endLine, line, qualify, readsIdentifier, spanLines } from "./kit.ts";
import { PYTHON_STDLIB_MODULES } from "./python-stdlib.ts";
import { dirOf, joinInside } from "../core/rel-path.ts";
import { boundedText, nameOccurrences } from "./source-text.ts";

const QUERY = `
(comment) @comment
(expression_statement . (string) @comment .)
(expression_statement . (concatenated_string) @comment .)
[(if_statement) (elif_clause) (for_statement) (while_statement) (except_clause) (conditional_expression) (if_clause) (for_in_clause)] @decision
["and" "or"] @decision
(case_clause) @case
(function_definition) @function
(class_definition) @class
(type_alias_statement) @alias
[(import_statement) (import_from_statement) (future_import_statement)] @import
(return_statement) @return
(yield) @yield
(call) @call
(type (identifier) @type.name)
(type (generic_type (identifier) @type.name))
(type (attribute object: (_) @type.qualifier attribute: (identifier) @type.name) @type.attribute)
(type (binary_operator) @type.union)
(attribute object: (identifier) @read.qualifier attribute: (identifier) @read.name) @read
(assignment right: (identifier) @ident)
(return_statement (identifier) @ident)
`;

const ENUM_BASES = new Set(["Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"]);
const ENUM_METACLASSES = new Set(["EnumMeta", "EnumType"]);

/** Builtin types: annotations naming these are not references to project code. */
const BUILTIN_TYPES = new Set([
  "int",
  "float",
  "complex",
  "str",
  "bytes",
  "bytearray",
  "memoryview",
  "bool",
  "object",
  "list",
  "dict",
  "set",
  "frozenset",
  "tuple",
  "type",
  "range",
  "slice",
  "None",
]);

/** Blocks that do not open a scope: statements inside them belong to the module or class around them. */
const SCOPE_TRANSPARENT = new Set([
  "if_statement",
  "elif_clause",
  "else_clause",
  "try_statement",
  "except_clause",
  "except_group_clause",
  "finally_clause",
  "with_statement",
  "block",
]);

const isComment = (n: Node): boolean => n.type === "comment";

/** Public by Python's convention: no leading underscore, except dunder names, which are protocol hooks. */
function isPublic(name: string): boolean {
  return !name.startsWith("_") || (name.startsWith("__") && name.endsWith("__") && name.length > 4);
}

const isDunder = (name: string): boolean => name.length > 4 && name.startsWith("__") && name.endsWith("__");

/** The dotted module name of a file: `src/shop/models/user.py` → `shop.models.user`. */
export function pythonModuleName(path: string, project: ProjectInfo): string {
  const segs = path.replace(/\.pyi?$/, "").split("/");
  if (segs[segs.length - 1] === "__init__") segs.pop();
  if (project.pythonRootPackage) return [project.pythonRootPackage, ...segs].join(".");
  const top = topLevelSet(project);
  for (let i = 0; i < segs.length; i++) if (top.has(segs[i]!)) return segs.slice(i).join(".");
  return segs[segs.length - 1] ?? "";
}

const topLevelCache = new WeakMap<string[], Set<string>>();
function topLevelSet(project: ProjectInfo): Set<string> {
  let s = topLevelCache.get(project.pythonTopLevel);
  if (!s) {
    s = new Set(project.pythonTopLevel);
    topLevelCache.set(project.pythonTopLevel, s);
  }
  return s;
}

type ImportClass = Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative">;

/**
 * Relative imports start with a dot; the project's own top-level packages come before the standard
 * library, as the project's folder comes first on sys.path when its code runs.
 */
export function classifyPythonImport(module: string, project: ProjectInfo): ImportClass {
  if (module.startsWith(".")) return { isStandardLib: false, isExternal: false, isRelative: true };
  const top = module.split(".")[0] ?? module;
  if (top === project.pythonRootPackage || topLevelSet(project).has(top)) return { isStandardLib: false, isExternal: false, isRelative: false };
  const std = PYTHON_STDLIB_MODULES.has(top);
  return { isStandardLib: std, isExternal: !std, isRelative: false };
}

/** Calls `fn` on each statement of a block, looking into if / try / with blocks, which open no scope. */
function forEachScopeStatement(block: Node | null, fn: (stmt: Node) => void): void {
  if (!block) return;
  for (const c of block.namedChildren) {
    if (!c) continue;
    if (SCOPE_TRANSPARENT.has(c.type)) forEachScopeStatement(c, fn);
    else fn(c);
  }
}

/** The assignment nodes of an expression statement (`a = b = 1` is one chain). */
function assignmentOf(stmt: Node): Node | null {
  if (stmt.type !== "expression_statement") return null;
  const a = stmt.firstNamedChild;
  return a && a.type === "assignment" ? a : null;
}

/** Identifier targets of an assignment chain: `a, b = c = 1` → a, b, c. */
function assignedNames(assign: Node): Node[] {
  const out: Node[] = [];
  let cur: Node | null = assign;
  while (cur && cur.type === "assignment") {
    const left = cur.childForFieldName("left");
    if (left?.type === "identifier") out.push(left);
    else if (left && (left.type === "pattern_list" || left.type === "tuple_pattern" || left.type === "list_pattern")) {
      for (const c of left.namedChildren) if (c?.type === "identifier") out.push(c);
    }
    cur = cur.childForFieldName("right");
  }
  return out;
}

/** The text of a plain string literal. */
function stringValue(s: Node): string {
  const content = s.namedChildren.find((c) => c?.type === "string_content");
  return content ? content.text : "";
}

/** String values of a list / tuple of string literals (for `__all__`). */
function stringItems(n: Node | null): string[] {
  if (!n || (n.type !== "list" && n.type !== "tuple")) return [];
  const out: string[] = [];
  for (const s of n.namedChildren) if (s?.type === "string") out.push(stringValue(s));
  return out;
}

/** The names in `__all__` (assigned, extended with += / .extend / .append), or undefined without one. */
function dunderAll(root: Node): Set<string> | undefined {
  let names: Set<string> | undefined;
  forEachScopeStatement(root, (stmt) => {
    if (stmt.type !== "expression_statement") return;
    const e = stmt.firstNamedChild;
    if (!e) return;
    if (e.type === "assignment" && e.childForFieldName("left")?.text === "__all__") {
      names = new Set(stringItems(e.childForFieldName("right")));
    } else if (e.type === "augmented_assignment" && e.childForFieldName("left")?.text === "__all__") {
      names ??= new Set();
      for (const s of stringItems(e.childForFieldName("right"))) names.add(s);
    } else if (e.type === "call") {
      const f = e.childForFieldName("function");
      if (f?.type !== "attribute" || f.childForFieldName("object")?.text !== "__all__") return;
      const method = f.childForFieldName("attribute")?.text;
      const arg = e.childForFieldName("arguments")?.firstNamedChild ?? null;
      names ??= new Set();
      if (method === "extend") for (const s of stringItems(arg)) names.add(s);
      else if (method === "append" && arg?.type === "string") names.add(stringValue(arg));
    }
  });
  return names;
}

/** Line of the docstring opening a body (comments before it skipped), if there is one. */
function docstringLine(body: Node | null): number | undefined {
  if (!body) return undefined;
  for (const s of body.namedChildren) {
    if (!s || s.type === "comment") continue;
    if (s.type === "expression_statement" && s.namedChildCount === 1) {
      const v = s.firstNamedChild;
      if (v && (v.type === "string" || v.type === "concatenated_string")) return line(s);
    }
    return undefined;
  }
  return undefined;
}

const COUNTED_PARAMS = new Set([
  "identifier",
  "typed_parameter",
  "default_parameter",
  "typed_default_parameter",
  "list_splat_pattern",
  "dictionary_splat_pattern",
  "tuple_pattern",
]);

/** The names a parameter list binds (they shadow module-level names inside the function). */
function paramNames(params: Node | null): Set<string> {
  const names = new Set<string>();
  for (const p of params?.namedChildren ?? []) {
    if (!p || !COUNTED_PARAMS.has(p.type)) continue;
    const id = p.type === "identifier" ? p : (p.childForFieldName("name") ?? p.firstNamedChild);
    if (id?.type === "identifier") names.add(id.text);
    else if (id) for (const c of id.namedChildren) if (c?.type === "identifier") names.add(c.text);
  }
  return names;
}

function countParams(params: Node | null, dropReceiver: boolean): number {
  if (!params) return 0;
  let n = 0;
  for (const p of params.namedChildren) if (p && COUNTED_PARAMS.has(p.type)) n++;
  return dropReceiver && n > 0 ? n - 1 : n;
}

/** Values a function returns by its annotation (see the header for the rule). */
function annotationReturnCount(type: Node): number {
  let t = type.text.trim();
  if (/^(["']).*\1$/s.test(t)) t = t.slice(1, -1).trim(); // a string annotation
  const bare = t.replace(/^(typing|typing_extensions)\./, "");
  if (bare === "None" || bare === "NoReturn" || bare === "Never") return 0;
  const m = /^(?:tuple|Tuple)\[(.*)\]$/s.exec(bare);
  if (!m) return 1;
  const inner = m[1]!.trim();
  if (inner === "" || inner === "()") return 0;
  let depth = 0;
  let parts = 1;
  for (const ch of inner) {
    if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    else if (ch === "," && depth === 0) parts++;
  }
  if (/,\s*\.\.\.\s*$/.test(inner)) return 1;
  return parts;
}

/** Values one `return` statement gives. */
function returnArity(ret: Node): number {
  const v = ret.firstNamedChild;
  if (!v || v.type === "comment" || v.type === "none") return 0;
  if (v.type === "expression_list") return v.namedChildren.filter((c) => c && c.type !== "comment").length;
  return 1;
}

/** `case _:` and `case name:` without a guard match anything: the default arm. */
function isIrrefutableCase(c: Node): boolean {
  if (c.childForFieldName("guard")) return false;
  const patterns = c.namedChildren.filter((n) => n?.type === "case_pattern");
  if (patterns.length !== 1) return false;
  const p = patterns[0]!;
  if (p.namedChildCount === 0) return p.text === "_";
  const only = p.namedChildCount === 1 ? p.firstNamedChild : null;
  return only?.type === "dotted_name" && only.namedChildCount === 1;
}

interface DefInfo {
  name: string;
  qname: string;
  kind: "class" | "function";
  exported: boolean;
  type?: TypeFact;
  classAttrs?: Set<string>;
}

/** The nearest class or function definition around a node, if any. */
function ownerDef(n: Node): Node | null {
  let p = n.parent;
  while (p) {
    if (p.type === "class_definition" || p.type === "function_definition") return p;
    if (p.type === "module") return null;
    p = p.parent;
  }
  return null;
}

/** A base-class expression → its name node and qualifier text (`pkg.Base`, `Generic[T]`). */
function baseName(n: Node, src: string): { node: Node; qualifier?: string } | undefined {
  if (n.type === "identifier") return { node: n };
  if (n.type === "attribute") {
    const a = n.childForFieldName("attribute");
    const o = n.childForFieldName("object");
    return a ? { node: a, ...(o ? { qualifier: boundedText(src, o) } : {}) } : undefined;
  }
  if (n.type === "subscript") {
    const v = n.childForFieldName("value");
    return v ? baseName(v, src) : undefined;
  }
  return undefined;
}

/** The signature of a def: from `def` / `async def` through the colon before the body. */
function pythonSignature(src: string, fn: Node, body: Node | null): string {
  let end = body ? body.startIndex : fn.endIndex;
  for (let c = body?.previousSibling ?? null; c; c = c.previousSibling) {
    if (c.type === ":") {
      end = c.endIndex;
      break;
    }
  }
  const text = src.slice(fn.startIndex, end).replace(/\s+/g, " ").trim();
  return text.length > 400 ? text.slice(0, 399) + "…" : text;
}

/** Python: a module is a file; annotations show parameter, local, field and return types. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "python",
  strictModules: true,
  selfQualifiers: ["self", "cls"],
  superQualifiers: ["super()"],
  coreMembers: [
    "get",
    "items",
    "keys",
    "values",
    "update",
    "pop",
    "append",
    "extend",
    "insert",
    "remove",
    "add",
    "discard",
    "clear",
    "copy",
    "sort",
    "join",
    "split",
    "strip",
    "replace",
    "format",
    "startswith",
    "endswith",
    "lower",
    "upper",
    "encode",
    "decode",
    "setdefault",
    "count",
    "index",
    "read",
    "write",
    "close",
  ],
  packageScope: "file",
  types: { parameter: colonParameter, local: assignedLocal, field: pythonField, returnType: arrowReturn },
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

export const python: LanguageModule = {
  id: "python",
  extensions: [".py", ".pyi"],
  grammar: "tree-sitter-python.wasm",
  resolution: RULES,
  lineComment: "#",
  query: QUERY,

  isTestFile(path) {
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (/^test_.*\.pyi?$/.test(base) || /_test\.pyi?$/.test(base) || base === "conftest.py") return true;
    return /(^|\/)tests?\//.test(path);
  },

  extract(tree, ctx, matches): Extracted {
    const root = tree.rootNode;
    const st = newState(ctx.source, pythonModuleName(ctx.path, ctx.project), dunderAll(root));
    const uses = sortMatches(matches);
    forEachScopeStatement(root, (stmt) => moduleAssignment(stmt, st));
    for (const a of uses.aliasNodes) typeAliasStatement(a, st);
    // Definitions, outer before inner, so each finds its owner's facts already made.
    uses.defNodes.sort((a, b) => a.startIndex - b.startIndex);
    for (const node of uses.defNodes) definition(node, st);
    returnCounts(uses.returns, uses.yields, st);
    for (const stmt of uses.importNodes) importStatement(stmt, st, ctx.project);
    usesFromMatches(uses.rest, st);
    bareReads(root, st);
    attributeComplexity(st.functions, uses.decisions);
    st.types.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn);
    st.variables.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn);
    assignEnclosing(st.references, st.functions, st.types, st.variables);
    const out: Extracted = { types: st.types, functions: st.functions, variables: st.variables, imports: st.imports, references: st.references };
    if (st.moduleName) out.packageName = st.moduleName;
    return out;
  },

  resolveImport(imp, fromPath, files): string[] {
    if (imp.isStandardLib || imp.isExternal) return [];
    const candidates: Array<{ base: string; parts: string[] }> = [];
    if (imp.isRelative) {
      const dots = /^\.+/.exec(imp.module)?.[0].length ?? 1;
      const rest = imp.module.slice(dots);
      let dir: string | undefined = dirOf(fromPath);
      for (let i = 1; i < dots && dir !== undefined; i++) dir = dir === "" ? undefined : dirOf(dir);
      if (dir === undefined) return [];
      candidates.push({ base: dir, parts: rest ? rest.split(".") : [] });
    } else {
      const parts = imp.module.split(".");
      const top = parts[0]!;
      if (files.project.pythonRootPackage === top) candidates.push({ base: "", parts: parts.slice(1) });
      const segs = dirOf(fromPath).split("/");
      const i = segs.indexOf(top);
      if (i >= 0) candidates.push({ base: segs.slice(0, i).join("/"), parts });
      for (const base of ["", "src", "lib"]) candidates.push({ base, parts });
      // a folder above the importing file, as a test runner puts its root dir on the path: `py/tests/test_cart.py`
      // importing `shop.cart` finds `py/shop/cart.py`
      for (let dir = dirOf(fromPath); dir !== ""; dir = dirOf(dir)) if (dir !== "src" && dir !== "lib") candidates.push({ base: dir, parts });
    }
    for (const { base, parts } of candidates) {
      const target = joinInside(base, parts.join("/") || ".");
      if (target === undefined) continue;
      const found: string[] = [];
      const mod = moduleFile(target, files);
      if (mod) found.push(mod);
      for (const s of imp.symbols) {
        if (s === "*") continue;
        const sub = moduleFile(target === "" ? s : `${target}/${s}`, files);
        if (sub && !found.includes(sub)) found.push(sub);
      }
      if (found.length > 0) return found;
    }
    return [];
  },
};

/** The file a dotted module path names: `a/b.py`, `a/b.pyi` or `a/b/__init__.py`. */
function moduleFile(target: string, files: ProjectFiles): string | undefined {
  if (target !== "") {
    if (files.has(target + ".py")) return target + ".py";
    if (files.has(target + ".pyi")) return target + ".pyi";
  }
  const init = target === "" ? "__init__.py" : `${target}/__init__.py`;
  return files.has(init) ? init : undefined;
}

/** What extraction collects over one file, shared by the steps below (one function per kind of declaration, as in go.ts). */
interface PythonState {
  src: string;
  moduleName: string;
  /** the names in `__all__`, when the module defines it */
  all: Set<string> | undefined;
  types: TypeFact[];
  functions: FunctionFact[];
  variables: VariableFact[];
  imports: ImportFact[];
  references: ReferenceFact[];
  /** module-level names already recorded (a reassignment is not a second variable) */
  seenVars: Set<string>;
  /** right sides of `X: TypeAlias = ...`: expressions that name types */
  aliasValues: Node[];
  /** [start, end) of the left sides of `type X = ...`, which declare rather than use */
  aliasLefts: Array<[number, number]>;
  /** class / function node id -> what later definitions inside it need */
  defs: Map<number, DefInfo>;
  // Attributes that are call targets, annotations or base classes, by id (not by asking for a
  // node's parent, which walks down from the root each time).
  notReads: Set<number>;
  enumNames: Set<string>;
  interfaceNames: Set<string>;
  returnInfo: Map<FunctionFact, { annotated: boolean; max: number; generator: boolean }>;
  /** per function: its parameters' names, which shadow module-level names inside it */
  shadows: Map<FunctionFact, Set<string>>;
  /** local names bound by imports */
  importedNames: Set<string>;
  /** local names bound by `from m import a, b as c` (values, functions, classes; not whole modules) */
  importedValues: Set<string>;
  /** module-level variables and functions, whose plain uses are reads */
  topLevelValues: Set<string>;
  fnIndex: SpanIndex<FunctionFact> | undefined;
}

function newState(src: string, moduleName: string, all: Set<string> | undefined): PythonState {
  return {
    src,
    moduleName,
    all,
    types: [],
    functions: [],
    variables: [],
    imports: [],
    references: [],
    seenVars: new Set(),
    aliasValues: [],
    aliasLefts: [],
    defs: new Map(),
    notReads: new Set(),
    enumNames: new Set(),
    interfaceNames: new Set(),
    returnInfo: new Map(),
    shadows: new Map(),
    importedNames: new Set(),
    importedValues: new Set(),
    topLevelValues: new Set(),
    fnIndex: undefined,
  };
}

/** Whether a module-level name is exported: listed in `__all__`, or public without one. */
function exportedTop(name: string, st: PythonState): boolean {
  return st.all ? st.all.has(name) : isPublic(name);
}

/** The query's matches sorted by capture, for the steps that read them. */
interface PythonUses {
  defNodes: Node[];
  decisions: Node[];
  importNodes: Node[];
  aliasNodes: Node[];
  returns: Node[];
  yields: Node[];
  /** calls, type uses and reads */
  rest: QueryMatch[];
}

function sortMatches(matches: QueryMatch[]): PythonUses {
  const u: PythonUses = { defNodes: [], decisions: [], importNodes: [], aliasNodes: [], returns: [], yields: [], rest: [] };
  for (const m of matches) {
    if (m.decision) u.decisions.push(m.decision);
    else if (m.case) {
      if (!isIrrefutableCase(m.case)) u.decisions.push(m.case);
    } else if (m.function) u.defNodes.push(m.function);
    else if (m.class) u.defNodes.push(m.class);
    else if (m.import) u.importNodes.push(m.import);
    else if (m.alias) u.aliasNodes.push(m.alias);
    else if (m.return) u.returns.push(m.return);
    else if (m.yield) u.yields.push(m.yield);
    else u.rest.push(m);
  }
  return u;
}

/** A module-scope assignment: variables, and type aliases written as `X: TypeAlias = ...`. */
function moduleAssignment(stmt: Node, st: PythonState): void {
  const assign = assignmentOf(stmt);
  if (!assign) return;
  const annotation = assign.childForFieldName("type")?.text.replace(/^(typing|typing_extensions)\./, "");
  for (const n of assignedNames(assign)) {
    const name = n.text;
    if (st.seenVars.has(name)) continue;
    st.seenVars.add(name);
    if (annotation === "TypeAlias") {
      const value = assign.childForFieldName("right");
      if (value) st.aliasValues.push(value);
      st.types.push({
        name,
        qualifiedName: qualify(st.moduleName, name),
        kind: "type_alias",
        startLine: line(stmt),
        endLine: endLine(stmt),
        startColumn: column(stmt),
        exported: exportedTop(name, st),
        fieldCount: 0,
        methodCount: 0,
      });
      continue;
    }
    const constant = /^_*[A-Z][A-Z0-9_]*$/.test(name) || /^Final\b/.test(annotation ?? "");
    st.variables.push({
      name,
      qualifiedName: qualify(st.moduleName, name),
      kind: constant ? "constant" : "variable",
      startLine: line(stmt),
      endLine: endLine(stmt),
      startColumn: column(n),
      exported: exportedTop(name, st),
    });
  }
}

/** `type Name = ...` (3.12): a type alias wherever it is written; its left side declares, not uses. */
function typeAliasStatement(a: Node, st: PythonState): void {
  const left = a.childForFieldName("left");
  if (!left) return;
  st.aliasLefts.push([left.startIndex, left.endIndex]);
  const nameNode = left.descendantsOfType("identifier")[0];
  if (!nameNode) return;
  const ownerNode = ownerDef(a);
  const name = nameNode.text;
  st.types.push({
    name,
    qualifiedName: qualify(st.moduleName, name),
    kind: "type_alias",
    startLine: line(a),
    endLine: endLine(a),
    startColumn: column(a),
    exported: !ownerNode && exportedTop(name, st),
    fieldCount: 0,
    methodCount: 0,
  });
}

/** What a class or def shares: its name, where it is written (decorators included) and what owns it. */
interface DefSite {
  node: Node;
  name: string;
  /** the decorated definition around it, or the node itself */
  outer: Node;
  ownerNode: Node | null;
  owner: DefInfo | undefined;
  qname: string;
  exported: boolean;
  body: Node | null;
}

/** A class or a def: the facts shared by both, then the kind's own. */
function definition(node: Node, st: PythonState): void {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return;
  const name = nameNode.text;
  const ownerNode = ownerDef(node);
  const owner = ownerNode ? st.defs.get(ownerNode.id) : undefined;
  const site: DefSite = {
    node,
    name,
    outer: node.parent?.type === "decorated_definition" ? node.parent : node,
    ownerNode,
    owner,
    qname: qualify(owner ? owner.qname : st.moduleName, name),
    exported: owner ? owner.kind === "class" && owner.exported && isPublic(name) : exportedTop(name, st),
    body: node.childForFieldName("body"),
  };
  if (node.type === "class_definition") classDefinition(site, st);
  else functionDefinition(site, st);
}

/** The kind of type a class's bases and metaclass make it; records them as references. */
function classKind(node: Node, st: PythonState): TypeKind {
  let kind: TypeKind = "class";
  const bases: Array<{ node: Node; qualifier?: string }> = [];
  for (const b of node.childForFieldName("superclasses")?.namedChildren ?? []) {
    if (!b) continue;
    if (b.type === "keyword_argument") {
      const value = b.childForFieldName("value");
      if (b.childForFieldName("name")?.text !== "metaclass" || !value) continue;
      const meta = baseName(value, st.src);
      if (!meta) continue;
      if (ENUM_METACLASSES.has(meta.node.text)) kind = "enum";
      st.references.push({ name: meta.node.text, ...(meta.qualifier ? { qualifier: meta.qualifier } : {}), kind: "type", ...at(meta.node) });
      continue;
    }
    const base = baseName(b, st.src);
    if (base) bases.push(base);
    if (b.type === "attribute") st.notReads.add(b.id);
  }
  for (const b of bases) {
    const n = b.node.text;
    if (ENUM_BASES.has(n) || st.enumNames.has(n)) kind = "enum";
    else if (kind === "class" && n === "Protocol") kind = "interface";
    else if (kind === "class" && n === "NamedTuple") kind = "record";
    else if (kind === "class" && n === "TypedDict") kind = "struct";
    const refKind = st.interfaceNames.has(n) && !b.qualifier ? "implement" : "inherit";
    st.references.push({ name: n, ...(b.qualifier ? { qualifier: b.qualifier } : {}), kind: refKind, ...at(b.node) });
  }
  return kind;
}

function classDefinition(d: DefSite, st: PythonState): void {
  const { node, name, outer, qname, exported, body } = d;
  const kind = classKind(node, st);
  if (kind === "enum") st.enumNames.add(name);
  if (kind === "interface") st.interfaceNames.add(name);
  const fact: TypeFact = {
    name,
    qualifiedName: qname,
    kind,
    startLine: line(outer),
    endLine: endLine(node),
    startColumn: column(outer),
    exported,
    fieldCount: 0,
    methodCount: 0,
  };
  if (d.ownerNode?.type === "class_definition" && d.owner) fact.container = d.owner.name;
  const doc = docstringLine(body) ?? docStartLine(outer, isComment);
  if (doc !== undefined) fact.docStartLine = doc;
  const attrs = new Set<string>();
  forEachScopeStatement(body, (stmt) => {
    const assign = assignmentOf(stmt);
    if (!assign) return;
    for (const n of assignedNames(assign)) {
      const field = n.text;
      if (isDunder(field) || attrs.has(field)) continue;
      attrs.add(field);
      if (kind === "enum") {
        st.variables.push({
          name: field,
          qualifiedName: qualify(qname, field),
          kind: "enum_member",
          startLine: line(stmt),
          endLine: endLine(stmt),
          startColumn: column(n),
          exported: exported && isPublic(field),
          container: name,
        });
      }
    }
  });
  fact.fieldCount = attrs.size;
  st.types.push(fact);
  st.defs.set(node.id, { name, qname, kind: "class", exported, type: fact, classAttrs: attrs });
}

/** A function or method. */
function functionDefinition(d: DefSite, st: PythonState): void {
  const { node, name, outer, owner, qname, exported, body } = d;
  const isMethod = owner?.kind === "class";
  const decorators = outer === node ? [] : outer.namedChildren.filter((dec) => dec?.type === "decorator").map((dec) => dec!.text.slice(1).trim());
  const isStatic = decorators.includes("staticmethod");
  const params = node.childForFieldName("parameters");
  const returnType = node.childForFieldName("return_type");
  const fact: FunctionFact = {
    name,
    qualifiedName: qname,
    startLine: line(outer),
    endLine: endLine(node),
    startColumn: column(outer),
    exported,
    isMethod,
    paramCount: countParams(params, isMethod && !isStatic),
    returnCount: returnType ? annotationReturnCount(returnType) : 0,
    bodyLines: spanLines(body),
    complexity: 1,
    signature: pythonSignature(st.src, node, body),
  };
  if (isMethod && owner) fact.receiverType = owner.name;
  const doc = docstringLine(body) ?? docStartLine(outer, isComment);
  if (doc !== undefined) fact.docStartLine = doc;
  st.functions.push(fact);
  st.returnInfo.set(fact, { annotated: !!returnType, max: 0, generator: false });
  st.shadows.set(fact, paramNames(params));
  st.defs.set(node.id, { name, qname, kind: "function", exported });
  if (isMethod && owner?.type) {
    owner.type.methodCount++;
    if (name === "__init__" && body && owner.classAttrs) initAttributes(params, body, owner.classAttrs, owner.type);
  }
}

/** The distinct `self.x` attributes `__init__` assigns are fields of its class. */
function initAttributes(params: Node | null, body: Node, classAttrs: Set<string>, type: TypeFact): void {
  const self = params?.namedChildren.find((p) => p && COUNTED_PARAMS.has(p.type));
  const selfName = self?.type === "identifier" ? self.text : (self?.childForFieldName("name")?.text ?? self?.firstNamedChild?.text);
  if (!selfName) return;
  for (const a of body.descendantsOfType("assignment")) {
    const left = a?.childForFieldName("left");
    if (!left) continue;
    const targets = left.type === "attribute" ? [left] : left.type === "pattern_list" || left.type === "tuple_pattern" ? left.namedChildren : [];
    for (const t of targets) {
      if (t?.type !== "attribute" || t.childForFieldName("object")?.text !== selfName) continue;
      const attr = t.childForFieldName("attribute")?.text;
      if (attr && !isDunder(attr) && !classAttrs.has(attr)) {
        classAttrs.add(attr);
        type.fieldCount++;
      }
    }
  }
}

/** Return counts of functions without an annotation, from their own return and yield statements. */
function returnCounts(returns: Node[], yields: Node[], st: PythonState): void {
  if (returns.length > 0 || yields.length > 0) {
    const index = new SpanIndex(st.functions);
    for (const r of returns) {
      const p = r.startPosition;
      const f = index.find(p.row + 1, p.column + 1);
      const info = f && st.returnInfo.get(f);
      if (info && !info.annotated) info.max = Math.max(info.max, returnArity(r));
    }
    for (const y of yields) {
      const p = y.startPosition;
      const f = index.find(p.row + 1, p.column + 1);
      const info = f && st.returnInfo.get(f);
      if (info) info.generator = true;
    }
  }
  for (const [f, info] of st.returnInfo) if (!info.annotated) f.returnCount = Math.max(info.max, info.generator ? 1 : 0);
}

/** An import, and the local names it binds (written where the name is). */
function importStatement(stmt: Node, st: PythonState, project: ProjectInfo): void {
  if (stmt.type === "future_import_statement") {
    const symbols = stmt
      .childrenForFieldName("name")
      .filter((n) => n !== null)
      .map((n) => (n.type === "aliased_import" ? (n.childForFieldName("name")?.text ?? n.text) : n.text));
    st.imports.push({ module: "__future__", isStandardLib: true, isExternal: false, isRelative: false, symbols, ...at(stmt) });
  } else if (stmt.type === "import_statement") plainImport(stmt, st, project);
  else fromImport(stmt, st, project);
}

/** `import a.b, c as d`: one import per module; the local name is the first segment or the alias. */
function plainImport(stmt: Node, st: PythonState, project: ProjectInfo): void {
  for (const n of stmt.childrenForFieldName("name")) {
    if (!n) continue;
    const dotted = n.type === "aliased_import" ? n.childForFieldName("name") : n;
    const aliasNode = n.type === "aliased_import" ? n.childForFieldName("alias") : null;
    if (!dotted) continue;
    const module = dotted.text.replace(/\s+/g, "");
    const fact: ImportFact = { module, ...classifyPythonImport(module, project), symbols: [], ...at(dotted) };
    if (aliasNode) fact.alias = aliasNode.text;
    st.imports.push(fact);
    const local = aliasNode ?? dotted.firstNamedChild;
    if (local) {
      st.importedNames.add(local.text);
      st.references.push({ name: local.text, kind: "import", ...at(local) });
    }
  }
}

/** `from m import a, b as c` (or `*`): one import with its symbols. */
function fromImport(stmt: Node, st: PythonState, project: ProjectInfo): void {
  const moduleNode = stmt.childForFieldName("module_name");
  if (!moduleNode) return;
  const module = moduleNode.text.replace(/\s+/g, "");
  const symbols: string[] = [];
  const names = stmt.childrenForFieldName("name");
  for (const n of names) {
    if (!n) continue;
    const orig = n.type === "aliased_import" ? n.childForFieldName("name") : n;
    const aliasNode = n.type === "aliased_import" ? n.childForFieldName("alias") : null;
    if (!orig) continue;
    symbols.push(orig.text);
    const local = aliasNode ?? orig;
    st.importedNames.add(local.text);
    st.importedValues.add(local.text);
    st.references.push({ name: local.text, kind: "import", ...at(local) });
  }
  if (names.length === 0 && stmt.namedChildren.some((c) => c?.type === "wildcard_import")) symbols.push("*");
  st.imports.push({ module, ...classifyPythonImport(module, project), symbols, ...at(stmt) });
}

/** Calls, type uses, reads. */
function usesFromMatches(rest: QueryMatch[], st: PythonState): void {
  st.topLevelValues = new Set<string>([
    ...st.variables.filter((v) => v.kind !== "enum_member").map((v) => v.name),
    ...st.functions.filter((f) => !f.isMethod && f.qualifiedName === qualify(st.moduleName, f.name)).map((f) => f.name),
  ]);
  const reads: QueryMatch[] = [];
  for (const m of rest) {
    const call = m.call;
    if (call) {
      callReference(call, st);
      continue;
    }
    const typeName = m["type.name"];
    if (m["type.attribute"]) st.notReads.add(m["type.attribute"].id);
    if (typeName) {
      const q = m["type.qualifier"];
      typeUse(typeName, q ? boundedText(st.src, q) : undefined, st);
      continue;
    }
    const union = m["type.union"];
    if (union) {
      unionMembers(union, st);
      continue;
    }
    const readName = m["read.name"];
    if (readName) {
      reads.push(m);
      continue;
    }
    const ident = m.ident;
    if (ident && st.topLevelValues.has(ident.text)) readValue(ident, st);
  }
  for (const value of st.aliasValues) aliasValueTypes(value, st);
  // Reads through imported modules (`os.environ`), once calls and annotations are known.
  for (const m of reads) {
    const q = m["read.qualifier"];
    const name = m["read.name"]!;
    if (!q || !m.read || st.notReads.has(m.read.id) || !st.importedNames.has(q.text)) continue;
    st.references.push({ name: name.text, qualifier: q.text, kind: "read", ...at(name) });
  }
}

/** A type use, unless a builtin or the left side of `type X = ...`. */
function typeUse(nameNode: Node, qualifier: string | undefined, st: PythonState): void {
  if (!qualifier && BUILTIN_TYPES.has(nameNode.text)) return;
  if (st.aliasLefts.length > 0 && st.aliasLefts.some(([s, e]) => nameNode.startIndex >= s && nameNode.endIndex <= e)) return;
  st.references.push({ name: nameNode.text, ...(qualifier ? { qualifier } : {}), kind: "type", ...at(nameNode) });
}

/** The members of an `A | B` annotation. */
function unionMembers(n: Node, st: PythonState): void {
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === "identifier") typeUse(c, undefined, st);
    else if (c.type === "attribute" || c.type === "subscript" || c.type === "generic_type") {
      if (c.type === "attribute") st.notReads.add(c.id);
      const b = c.type === "generic_type" ? (c.firstNamedChild ? { node: c.firstNamedChild } : undefined) : baseName(c, st.src);
      if (b && b.node.type === "identifier") typeUse(b.node, b.qualifier, st);
    } else if (c.type === "binary_operator") unionMembers(c, st);
  }
}

/**
 * Reads of the names this file imports from other modules (`from .pricing import DISCOUNT_RATE`) or
 * defines at module level, wherever an expression holds them: an operand (`1 - DISCOUNT_RATE`), a dict
 * value, a subscript, a keyword argument's value, an assignment's right side, a function passed by name
 * (`fn = calculate_tax`). The query above catches only some of these places; a rename or removal must
 * see them all. Found from the text first (a whole-word match of one of the names), each occurrence is
 * then asked of the tree: an identifier in a place that reads it, and not yet recorded (calls are).
 */
function bareReads(root: Node, st: PythonState): void {
  const names = new Set<string>();
  for (const n of [...st.importedValues, ...st.topLevelValues]) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) names.add(n);
  if (names.size === 0) return;
  let recorded: Set<number> | undefined;
  for (const start of nameOccurrences(st.src, names, { dollar: false, notAssign: "=" })) {
    const node = root.descendantForIndex(start, start + 1);
    if (node?.type !== "identifier" || node.startIndex !== start || !names.has(node.text) || !readsIdentifier(node, NOT_READ)) continue;
    const site = at(node);
    recorded ??= new Set(st.references.map((r) => r.line * 1e6 + r.column));
    if (recorded.has(site.line * 1e6 + site.column)) continue;
    readValue(node, st);
  }
}

/**
 * Where an identifier is no read, by its parent (readsIdentifier): parameters, binding targets and imports
 * (false), and the field of a parent that names or binds rather than reads. `obj.NAME` names a member, and
 * `NAME.x` is recorded with NAME as the qualifier of the read, call or type it is (usesFromMatches).
 */
const NOT_READ: Record<string, string | false> = {
  parameters: false,
  lambda_parameters: false,
  default_parameter: false,
  typed_parameter: false,
  typed_default_parameter: false,
  list_splat_pattern: false,
  dictionary_splat_pattern: false,
  pattern_list: false,
  tuple_pattern: false,
  list_pattern: false,
  dotted_name: false,
  aliased_import: false,
  global_statement: false,
  nonlocal_statement: false,
  type: false,
  generic_type: false,
  decorator: false,
  as_pattern_target: false,
  attribute: false,
  function_definition: "name",
  class_definition: "name",
  keyword_argument: "name",
  named_expression: "name",
  call: "function", // recorded as a call
  assignment: "left",
  augmented_assignment: "left",
  for_statement: "left",
  for_in_clause: "left",
  with_item: "alias",
  except_clause: "alias",
  as_pattern: "alias",
};

/** A read of a module-level value, unless a parameter of the same name shadows it. */
function readValue(ident: Node, st: PythonState): void {
  const site = at(ident);
  st.fnIndex ??= new SpanIndex(st.functions);
  const inside = st.fnIndex.find(site.line, site.column);
  if (inside && st.shadows.get(inside)?.has(ident.text)) return; // a parameter of the same name
  st.references.push({ name: ident.text, kind: "read", ...site });
}

/** A call, and the module-level values passed to it. */
function callReference(call: Node, st: PythonState): void {
  // Fields are read here rather than matched by the query: a pattern constraining a call's
  // children stays open through a whole call chain, which made long chains quadratic.
  const fn = call.childForFieldName("function");
  if (fn?.type === "identifier") st.references.push({ name: fn.text, kind: "call", ...at(fn) });
  else if (fn?.type === "attribute") {
    st.notReads.add(fn.id);
    const name = fn.childForFieldName("attribute");
    const q = fn.childForFieldName("object");
    if (name) st.references.push({ name: name.text, ...(q ? { qualifier: boundedText(st.src, q) } : {}), kind: "call", ...at(name) });
  }
  if (st.topLevelValues.size > 0) {
    const args = call.childForFieldName("arguments");
    if (args?.type === "argument_list") for (const a of args.namedChildren) if (a?.type === "identifier" && st.topLevelValues.has(a.text)) readValue(a, st);
  }
}

/** The types named by the value of `X: TypeAlias = ...`. */
function aliasValueTypes(value: Node, st: PythonState): void {
  const inner = new Set<number>();
  for (const n of value.descendantsOfType(["attribute", "identifier"])) {
    if (!n || inner.has(n.id)) continue;
    if (n.type === "attribute") {
      const name = n.childForFieldName("attribute");
      const object = n.childForFieldName("object");
      st.notReads.add(n.id);
      if (name) inner.add(name.id);
      if (object) inner.add(object.id);
      if (name && object?.type === "identifier") typeUse(name, object.text, st);
    } else typeUse(n, undefined, st);
  }
}
