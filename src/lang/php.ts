/**
 * PHP: namespaces, classes, interfaces, traits and enums, functions and methods, constants (`const`,
 * `define()`, class constants, enum cases) and top-level variables, `use` imports classified against PHP's
 * own classes and the project's composer autoload namespaces, require / include, and references (calls,
 * `new`, type declarations, extends as inherit, implements and trait `use` as implement, imported names).
 *
 * The rules this module decides:
 * - Qualified names join the namespace and the class with dots (`App.Http.Controller.index`), as every
 *   language does here; the file's namespace as declared (`App\Http`) is its package name.
 * - exported: methods, properties and class constants by visibility (public, or no modifier); classes,
 *   functions and namespace constants are always reachable, so exported; top-level `$variables` are not
 *   (a function sees them only through `global`).
 * - fieldCount: declared properties, constructor-promoted properties and enum cases.
 * - returnCount: 0 for `void` / `never`, 1 for any other declared type; without one, 1 when a `return`
 *   of the function itself (closures apart) gives a value, else 0.
 * - complexity: 1 + if, elseif, while, do, for, foreach, case (not default), catch, ternaries (`?:` too),
 *   match arms other than default, && || and or ?? ??=.
 * - Imports: one per imported name (group uses are expanded): the full name without the leading
 *   backslash, with its alias. A name in the global namespace is standard when PHP declares it (a global
 *   function or constant always is); names under a composer autoload prefix of the project (or the
 *   file's own top-level namespace) are internal; other namespaces are vendor packages, external.
 *   require / include with a literal path are relative imports.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_CLASS, arrowReturn, phpField, plainAssignedLocal, typeBeforeParameter, type ResolutionRules } from "./resolution.ts";
import type { ProjectInfo } from "./project.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, TypeKind, VariableFact } from "./types.ts";
import { SpanIndex, at, assignEnclosing, attributeComplexity, column, docStartLine, endLine, line, qualify, spanLines } from "./kit.ts";
import { boundedText } from "./source-text.ts";
import { PHP_BUILTIN_CLASSES, PHP_BUILTIN_NAMESPACES } from "./php-builtins.ts";
import { dirOf, joinInside } from "../core/rel-path.ts";

const QUERY = `
(comment) @comment
[(if_statement) (else_if_clause) (while_statement) (do_statement) (for_statement) (foreach_statement) (case_statement)
 (catch_clause) (conditional_expression) (match_conditional_expression)] @decision
["&&" "||" "and" "or" "??" "??="] @decision
[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration)] @type
[(function_definition) (method_declaration)] @function
(namespace_definition) @namespace
(namespace_use_declaration) @use
(const_declaration) @const
[(include_expression) (include_once_expression) (require_expression) (require_once_expression)] @include
(return_statement) @return
(function_call_expression function: (_) @call.function)
[(member_call_expression) (nullsafe_member_call_expression)] @call.member
(scoped_call_expression) @call.scoped
(object_creation_expression [(name) (qualified_name)] @new)
(named_type [(name) (qualified_name)] @type.ref)
(class_constant_access_expression . [(name) (qualified_name)] @type.ref)
"instanceof" @instanceof
(program (expression_statement (assignment_expression left: (variable_name) @global)))
(namespace_definition body: (compound_statement (expression_statement (assignment_expression left: (variable_name) @global))))
`;

const TYPE_KINDS: Record<string, TypeKind> = {
  class_declaration: "class",
  interface_declaration: "interface",
  trait_declaration: "trait",
  enum_declaration: "enum",
};

/** Names that stand for the class at hand, not a reference to another type. */
const RELATIVE_CLASS_NAMES = new Set(["self", "static", "parent"]);

const isComment = (n: Node): boolean => n.type === "comment";

/** `\App\Models\User` → { name: "User", namespace: "App\Models" }. */
function splitName(text: string): { name: string; namespace?: string } {
  const t = text.replace(/\s+/g, "").replace(/^\\/, "");
  const i = t.lastIndexOf("\\");
  return i < 0 ? { name: t } : { name: t.slice(i + 1), namespace: t.slice(0, i) };
}

