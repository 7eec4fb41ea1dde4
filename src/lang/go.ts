/**
 * Go: packages, functions and methods (receiver types), struct / interface / defined types, const and
 * var blocks, imports classified against go.mod modules, and references (calls, type uses, embedding).
 *
 * The rules this module decides:
 * - Interface methods are methods of the interface (`pkg.Reader.Read`, no body), as abstract methods are
 *   in every other language: what implementation look-ups compare method sets against.
 * - A call or read through the method's receiver or a parameter declared with a named type carries that
 *   type (ReferenceFact.qualifierType), so resolution finds the member on the right type.
 * - Imports resolve to the files of the imported package's folder: inside a go.mod module by its path,
 *   the standard library inside the `std` module (GOROOT/src) by its path, and vendored packages.
 * - The query constrains no node through its children on recursive node types (calls, selectors,
 *   argument lists): call chains and nested calls are read from the captured node in JavaScript, and
 *   parents are never asked for (Node.parent walks down from the root), so extraction stays linear.
 */
import type { Node } from "web-tree-sitter";
import type { CollectedMatches, ExtractContext, Extracted, LanguageModule, ProjectFiles, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_SUFFIX, spacedLocal, spacedParameter, type ResolutionRules } from "./resolution.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "./types.ts";
import {
  SpanIndex,
  at,
  assignEnclosing,
  attributeComplexity,
  column,
  compactText,
  docStartLine,
  endLine,
  line,
  qualify,
  refAt,
  signatureOf,
  spanLines,
  textOf,
  typeIdTable,
  unquote,
} from "./kit.ts";
import { boundedText } from "./source-text.ts";
import { joinInside } from "../core/rel-path.ts";

const QUERY = `
(comment) @comment
[(if_statement) (for_statement) (expression_case) (type_case) (communication_case)] @decision
["&&" "||"] @decision
(call_expression) @call
(qualified_type) @qualified
(type_identifier) @type.bare
(selector_expression) @selector
(expression_list) @values
(literal_element (identifier) @value)
(short_var_declaration) @local
(var_spec) @local.var
(const_spec) @const
`;

/** The capture collectGo gives each node type it asks tree-sitter for (QUERY's patterns, one to one; `element` stands for `value`). */
const CAPTURE_OF_TYPE: Record<string, string> = {
  comment: "comment",
  if_statement: "decision",
  for_statement: "decision",
  expression_case: "decision",
  type_case: "decision",
  communication_case: "decision",
  "&&": "decision",
  "||": "decision",
  call_expression: "call",
  qualified_type: "qualified",
  type_identifier: "type.bare",
  selector_expression: "selector",
  expression_list: "values",
  literal_element: "element",
  short_var_declaration: "local",
  var_spec: "local.var",
  const_spec: "const",
};
const COLLECTED_TYPES = Object.keys(CAPTURE_OF_TYPE);

/** Capture name by node type id, per grammar. */
const capturesOf = typeIdTable<string | undefined>(CAPTURE_OF_TYPE, undefined);

/**
 * QUERY's matches, gathered from one descendantsOfType walk (module.ts, `collect`; cheaper than the query
 * cursor's walk, as for C). Every pattern is a node type but one: a literal element's identifier child
 * (`{a, b}` naming values). collect hands over the element itself (capture `element`, in place of the
 * query's `value`), and extraction reads its identifier child only where the text does not rule out a
 * value's name there (`readElement`): asking every element for its children made an array and a Node per
 * element, 1.1 million of them on go-src's tables. Nodes come in document order, which is the query's
 * order for each capture name, and for expression lists and literal elements together (they never nest
 * in each other: an element that is an identifier holds nothing else).
 */
function collectGo(root: Node): CollectedMatches {
  const captures = capturesOf(root.tree.language);
  const comments: Array<[number, number]> = [];
  const matches: QueryMatch[] = [];
  for (const n of root.descendantsOfType(COLLECTED_TYPES)) {
    const capture = captures[n.typeId];
    if (capture === "comment") comments.push([n.startIndex, n.endIndex]);
    else if (capture) matches.push(matchOf(capture, n));
  }
  return { comments, matches };
}

/**
 * A match of one capture, as an object literal of that capture's own shape: `{ [capture]: n }` built each
 * of go-src's 4.3 million matches by a keyed store (0.4 s of a thread's 22 s).
 */