function visibilityOf(decl: Node): string {
  for (const c of decl.namedChildren) if (c?.type === "visibility_modifier") return c.text.toLowerCase();
  return "public";
}

/** The text of a literal string (single- or double-quoted without interpolation). */
function literal(n: Node | null): string | undefined {
  if (!n || (n.type !== "string" && n.type !== "encapsed_string")) return undefined;
  let out = "";
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === "string_content" || c.type === "escape_sequence") out += c.text;
    else return undefined; // interpolation
  }
  return out;
}

type ImportClass = Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative">;
const INTERNAL: ImportClass = { isStandardLib: false, isExternal: false, isRelative: false };
const STD: ImportClass = { isStandardLib: true, isExternal: false, isRelative: false };
const EXTERNAL: ImportClass = { isStandardLib: false, isExternal: true, isRelative: false };

/** Classifies a `use` of a fully qualified name (see the header for the rule). */
export function classifyPhpUse(name: string, kind: "class" | "function" | "const", fileNamespace: string | undefined, project: ProjectInfo): ImportClass {
  const segs = name.split("\\");
  if (segs.length === 1) {
    if (kind !== "class" || PHP_BUILTIN_CLASSES.has(name.toLowerCase())) return STD;
    return EXTERNAL;
  }
  if (PHP_BUILTIN_NAMESPACES.has(segs[0]!.toLowerCase())) return STD;
  for (const ns of project.phpNamespaces ?? []) {
    if (ns.prefix !== "" && (name === ns.prefix || name.startsWith(ns.prefix + "\\"))) return INTERNAL;
  }
  if (fileNamespace && segs[0] === fileNamespace.split("\\")[0]) return INTERNAL;
  return EXTERNAL;
}

/** The signature of a function or method: from its first keyword (attributes left out) to its body. */
function phpSignature(src: string, decl: Node, body: Node | null): string {
  const attrs = decl.childForFieldName("attributes");
  const start = attrs ? attrs.endIndex : decl.startIndex;
  const end = body ? body.startIndex : decl.endIndex;
  const text = src.slice(start, end).replace(/\s+/g, " ").trim().replace(/;$/, "").trim();
  return text.length > 400 ? text.slice(0, 399) + "…" : text;
}

/** The function a `return` belongs to: undefined when a closure or arrow function comes first. */
function returnsFromNamed(ret: Node): boolean {
  for (let p = ret.parent; p; p = p.parent) {
    if (p.type === "function_definition" || p.type === "method_declaration") return true;
    if (p.type === "anonymous_function" || p.type === "arrow_function") return false;
  }
  return false;
}

interface TypeInfo {
  name: string;
  qname: string;
  fact: TypeFact;
}