function matchOf(capture: string, n: Node): QueryMatch {
  switch (capture) {
    case "decision":
      return { decision: n };
    case "call":
      return { call: n };
    case "qualified":
      return { qualified: n };
    case "type.bare":
      return { "type.bare": n };
    case "selector":
      return { selector: n };
    case "values":
      return { values: n };
    case "element":
      return { element: n };
    case "local":
      return { local: n };
    case "local.var":
      return { "local.var": n };
    case "const":
      return { const: n };
    default:
      return { [capture]: n };
  }
}

/** The identifier children of a literal element: what the query captures as `value` (tests compare them). */
export function elementIdentifiers(element: Node): Node[] {
  const out: Node[] = [];
  for (const child of element.namedChildren) if (child?.type === "identifier") out.push(child);
  return out;
}

/** Predeclared types: uses of these are not references to project code. */
const BUILTIN_TYPES = new Set([
  "bool",
  "byte",
  "complex64",
  "complex128",
  "error",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uintptr",
  "any",
  "comparable",
]);

const isExported = (name: string): boolean => {
  const c = name.codePointAt(0);
  if (c === undefined) return false;
  const ch = String.fromCodePoint(c);
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
};

const isComment = (n: Node): boolean => n.type === "comment";

/** Counts names in a parameter_list: `a, b int` is two, an unnamed `int` is one. */
function countParams(list: Node | null): number {
  if (!list) return 0;
  if (list.type !== "parameter_list") return 1; // a single unnamed result type
  let n = 0;
  for (const p of list.namedChildren) {
    if (!p || (p.type !== "parameter_declaration" && p.type !== "variadic_parameter_declaration")) continue;
    const names = p.childrenForFieldName("name").filter((c) => c !== null);
    n += Math.max(1, names.length);
  }
  return n;
}

/** `*Handler[T]` → `Handler` */
function baseTypeName(t: string): string {
  return t
    .replace(/^[*\s]+/, "")
    .replace(/\[.*$/, "")
    .trim();
}

/** The named type a parameter is declared with (`*Handler` → Handler, `store.DB` → store.DB), if any. */
function namedTypeOf(t: Node | null): string | undefined {
  if (t?.type === "pointer_type") t = t.namedChildren[0] ?? null;
  if (t?.type === "generic_type") t = t.childForFieldName("type");
  if (t?.type === "type_identifier") return BUILTIN_TYPES.has(t.text) ? undefined : t.text;
  if (t?.type === "qualified_type") return t.text.replace(/\s+/g, "");
  return undefined;
}

/** The named type of a value when the expression shows it: `T{…}`, `&T{…}`, `pkg.T{…}`, `NewT()`. */
function valueType(v: Node | null, resultTypes: Map<string, string>): string | undefined {
  if (v?.type === "unary_expression" && v.childForFieldName("operator")?.text === "&") v = v.childForFieldName("operand");
  if (v?.type === "composite_literal") return namedTypeOf(v.childForFieldName("type"));
  if (v?.type === "call_expression") {
    const fn = v.childForFieldName("function");
    if (fn?.type === "identifier") return resultTypes.get(fn.text);
  }
  return undefined;
}

/** The Go files of a folder, test files apart (a package import never reaches the _test.go files). */
function packageFiles(dir: string, files: ProjectFiles): string[] {
  return files.inDir(dir).filter((p) => p.endsWith(".go") && !p.endsWith("_test.go"));
}

function classifyImport(path: string, ctx: { goModules: { module: string }[] }): Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative"> {
  if (path.startsWith("./") || path.startsWith("../")) return { isStandardLib: false, isExternal: false, isRelative: true };
  const internal = ctx.goModules.some((m) => path === m.module || path.startsWith(m.module + "/"));
  if (internal) return { isStandardLib: false, isExternal: false, isRelative: false };
  const first = path.split("/")[0] ?? "";
  const std = !first.includes(".");
  return { isStandardLib: std, isExternal: !std, isRelative: false };
}

/**
 * A Go import reaches the files of one package: a folder's `package main` generators (`//go:build
 * ignore` programs beside the package they generate) are not part of it, nor files of another package.
 */