/** PHP: `include` / `require` of a path loads a file; `use` binds names; typed parameters and properties. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "php",
  selfQualifiers: ["$this", "self", "static"],
  superQualifiers: ["parent"],
  includes: "relative",
  types: { parameter: typeBeforeParameter, local: plainAssignedLocal, field: phpField, returnType: arrowReturn },
  testNames: [TEST_CLASS],
};

export const php: LanguageModule = {
  id: "php",
  extensions: [".php"],
  grammar: "tree-sitter-php.wasm",
  resolution: RULES,
  query: QUERY,

  isTestFile(path) {
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (/Test\.php$/.test(base)) return true;
    return /(^|\/)tests?\//i.test(path);
  },

  extract(_tree, ctx, matches): Extracted {
    const uses = sortMatches(matches);
    const st = newState(ctx.source, uses.namespaces);
    for (const node of uses.typeNodes) typeDeclaration(node, st);
    for (const node of uses.fnNodes) functionDeclaration(node, st);
    valueReturns(uses.returns, st);
    topLevelVariables(uses.globals, st);
    for (const decl of uses.uses) useDeclaration(decl, st, ctx.project);
    for (const inc of uses.includes) includeExpression(inc, st);
    for (const m of uses.refs) referenceMatch(m, st);
    for (const node of uses.constDecls) namespaceConstants(node, st);
    attributeComplexity(st.functions, uses.decisions);
    st.variables.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn);
    assignEnclosing(st.references, st.functions, st.types, st.variables);
    const out: Extracted = { types: st.types, functions: st.functions, variables: st.variables, imports: st.imports, references: st.references };
    if (st.fileNamespace) out.packageName = st.fileNamespace;
    return out;
  },

  resolveImport(imp, fromPath, files): string[] {
    if (imp.isRelative) {
      const dir = dirOf(fromPath);
      const m = /^(?:__DIR__|dirname\(__FILE__\))\s*\.\s*(['"])(.*)\1$/.exec(imp.module);
      const candidates = m ? [joinInside(dir, m[2]!.replace(/^\/+/, ""))] : [joinInside(dir, imp.module), joinInside("", imp.module)];
      for (const c of candidates) if (c !== undefined && files.has(c)) return [c];
      return [];
    }
    if (imp.isStandardLib || imp.isExternal) return [];
    const name = imp.module;
    const spaces = [...(files.project.phpNamespaces ?? [])].sort((a, b) => b.prefix.length - a.prefix.length);
    for (const ns of spaces) {
      if (ns.prefix !== "" && name !== ns.prefix && !name.startsWith(ns.prefix + "\\")) continue;
      let rel: string;
      if (ns.psr0) {
        const i = name.lastIndexOf("\\");
        rel = (i < 0 ? "" : name.slice(0, i + 1).replace(/\\/g, "/")) + name.slice(i + 1).replace(/_/g, "/");
      } else rel = (ns.prefix ? name.slice(ns.prefix.length + 1) : name).replace(/\\/g, "/");
      for (const d of ns.dirs) {
        const target = joinInside(d, rel + ".php");
        if (target !== undefined && files.has(target)) return [target];
      }
    }
    return [];
  },
};

/** What extraction collects over one file, shared by the steps below (one function per kind of declaration, as in go.ts). */
interface PhpState {
  src: string;
  types: TypeFact[];
  functions: FunctionFact[];
  variables: VariableFact[];
  imports: ImportFact[];
  references: ReferenceFact[];
  /** namespace declarations by position, first to last */
  namespaces: Array<{ start: number; name: string }>;
  /** the first named namespace the file declares: its package name */
  fileNamespace: string | undefined;
  /** type declaration node id -> the type */
  typeInfos: Map<number, TypeInfo>;
  /** per function: whether it declares a return type, and whether a `return` of its own gives a value */
  returnInfo: Map<FunctionFact, { declared: boolean; value: boolean }>;
  /** names of the `define()` constants recorded */
  seenConstants: Set<string>;
}

function newState(src: string, namespaces: PhpState["namespaces"]): PhpState {
  namespaces.sort((a, b) => a.start - b.start);
  return {
    src,
    types: [],
    functions: [],
    variables: [],
    imports: [],
    references: [],
    namespaces,
    fileNamespace: namespaces.find((n) => n.name !== "")?.name,
    typeInfos: new Map(),
    returnInfo: new Map(),
    seenConstants: new Set(),
  };
}

/** The namespace in force at a position: the last declaration before it, with dots (`App.Http`). */
function namespaceAt(index: number, st: PhpState): string {
  let ns = "";
  for (const n of st.namespaces) {
    if (n.start > index) break;
    ns = n.name;
  }
  return ns.replace(/\\/g, ".");
}

/** The query's matches sorted by capture, for the steps that read them. */
interface PhpUses {
  decisions: Node[];
  typeNodes: Node[];
  fnNodes: Node[];
  namespaces: Array<{ start: number; name: string }>;
  uses: Node[];
  includes: Node[];
  returns: Node[];
  globals: Node[];
  constDecls: Node[];
  /** calls, instantiations and type uses */
  refs: QueryMatch[];
}

function sortMatches(matches: QueryMatch[]): PhpUses {
  const u: PhpUses = { decisions: [], typeNodes: [], fnNodes: [], namespaces: [], uses: [], includes: [], returns: [], globals: [], constDecls: [], refs: [] };
  for (const m of matches) {
    if (m.decision) u.decisions.push(m.decision);
    else if (m.type) u.typeNodes.push(m.type);
    else if (m.function) u.fnNodes.push(m.function);
    else if (m.namespace) u.namespaces.push({ start: m.namespace.startIndex, name: m.namespace.childForFieldName("name")?.text.replace(/\s+/g, "") ?? "" });
    else if (m.use) u.uses.push(m.use);
    else if (m.include) u.includes.push(m.include);
    else if (m.return) u.returns.push(m.return);
    else if (m.global) u.globals.push(m.global);
    else if (m.const) u.constDecls.push(m.const);
    else u.refs.push(m);
  }
  return u;
}