function onePackage(targets: string[], packageOf: (file: string) => string | null): string[] {
  if (targets.length < 2) return targets;
  const count = new Map<string, number>();
  for (const t of targets) {
    const pkg = packageOf(t) ?? "";
    if (pkg !== "main") count.set(pkg, (count.get(pkg) ?? 0) + 1);
  }
  if (count.size === 0) return targets;
  const main = [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  return targets.filter((t) => (packageOf(t) ?? "") === main);
}

/** Go: imports bind the package clause's name; a package is a folder's files of one clause; Go's types come from the module (qualifierType). */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "go",
  strictModules: true,
  importBindsDeclaredPackage: true,
  importTargets: onePackage,
  packageScope: "folder-and-clause",
  membersInTypeFolder: true,
  implicitInterfaces: true,
  testNames: [TEST_SUFFIX],
  roots: { parameter: spacedParameter, local: spacedLocal },
};

export const go: LanguageModule = {
  id: "go",
  extensions: [".go"],
  grammar: "tree-sitter-go.wasm",
  resolution: RULES,
  query: QUERY,
  isTestFile: (path) => path.endsWith("_test.go"),

  resolveImport(imp, fromPath, files): string[] {
    const path = imp.module;
    if (imp.isRelative) {
      const i = fromPath.lastIndexOf("/");
      const dir = joinInside(i < 0 ? "" : fromPath.slice(0, i), path);
      return dir === undefined ? [] : packageFiles(dir, files);
    }
    const modules = [...files.project.goModules].sort((a, b) => b.module.length - a.module.length);
    for (const m of modules) {
      if (path !== m.module && !path.startsWith(m.module + "/")) continue;
      const dir = joinInside(m.dir, path.slice(m.module.length + 1) || ".");
      if (dir !== undefined) return packageFiles(dir, files);
    }
    // the standard library is the module "std" (GOROOT/src); its dependencies are vendored inside it
    const inside = modules.filter((m) => fromPath === m.dir || m.dir === "" || fromPath.startsWith(m.dir + "/"));
    for (const m of inside) {
      const vendored = joinInside(m.dir, "vendor/" + path);
      if (vendored !== undefined) {
        const found = packageFiles(vendored, files);
        if (found.length) return found;
      }
    }
    const std = modules.find((m) => m.module === "std");
    if (std && imp.isStandardLib) {
      const dir = joinInside(std.dir, path);
      if (dir !== undefined) return packageFiles(dir, files);
    }
    return [];
  },

  collect: collectGo,

  extract(tree, ctx, matches): Extracted {
    const st = newState(ctx.source, !tree.rootNode.hasError);
    const uses = sortMatches(matches);
    const constSpecs = new SpecsInside(uses.constSpecs);
    const varSpecs = new SpecsInside(uses.varSpecs);
    for (const decl of tree.rootNode.namedChildren) {
      if (!decl) continue;
      switch (decl.type) {
        case "package_clause":
          st.pkg = decl.namedChildren.find((c) => c?.type === "package_identifier")?.text ?? st.pkg;
          break;
        case "import_declaration":
          importDeclaration(decl, st, ctx.project);
          break;
        case "function_declaration":
        case "method_declaration":
          functionDeclaration(decl, st);
          break;
        case "type_declaration":
          typeDeclaration(decl, st);
          break;
        case "const_declaration":
          valueDeclaration("constant", constSpecs.of(decl), st);
          break;
        case "var_declaration":
          valueDeclaration("variable", varSpecs.of(decl), st);
          break;
      }
    }
    countMethods(st);
    usesFromMatches(uses, st);
    attributeComplexity(st.functions, uses.decisions);
    assignEnclosing(st.references, st.functions, st.types, st.variables);
    localTypes(uses.locals, st);
    qualifierTypes(st);
    const out: Extracted = { types: st.types, functions: st.functions, variables: st.variables, imports: st.imports, references: st.references };
    if (st.pkg) out.packageName = st.pkg;
    return out;
  },
};

/**
 * What extraction collects over one file, shared by the steps below. Extraction is split into small
 * functions on purpose: JSC's optimizing compiler (FTL) compiles a function whole with the tree-sitter
 * getters inlined, and the single 300-line extract this was took 3-8 s of compile time per thread on
 * go-src (BUN_JSC_reportFTLCompileTimes=1), more than the optimized code ever saved.
 */
interface GoState {
  src: string;
  /**
   * The tree has no ERROR or MISSING node: every identifier then starts where a run of identifier
   * characters starts (a number, string or keyword never runs into one), which the value reads' text
   * checks rely on (`mayNameAnyValue`, `readElement`). Otherwise they ask the tree as before.
   */
  errorFree: boolean;
  /** The package-level values' names as mayNameAnyValue's bit table (set when the uses are read). */
  valueShapes: Uint32Array;
  pkg: string | undefined;
  types: TypeFact[];
  functions: FunctionFact[];
  variables: VariableFact[];
  imports: ImportFact[];
  references: ReferenceFact[];
  /** ids of declaration-name nodes and embeddings (not type uses) */
  typeNameNodes: Set<number>;
  importAliases: Set<string>;
  /** per function: receiver and parameter names -> their named type, for qualifierType */
  typedNames: Map<FunctionFact, Map<string, string>>;
  /** qualified_type nodes recorded as inherit */
  embedded: Set<number>;
  /** function name -> the named type it returns */
  resultTypes: Map<string, string>;
}

const NO_SHAPES = new Uint32Array(0);

function newState(src: string, errorFree: boolean): GoState {
  return {
    src,
    errorFree,
    valueShapes: NO_SHAPES,
    pkg: undefined,
    types: [],
    functions: [],
    variables: [],
    imports: [],
    references: [],
    typeNameNodes: new Set(),
    importAliases: new Set(),
    typedNames: new Map(),
    embedded: new Set(),
    resultTypes: new Map(),
  };
}

function importDeclaration(decl: Node, st: GoState, project: ExtractContext["project"]): void {
  for (const spec of decl.descendantsOfType("import_spec")) {
    if (!spec) continue;
    const pathNode = spec.childForFieldName("path");
    if (!pathNode) continue;
    const path = unquote(pathNode.text);
    const nameNode = spec.childForFieldName("name");
    const alias = nameNode?.text;
    const local = alias && alias !== "_" && alias !== "." ? alias : path.slice(path.lastIndexOf("/") + 1);
    st.importAliases.add(local);
    const fact: ImportFact = { module: path, ...classifyImport(path, project), symbols: [], ...at(spec) };
    if (alias) fact.alias = alias;
    st.imports.push(fact);
    // the reference sits where the local name is written: the alias, or the last path segment
    if (nameNode && alias !== "_" && alias !== ".") st.references.push({ name: local, kind: "import", ...at(nameNode) });
    else if (!nameNode) {
      const p = at(pathNode);
      st.references.push({ name: local, kind: "import", line: p.line, column: p.column + 1 + path.lastIndexOf("/") + 1 });
    }
  }
}

function functionDeclaration(decl: Node, st: GoState): void {
  const nameNode = decl.childForFieldName("name");
  if (!nameNode) return;
  const name = nameNode.text;
  const body = decl.childForFieldName("body");
  const receiverList = decl.childForFieldName("receiver");
  let receiverType: string | undefined;
  if (receiverList) {
    const p = receiverList.namedChildren.find((c) => c?.type === "parameter_declaration");
    const t = p?.childForFieldName("type");
    if (t) receiverType = compactText(t);
  }
  const owner = receiverType ? baseTypeName(receiverType) : undefined;
  const fact: FunctionFact = {
    name,
    qualifiedName: qualify(st.pkg, owner, name),
    startLine: line(decl),
    endLine: endLine(decl),
    startColumn: column(decl),
    exported: isExported(name),
    isMethod: decl.type === "method_declaration",
    paramCount: countParams(decl.childForFieldName("parameters")),
    returnCount: countParams(decl.childForFieldName("result")),
    bodyLines: spanLines(body),
    complexity: 1,
    signature: signatureOf(st.src, decl, body),
  };
  if (receiverType) fact.receiverType = receiverType;
  const doc = docStartLine(decl, isComment);
  if (doc !== undefined) fact.docStartLine = doc;
  st.functions.push(fact);
  const typed = new Map<string, string>();
  for (const list of [receiverList, decl.childForFieldName("parameters")]) {
    for (const p of list?.namedChildren ?? []) {
      if (p?.type !== "parameter_declaration") continue;
      const t = namedTypeOf(p.childForFieldName("type"));
      if (!t) continue;
      for (const n of p.childrenForFieldName("name")) if (n && n.text !== "_") typed.set(n.text, t);
    }
  }
  if (typed.size) st.typedNames.set(fact, typed);
  if (!receiverList) {
    const result = namedTypeOf(decl.childForFieldName("result"));
    if (result) st.resultTypes.set(name, result);
  }
}