/** A reference to a written class name (`Foo`, `\App\Foo`), at its last segment. */
function nameReference(n: Node, kind: ReferenceFact["kind"], st: PhpState): void {
  const s = splitName(n.text);
  const nameAt = n.type === "qualified_name" ? (n.lastNamedChild ?? n) : n;
  st.references.push({ name: s.name, ...(s.namespace ? { qualifier: s.namespace } : {}), kind, ...at(nameAt) });
}

/** A type, with its members' counts, constants and the types it extends or implements. */
function typeDeclaration(node: Node, st: PhpState): void {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return;
  const name = nameNode.text;
  const kind = TYPE_KINDS[node.type] ?? "class";
  const qname = qualify(namespaceAt(node.startIndex, st), name);
  const fact: TypeFact = {
    name,
    qualifiedName: qname,
    kind,
    startLine: line(node),
    endLine: endLine(node),
    startColumn: column(node),
    exported: true,
    fieldCount: 0,
    methodCount: 0,
  };
  const doc = docStartLine(node, isComment);
  if (doc !== undefined) fact.docStartLine = doc;
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === "base_clause" || c.type === "class_interface_clause") {
      // a class extends a class (inherit); an interface extends interfaces (inherit); implements → implement
      const refKind = c.type === "base_clause" ? "inherit" : "implement";
      for (const b of c.namedChildren) if (b && (b.type === "name" || b.type === "qualified_name")) nameReference(b, refKind, st);
    }
  }
  for (const member of node.childForFieldName("body")?.namedChildren ?? []) if (member) typeMember(member, fact, st);
  st.types.push(fact);
  st.typeInfos.set(node.id, { name, qname, fact });
}

/** One member of a type body: properties, enum cases, class constants, trait uses, methods (counted here, read as functions). */
function typeMember(member: Node, fact: TypeFact, st: PhpState): void {
  switch (member.type) {
    case "property_declaration":
      for (const p of member.namedChildren) if (p?.type === "property_element") fact.fieldCount++;
      break;
    case "enum_case": {
      fact.fieldCount++;
      const caseName = member.childForFieldName("name");
      if (caseName) {
        st.variables.push({
          name: caseName.text,
          qualifiedName: qualify(fact.qualifiedName, caseName.text),
          kind: "enum_member",
          startLine: line(member),
          endLine: endLine(member),
          startColumn: column(caseName),
          exported: true,
          container: fact.name,
        });
      }
      break;
    }
    case "const_declaration": {
      const exported = visibilityOf(member) === "public";
      for (const el of member.namedChildren) {
        if (el?.type !== "const_element") continue;
        const constName = el.namedChildren.find((c) => c?.type === "name");
        if (!constName) continue;
        st.variables.push({
          name: constName.text,
          qualifiedName: qualify(fact.qualifiedName, constName.text),
          kind: "constant",
          startLine: line(member),
          endLine: endLine(member),
          startColumn: column(constName),
          exported,
          container: fact.name,
        });
      }
      break;
    }
    case "use_declaration":
      for (const t of member.namedChildren) if (t && (t.type === "name" || t.type === "qualified_name")) nameReference(t, "implement", st);
      break;
    case "method_declaration":
      fact.methodCount++;
      if (member.childForFieldName("name")?.text.toLowerCase() === "__construct") {
        for (const p of member.childForFieldName("parameters")?.namedChildren ?? []) if (p?.type === "property_promotion_parameter") fact.fieldCount++;
      }
      break;
  }
}