function typeDeclaration(decl: Node, st: GoState): void {
  for (const spec of decl.namedChildren) {
    if (!spec || (spec.type !== "type_spec" && spec.type !== "type_alias")) continue;
    const nameNode = spec.childForFieldName("name");
    const typeNode = spec.childForFieldName("type");
    if (!nameNode) continue;
    st.typeNameNodes.add(nameNode.id);
    const name = nameNode.text;
    let kind: TypeFact["kind"] = "type_alias";
    let fieldCount = 0;
    let methodCount = 0;
    if (spec.type === "type_spec" && typeNode?.type === "struct_type") {
      kind = "struct";
      for (const f of typeNode.descendantsOfType("field_declaration")) {
        if (!f) continue;
        const names = f.childrenForFieldName("name").filter((c) => c !== null);
        fieldCount += Math.max(1, names.length);
        if (names.length === 0) {
          let t = f.childForFieldName("type");
          if (t?.type === "pointer_type") t = t.namedChildren[0] ?? null;
          if (t?.type === "generic_type") t = t.childForFieldName("type");
          if (t?.type === "qualified_type") {
            const q = t.childForFieldName("package");
            const n = t.childForFieldName("name");
            st.embedded.add(t.id);
            if (n) st.references.push({ name: n.text, ...(q ? { qualifier: q.text } : {}), kind: "inherit", ...at(n) });
          } else if (t?.type === "type_identifier") {
            st.typeNameNodes.add(t.id);
            st.references.push({ name: t.text, kind: "inherit", ...at(t) });
          }
        }
      }
    } else if (spec.type === "type_spec" && typeNode?.type === "interface_type") {
      kind = "interface";
      for (const c of typeNode.namedChildren) {
        if (!c) continue;
        if (c.type === "method_elem") {
          methodCount++;
          const m = c.childForFieldName("name");
          if (!m) continue;
          st.functions.push({
            name: m.text,
            qualifiedName: qualify(st.pkg, name, m.text),
            startLine: line(c),
            endLine: endLine(c),
            startColumn: column(c),
            exported: isExported(m.text) && isExported(name),
            isMethod: true,
            receiverType: name,
            paramCount: countParams(c.childForFieldName("parameters")),
            returnCount: countParams(c.childForFieldName("result")),
            bodyLines: 0,
            complexity: 1,
            signature: signatureOf(st.src, c, null),
          });
        } else if (c.type === "type_elem") {
          for (const t of c.namedChildren) {
            if (t?.type === "type_identifier") {
              st.typeNameNodes.add(t.id);
              st.references.push({ name: t.text, kind: "inherit", ...at(t) });
            } else if (t?.type === "qualified_type") {
              const q = t.childForFieldName("package");
              const n = t.childForFieldName("name");
              st.embedded.add(t.id);
              if (n) st.references.push({ name: n.text, ...(q ? { qualifier: q.text } : {}), kind: "inherit", ...at(n) });
            }
          }
        }
      }
    }
    const fact: TypeFact = {
      name,
      qualifiedName: qualify(st.pkg, name),
      kind,
      startLine: line(spec),
      endLine: endLine(spec),
      startColumn: column(spec),
      exported: isExported(name),
      fieldCount,
      methodCount,
    };
    const doc = docStartLine(decl.namedChildren.length === 1 ? decl : spec, isComment);
    if (doc !== undefined) fact.docStartLine = doc;
    st.types.push(fact);
  }
}

/**
 * The const_spec or var_spec nodes inside each top-level declaration, from the query's captures (in
 * document order) rather than `descendantsOfType`, which walked each declaration's whole subtree a second
 * time: the large generated tables of go-src are var blocks (0.8 s of 25 s of parse-tier CPU).
 * Declarations are asked for in document order, so one position moves forward through the list.
 */
class SpecsInside {
  private next = 0;
  constructor(private readonly specs: Node[]) {}