/** A function or method. */
function functionDeclaration(node: Node, st: PhpState): void {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return;
  const name = nameNode.text;
  const isMethod = node.type === "method_declaration";
  const ownerNode = isMethod ? node.parent?.parent : null;
  const owner = ownerNode ? st.typeInfos.get(ownerNode.id) : undefined;
  const ownerName = owner?.name ?? (isMethod ? "class@anonymous" : undefined);
  const ownerQname = owner?.qname ?? (isMethod ? qualify(namespaceAt(node.startIndex, st), "class@anonymous") : namespaceAt(node.startIndex, st));
  const body = node.childForFieldName("body");
  const returnType = node.childForFieldName("return_type");
  let paramCount = 0;
  for (const p of node.childForFieldName("parameters")?.namedChildren ?? []) {
    if (p && (p.type === "simple_parameter" || p.type === "variadic_parameter" || p.type === "property_promotion_parameter")) paramCount++;
  }
  const returnText = returnType?.text.replace(/\s+/g, "").toLowerCase();
  const fact: FunctionFact = {
    name,
    qualifiedName: qualify(ownerQname, name),
    startLine: line(node),
    endLine: endLine(node),
    startColumn: column(node),
    exported: !isMethod || (owner?.fact.kind === "interface" ? true : visibilityOf(node) === "public"),
    isMethod,
    paramCount,
    returnCount: returnType ? (returnText === "void" || returnText === "never" ? 0 : 1) : 0,
    bodyLines: spanLines(body),
    complexity: 1,
    signature: phpSignature(st.src, node, body),
  };
  if (isMethod && ownerName) fact.receiverType = ownerName;
  const doc = docStartLine(node, isComment);
  if (doc !== undefined) fact.docStartLine = doc;
  st.functions.push(fact);
  st.returnInfo.set(fact, { declared: !!returnType, value: false });
}

/** A function without a declared return type returns a value (1) when a `return` of its own gives one. */
function valueReturns(returns: Node[], st: PhpState): void {
  if (returns.length === 0) return;
  const index = new SpanIndex(st.functions);
  for (const r of returns) {
    if (!r.firstNamedChild || r.firstNamedChild.type === "comment") continue;
    const p = r.startPosition;
    const f = index.find(p.row + 1, p.column + 1);
    const info = f && st.returnInfo.get(f);
    if (info && !info.declared && returnsFromNamed(r)) info.value = true;
  }
  for (const [f, info] of st.returnInfo) if (!info.declared && info.value) f.returnCount = 1;
}

/** Top-level `$variables`, once per name. */
function topLevelVariables(globals: Node[], st: PhpState): void {
  const seenGlobals = new Set<string>();
  for (const c of globals) {
    const name = c.text.replace(/^\$/, "");
    if (seenGlobals.has(name)) continue;
    seenGlobals.add(name);
    const stmt = c.parent?.parent ?? c;
    st.variables.push({
      name,
      qualifiedName: qualify(namespaceAt(c.startIndex, st), name),
      kind: "variable",
      startLine: line(stmt),
      endLine: endLine(stmt),
      startColumn: column(c),
      exported: false,
    });
  }
}

/** A `use` declaration: one import per imported name, and the local names they bind. */
function useDeclaration(decl: Node, st: PhpState, project: ProjectInfo): void {
  let prefix = "";
  let declKind: "class" | "function" | "const" = "class";
  for (const c of decl.children) {
    if (!c) continue;
    if (c.type === "namespace_name") prefix = c.text.replace(/\s+/g, "").replace(/^\\/, "");
    else if (c.type === "function" || c.type === "const") declKind = c.type;
  }
  const group = decl.childForFieldName("body");
  const clauses = (group ?? decl).namedChildren.filter((c) => c?.type === "namespace_use_clause");
  for (const clause of clauses) {
    if (!clause) continue;
    const target = clause.namedChildren.find((c) => c?.type === "name" || c?.type === "qualified_name");
    if (!target) continue;
    const typeToken = clause.childForFieldName("type")?.type;
    const kind = typeToken === "function" || typeToken === "const" ? typeToken : declKind;
    const written = target.text.replace(/\s+/g, "").replace(/^\\/, "");
    const module = prefix ? `${prefix}\\${written}` : written;
    const aliasNode = clause.childForFieldName("alias");
    const fact: ImportFact = { module, ...classifyPhpUse(module, kind, st.fileNamespace, project), symbols: [], ...at(clause) };
    if (aliasNode) fact.alias = aliasNode.text;
    st.imports.push(fact);
    const local = aliasNode ?? (target.type === "qualified_name" ? target.lastNamedChild : target);
    if (local) st.references.push({ name: local.text, kind: "import", ...at(local) });
  }
}