  /** Every spec starting inside `decl` (its descendants, nested ones included, as descendantsOfType gave). */
  of(decl: Node): Node[] {
    const specs = this.specs;
    const start = decl.startIndex;
    while (this.next < specs.length && specs[this.next]!.startIndex < start) this.next++;
    if (this.next >= specs.length) return [];
    const end = decl.endIndex;
    const from = this.next;
    while (this.next < specs.length && specs[this.next]!.startIndex < end) this.next++;
    return specs.slice(from, this.next);
  }
}

function valueDeclaration(kind: "constant" | "variable", specs: Node[], st: GoState): void {
  for (const spec of specs) {
    for (const n of spec.childrenForFieldName("name")) {
      if (n?.type !== "identifier" || n.text === "_") continue;
      st.variables.push({
        name: n.text,
        qualifiedName: qualify(st.pkg, n.text),
        kind,
        startLine: line(spec),
        endLine: endLine(spec),
        startColumn: column(n),
        exported: isExported(n.text),
      });
    }
  }
}

/** Methods declared in this file count toward their receiver type. */
function countMethods(st: GoState): void {
  const byName = new Map(st.types.map((t) => [t.name, t]));
  for (const f of st.functions) {
    if (!f.receiverType) continue;
    const t = byName.get(baseTypeName(f.receiverType));
    if (t && t.kind !== "interface") t.methodCount++;
  }
}

/** The query's matches sorted by capture, for the steps that read them. */
interface GoUses {
  decisions: Node[];
  calls: Node[];
  qualifieds: Node[];
  bares: Node[];
  selectors: Node[];
  /**
   * The matches whose identifiers are read as values, in match order: expression lists (`values`: their
   * items), the query's literal-element identifiers (`value`) or collect's literal elements (`element`).
   */
  valueLists: QueryMatch[];
  locals: Node[];
  /** var_spec and const_spec nodes anywhere, in document order. */
  varSpecs: Node[];
  constSpecs: Node[];
}

function sortMatches(matches: QueryMatch[]): GoUses {
  const u: GoUses = { decisions: [], calls: [], qualifieds: [], bares: [], selectors: [], valueLists: [], locals: [], varSpecs: [], constSpecs: [] };
  for (const m of matches) {
    if (m.decision) u.decisions.push(m.decision);
    else if (m.call) u.calls.push(m.call);
    else if (m.qualified) u.qualifieds.push(m.qualified);
    else if (m["type.bare"]) u.bares.push(m["type.bare"]);
    else if (m.selector) u.selectors.push(m.selector);
    else if (m.values || m.value || m.element) u.valueLists.push(m);
    else if (m.local) u.locals.push(m.local);
    else if (m["local.var"]) {
      u.locals.push(m["local.var"]);
      u.varSpecs.push(m["local.var"]);
    } else if (m.const) u.constSpecs.push(m.const);
  }
  return u;
}

/** References from the query's matches: calls, type uses, reads of package-level values. */
function usesFromMatches(u: GoUses, st: GoState): void {
  const topLevelValues = new Set<string>([...st.variables.map((v) => v.name), ...st.functions.filter((f) => !f.isMethod).map((f) => f.name)]);
  st.valueShapes = nameShapes(topLevelValues);
  const callFunctions = callReferences(u.calls, st, topLevelValues);
  typeReferences(u.qualifieds, u.bares, st);
  packageReads(u.selectors, callFunctions, st);
  if (topLevelValues.size === 0) return;
  for (const m of u.valueLists) {
    if (m.value) readValue(m.value, topLevelValues, st);
    else if (m.element) readElement(m.element, topLevelValues, st);
    else if (m.values) readItems(m.values, topLevelValues, st);
  }
}

/**
 * The values read among an expression list's items, the text asked first: when no identifier run of the
 * list's text names a value (`mayNameAnyValue`), no item can, and the list's children (an array and a
 * Node each, for 0.84 million expression lists on go-src) are never asked for. A call's arguments are
 * checked the same way (callReferences).
 */
function readItems(list: Node, topLevelValues: Set<string>, st: GoState): void {
  if (st.errorFree && !mayNameAnyValue(st.src, list.startIndex, list.endIndex, topLevelValues, st.valueShapes)) return;
  for (const c of list.namedChildren) if (c) readValue(c, topLevelValues, st);
}

/**
 * A literal element's identifier child read as a value. In a tree without errors the element holds one
 * named child, starting where the element starts (an extra leading it would start with `/`, left to the
 * tree), so the text there rules out the read as it would for the child: a run of identifier
 * characters that is no value's name, or no run at all (`{…}`, a string, an operator).
 */
function readElement(element: Node, topLevelValues: Set<string>, st: GoState): void {
  const start = element.startIndex;
  if (st.errorFree && st.src.charCodeAt(start) !== 0x2f && !mayNameValue(st.src, start, topLevelValues)) return;
  for (const c of elementIdentifiers(element)) readValue(c, topLevelValues, st);
}

function readValue(ident: Node, topLevelValues: Set<string>, st: GoState): void {
  if (!mayNameValue(st.src, ident.startIndex, topLevelValues)) return;
  if (ident.type !== "identifier") return;
  const name = textOf(st.src, ident);
  if (topLevelValues.has(name)) st.references.push(refAt(name, "read", ident));
}

/** An ASCII character of Go identifiers (letters, digits, `_`). */
function isAsciiIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Whether a node starting at `start` can be an identifier naming one of `values` (package-level values,
 * import names), read from the text
 * alone: an identifier is the longest run of identifier characters there (the grammar's token is
 * greedy), so an ASCII run that is no value's name rules it out without asking the tree for the node's
 * type and text (two calls into WASM per value read, on millions of expression list items and
 * arguments in go-src). A run ended by a non-ASCII character, or an empty name among the values (a
 * name the parser had to invent), leaves the question to the tree.
 */
function mayNameValue(src: string, start: number, values: ReadonlySet<string>): boolean {
  let end = start;
  while (end < src.length && isAsciiIdentifierChar(src.charCodeAt(end))) end++;
  if (end < src.length && src.charCodeAt(end) >= 0x80) return true;
  return values.has(src.slice(start, end)) || values.has("");
}

/** Longest list text `mayNameAnyValue` scans; a longer list asks the tree (nested lists would scan their text again at every level). */
const LIST_SCAN_LIMIT = 4096;

/**
 * Whether an identifier in src[start, end) can name one of `values`, in a tree without errors (where an
 * identifier starts where a run of identifier characters starts and is that whole run): true when a run
 * starting with a letter or `_` is a value's name, and, leaving the question to the tree, when the text
 * is longer than LIST_SCAN_LIMIT, holds a character beyond ASCII, or an empty name is among the values.
 */
function mayNameAnyValue(src: string, start: number, end: number, values: ReadonlySet<string>, bits: Uint32Array): boolean {
  if (end - start > LIST_SCAN_LIMIT || values.has("")) return true;
  let i = start;
  while (i < end) {
    const c = src.charCodeAt(i);
    if (c >= 0x80) return true;
    if (!isAsciiIdentifierChar(c)) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < end && isAsciiIdentifierChar(src.charCodeAt(i))) i++;
    // a run that does not start with a digit is an identifier or a keyword (or a string's or comment's word);
    // its name is cut out of the text only when the names' bit table holds its shape
    if (c >= 48 && c <= 57) continue;
    const h = nameShape(c, src.charCodeAt(i - 1), i - runStart);
    if ((bits[h >>> 5]! & (1 << (h & 31))) !== 0 && values.has(src.slice(runStart, i))) return true;
  }
  return false;
}

/** A name's shape (first and last character codes and length) as a bit of NAME_BITS. */
const nameShape = (first: number, last: number, length: number): number => (first * 31 + last * 7 + length) & (NAME_BITS - 1);
const NAME_BITS = 4096;

/** The bit table of the names' shapes, for mayNameAnyValue (a name beyond ASCII can only be in a text the scan leaves to the tree). */
function nameShapes(values: ReadonlySet<string>): Uint32Array {
  const bits = new Uint32Array(NAME_BITS / 32);
  for (const v of values) {
    if (v.length === 0) continue;
    const h = nameShape(v.charCodeAt(0), v.charCodeAt(v.length - 1), v.length);
    bits[h >>> 5]! |= 1 << (h & 31);
  }
  return bits;
}