/** require / include with a path written in the file. */
function includeExpression(inc: Node, st: PhpState): void {
  let arg = inc.firstNamedChild;
  while (arg?.type === "parenthesized_expression") arg = arg.firstNamedChild;
  if (!arg) return;
  let module = literal(arg);
  if (module === undefined && arg.type === "binary_expression") {
    const left = arg.childForFieldName("left");
    const right = arg.childForFieldName("right");
    const base = left?.text.replace(/\s+/g, "");
    if ((base === "__DIR__" || base === "dirname(__FILE__)") && literal(right) !== undefined) module = boundedText(st.src, arg, 400);
  }
  if (module === undefined || module === "") return;
  st.imports.push({ module, isStandardLib: false, isExternal: false, isRelative: true, symbols: [], ...at(inc) });
}

/** A type use, unless it names the class at hand (`self`, `static`, `parent`). */
function typeUse(n: Node, st: PhpState): void {
  const s = splitName(n.text);
  if (!s.namespace && RELATIVE_CLASS_NAMES.has(s.name.toLowerCase())) return;
  nameReference(n, "type", st);
}

/** Calls, instantiations, type uses, define() constants. */
function referenceMatch(m: QueryMatch, st: PhpState): void {
  const fn = m["call.function"];
  if (fn) {
    functionCall(fn, st);
    return;
  }
  const member = m["call.member"] ?? m["call.scoped"];
  if (member) {
    // Fields are read here rather than matched by the query: a pattern constraining a call's
    // children stays open through a whole `$a->b()->c()` chain, which made long chains quadratic.
    const callName = member.childForFieldName("name");
    const q = member.childForFieldName(m["call.member"] ? "object" : "scope");
    if (callName?.type === "name")
      st.references.push({ name: callName.text, ...(q ? { qualifier: boundedText(st.src, q) } : {}), kind: "call", ...at(callName) });
    return;
  }
  const created = m.new;
  if (created) {
    const s = splitName(created.text);
    if (!s.namespace && RELATIVE_CLASS_NAMES.has(s.name.toLowerCase())) return;
    nameReference(created, "call", st);
    return;
  }
  const typeRef = m["type.ref"];
  if (typeRef) {
    typeUse(typeRef, st);
    return;
  }
  const op = m.instanceof;
  if (op) {
    const right = op.nextNamedSibling;
    if (right && (right.type === "name" || right.type === "qualified_name")) typeUse(right, st);
  }
}

/** A call of a named function, or `define('NAME', …)`, which declares a constant. */
function functionCall(fn: Node, st: PhpState): void {
  if (fn.type !== "name" && fn.type !== "qualified_name") return; // `$f()` and other dynamic calls
  const s = splitName(fn.text);
  if (!s.namespace && s.name.toLowerCase() === "define") {
    const call = fn.parent;
    const first = call?.childForFieldName("arguments")?.firstNamedChild?.firstNamedChild ?? null;
    const constName = literal(first);
    if (constName && call && !st.seenConstants.has(constName)) {
      st.seenConstants.add(constName);
      st.variables.push({
        name: constName,
        qualifiedName: constName,
        kind: "constant",
        startLine: line(call),
        endLine: endLine(call),
        startColumn: column(call),
        exported: true,
      });
    }
    return;
  }
  nameReference(fn, "call", st);
}

/** Namespace-level `const` declarations (class constants were read with their class). */
function namespaceConstants(node: Node, st: PhpState): void {
  const holder = node.parent?.type;
  if (holder === "declaration_list" || holder === "enum_declaration_list") return;
  for (const el of node.namedChildren) {
    if (el?.type !== "const_element") continue;
    const constName = el.namedChildren.find((c) => c?.type === "name");
    if (!constName) continue;
    st.variables.push({
      name: constName.text,
      qualifiedName: qualify(namespaceAt(node.startIndex, st), constName.text),
      kind: "constant",
      startLine: line(node),
      endLine: endLine(node),
      startColumn: column(constName),
      exported: true,
    });
  }
}