/** Calls: the function and the arguments are read from the call node, not matched by the query. Returns the called nodes' ids. */
function callReferences(calls: Node[], st: GoState, topLevelValues: Set<string>): Set<number> {
  const callFunctions = new Set<number>();
  for (const call of calls) {
    const callee = call.childForFieldName("function");
    let fn = callee;
    if (fn?.type === "index_expression") fn = fn.childForFieldName("operand"); // f[T](x)
    if (fn?.type === "identifier") {
      callFunctions.add(fn.id);
      st.references.push(refAt(textOf(st.src, fn), "call", fn));
    } else if (fn?.type === "selector_expression") {
      callFunctions.add(fn.id);
      const field = fn.childForFieldName("field");
      const operand = fn.childForFieldName("operand");
      if (field) st.references.push(refAt(textOf(st.src, field), "call", field, operand ? boundedText(st.src, operand) : undefined));
    }
    if (topLevelValues.size > 0) {
      // the text after the function (type arguments, then the arguments) checked first
      if (st.errorFree && callee && !mayNameAnyValue(st.src, callee.endIndex, call.endIndex, topLevelValues, st.valueShapes)) continue;
      for (const a of call.childForFieldName("arguments")?.namedChildren ?? []) if (a) readValue(a, topLevelValues, st);
    }
  }
  return callFunctions;
}

function typeReferences(qualifieds: Node[], bares: Node[], st: GoState): void {
  for (const q of qualifieds) {
    const name = q.childForFieldName("name");
    if (!name) continue;
    st.typeNameNodes.add(name.id);
    if (st.embedded.has(q.id)) continue; // recorded as "inherit"
    const pkgNode = q.childForFieldName("package");
    st.references.push(refAt(textOf(st.src, name), "type", name, pkgNode ? textOf(st.src, pkgNode) : undefined));
  }
  for (const bare of bares) {
    if (st.typeNameNodes.has(bare.id)) continue;
    const name = textOf(st.src, bare);
    if (!BUILTIN_TYPES.has(name)) st.references.push(refAt(name, "type", bare));
  }
}

/** Reads through imported packages (`http.StatusOK`); calls were taken before. */
function packageReads(selectors: Node[], callFunctions: Set<number>, st: GoState): void {
  for (const sel of selectors) {
    // the operand starts the selector: an identifier there naming no import rules the selector out
    if (callFunctions.has(sel.id) || !mayNameValue(st.src, sel.startIndex, st.importAliases)) continue;
    const q = sel.childForFieldName("operand");
    const field = sel.childForFieldName("field");
    if (q?.type !== "identifier" || !field) continue;
    const qualifier = textOf(st.src, q);
    if (st.importAliases.has(qualifier)) st.references.push(refAt(textOf(st.src, field), "read", field, qualifier));
  }
}

function localTypes(locals: Node[], st: GoState): void {
  // Local variables whose type the syntax shows: `var x T`, `x := T{…}` / `&T{…}`, `x := NewT()` where
  // NewT is a function of this file declared to return a named type.
  if (locals.length > 0 && st.functions.length > 0) {
    const index = new SpanIndex(st.functions);
    for (const decl of locals) {
      const p = decl.startPosition;
      const f = index.find(p.row + 1, p.column + 1);
      if (!f || (f.isMethod && f.bodyLines === 0)) continue;
      let typed = st.typedNames.get(f);
      const set = (n: Node | null | undefined, t: string | undefined) => {
        if (n?.type !== "identifier" || !t || n.text === "_") return;
        if (!typed) st.typedNames.set(f, (typed = new Map()));
        typed.set(n.text, t);
      };
      if (decl.type === "var_spec") {
        const t = namedTypeOf(decl.childForFieldName("type"));
        for (const n of decl.childrenForFieldName("name")) set(n, t);
        continue;
      }
      const left = decl.childForFieldName("left")?.namedChildren ?? [];
      const right = decl.childForFieldName("right")?.namedChildren ?? [];
      if (left.length !== right.length) continue;
      left.forEach((n, i) => set(n, valueType(right[i] ?? null, st.resultTypes)));
    }
  }
}

/** A reference through a typed receiver, parameter or local carries that type (qualifierType). */
function qualifierTypes(st: GoState): void {
  if (st.typedNames.size > 0) {
    const byQname = new Map<string, Map<string, string>>();
    for (const [f, typed] of st.typedNames) if (!byQname.has(f.qualifiedName)) byQname.set(f.qualifiedName, typed);
    for (const r of st.references) {
      if (!r.qualifier || !r.enclosing) continue;
      const t = byQname.get(r.enclosing)?.get(r.qualifier);
      if (t) r.qualifierType = t;
    }
  }
}
