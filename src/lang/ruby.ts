/**
 * Ruby: classes and modules (nested, `class A::B`), `Struct.new` / `Data.define` types, methods (`def`,
 * `def self.x`, `class << self`), constants and globals, `require` family imports, and references (calls,
 * constants, `class A < B` as inherit, include / extend / prepend as implement).
 *
 * The rules this module decides:
 * - Qualified names join the lexical nesting with dots (`Shop.Cart.total`), as written in `class A::B`
 *   too; Ruby has no file-based package, so top-level methods are qualified by their name alone.
 * - exported follows visibility: `private` / `protected` sections, `private :name`, `private def x`,
 *   `private_class_method`, `private_constant` for constants and nested types. `initialize` (and the other
 *   methods Ruby makes private itself) and top-level methods (private methods of Object) are not exported.
 * - fieldCount: the names declared by attr_reader / attr_writer / attr_accessor plus the distinct instance
 *   variables assigned in `initialize`; a `Struct.new(:a, :b)` has its members (`Data.define` is a record).
 *   methodCount counts `def`s, instance and singleton.
 * - paramCount: every parameter, the block parameter `&blk` included (`**nil` declares none).
 * - returnCount: Ruby returns the last value, so 1 for a method with a body, except `initialize` and
 *   setters (`x=`), whose value the caller never sees, and empty methods (0); `return a, b` counts 2.
 * - complexity: 1 + if, elsif, unless, while, until, for, when, in (pattern arms), rescue, the modifier
 *   forms, ternaries, && || and or, and the short-circuit assignments ||= &&=.
 * - Constants in code are type uses, except SCREAMING_CASE ones, which are reads of value constants
 *   (the standard library's all-capital modules, JSON, URI, Net::HTTP…, stay types).
 * - `require` loads a file and binds no name, so Ruby files have no `import` references.
 * - Calls: every call with a receiver, arguments or a block (a bare `name` is indistinguishable from a
 *   local variable and is left out); the declarations written as calls (require, attr_*, include,
 *   private…) are recorded as what they declare instead.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, assignedLocal, rubyField, type ResolutionRules } from "./resolution.ts";
import type { ProjectInfo } from "./project.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "./types.ts";
import { SpanIndex, at, assignEnclosing, attributeComplexity, column, docStartLine, endLine, line, qualify, spanLines } from "./kit.ts";
import { boundedText } from "./source-text.ts";
import { RUBY_STDLIB } from "./ruby-stdlib.ts";
import { dirOf, joinInside } from "../core/rel-path.ts";

const QUERY = `
(comment) @comment
[(if) (elsif) (unless) (while) (until) (for) (when) (in_clause) (rescue) (rescue_modifier) (conditional)
 (if_modifier) (unless_modifier) (while_modifier) (until_modifier)] @decision
["&&" "||" "and" "or" "||=" "&&="] @decision
[(class) (module)] @type
(singleton_class) @singleton
[(method) (singleton_method)] @method
(assignment left: (constant) @constant)
(program (assignment left: (global_variable) @global))
(return) @return
(call) @call
(scope_resolution) @scope
(constant) @const.bare
`;

type Visibility = "public" | "private" | "protected";

/** Calls that declare rather than call: recorded as what they declare, not as calls. */
const DECLARATIONS = new Set([
  "require",
  "require_relative",
  "load",
  "autoload",
  "attr_reader",
  "attr_writer",
  "attr_accessor",
  "include",
  "extend",
  "prepend",
  "private",
  "public",
  "protected",
  "module_function",
  "private_constant",
  "public_constant",
  "private_class_method",
  "public_class_method",
]);
const VISIBILITY_WORDS = new Set(["private", "public", "protected", "module_function"]);
const ATTR_WORDS = new Set(["attr_reader", "attr_writer", "attr_accessor"]);
const MIXIN_WORDS = new Set(["include", "extend", "prepend"]);
const IMPORT_WORDS = new Set(["require", "require_relative", "load", "autoload"]);
/** All-capital names that are modules or classes of the standard library, not value constants. */
const CAPITAL_MODULES = new Set([
  "JSON",
  "URI",
  "IO",
  "CSV",
  "ERB",
  "YAML",
  "GC",
  "HTTP",
  "HTTPS",
  "SSL",
  "FTP",
  "IMAP",
  "POP3",
  "SMTP",
  "CGI",
  "PTY",
  "DNS",
  "PP",
]);
/** Methods Ruby makes private whatever section they are written in. */
const IMPLICITLY_PRIVATE = new Set(["initialize", "initialize_copy", "initialize_clone", "initialize_dup", "respond_to_missing?"]);

const isComment = (n: Node): boolean => n.type === "comment";

/** Symbol or string argument → the name it spells (`:items` → items). */
function symbolName(n: Node): string | undefined {
  if (n.type === "simple_symbol") return n.text.slice(1);
  if (n.type === "string" || n.type === "delimited_symbol") {
    if (n.namedChildren.some((c) => c?.type === "interpolation")) return undefined;
    return n.namedChildren.find((c) => c?.type === "string_content")?.text ?? "";
  }
  return undefined;
}

/** A plain string literal's text; undefined when it interpolates. */
function plainString(n: Node | null | undefined): string | undefined {
  if (n?.type !== "string") return undefined;
  if (n.namedChildren.some((c) => c?.type === "interpolation")) return undefined;
  return n.namedChildren.find((c) => c?.type === "string_content")?.text ?? "";
}

/** What a class body declares about its members, read in one pass over its statements. */
interface BodyScan {
  /** Visibility of methods written in a section or inside `private def ...`, by node id. */
  byNode: Map<number, Visibility>;
  /** Visibility set afterwards by name (`private :name`). */
  byName: Map<string, Visibility>;
  /** Visibility of singleton methods set by `private_class_method :name`. */
  singletonByName: Map<string, Visibility>;
  privateConstants: Set<string>;
  attrs: Set<string>;
}

function scanBody(body: Node | null): BodyScan {
  const scan: BodyScan = { byNode: new Map(), byName: new Map(), singletonByName: new Map(), privateConstants: new Set(), attrs: new Set() };
  if (!body) return scan;
  let current: Visibility = "public";
  for (const c of body.namedChildren) {
    if (!c) continue;
    if (c.type === "identifier" && VISIBILITY_WORDS.has(c.text)) {
      current = c.text === "module_function" ? "public" : (c.text as Visibility);
    } else if (c.type === "method") {
      scan.byNode.set(c.id, current);
    } else if (c.type === "call" && !c.childForFieldName("receiver")) {
      const word = c.childForFieldName("method")?.text ?? "";
      const args = c.childForFieldName("arguments")?.namedChildren ?? [];
      if (VISIBILITY_WORDS.has(word)) {
        const vis: Visibility = word === "module_function" ? "public" : (word as Visibility);
        if (args.length === 0) current = vis;
        for (const a of args) {
          if (!a) continue;
          if (a.type === "method") scan.byNode.set(a.id, vis);
          else {
            const name = symbolName(a);
            if (name !== undefined) scan.byName.set(name, vis);
          }
        }
      } else if (word === "private_class_method" || word === "public_class_method") {
        const vis: Visibility = word === "private_class_method" ? "private" : "public";
        for (const a of args) {
          if (!a) continue;
          if (a.type === "singleton_method") scan.byNode.set(a.id, vis);
          else {
            const name = symbolName(a);
            if (name !== undefined) scan.singletonByName.set(name, vis);
          }
        }
      } else if (word === "private_constant") {
        for (const a of args) {
          const name = a ? symbolName(a) : undefined;
          if (name !== undefined) scan.privateConstants.add(name);
        }
      } else if (ATTR_WORDS.has(word)) {
        for (const a of args) {
          const name = a ? symbolName(a) : undefined;
          if (name !== undefined) scan.attrs.add(name);
        }
      }
    }
  }
  return scan;
}

interface TypeInfo {
  name: string;
  qname: string;
  exported: boolean;
  fact: TypeFact;
  scan: BodyScan;
}

/**
 * Where a definition lives: the nearest class / module (or Struct.new block) around it, and whether it
 * sits in a `class << self` body on the way there. A `def` inside a `def` has no owner here.
 */
function ownerOf(n: Node, structCalls: Map<number, TypeInfo>): { owner: Node | null; singletonClass: Node | null } {
  let singletonClass: Node | null = null;
  for (let p = n.parent; p; p = p.parent) {
    switch (p.type) {
      case "class":
      case "module":
        return { owner: p, singletonClass };
      case "singleton_class":
        singletonClass ??= p;
        break;
      case "method":
      case "singleton_method":
      case "program":
        return { owner: null, singletonClass: null };
      case "do_block":
      case "block": {
        const call = p.parent;
        if (call && structCalls.has(call.id)) return { owner: call, singletonClass };
        break;
      }
    }
  }
  return { owner: null, singletonClass: null };
}

/** The statement a definition is written as (`private def x` is the call around the def). */
function statementOf(n: Node): Node {
  const p = n.parent;
  if (p?.type === "argument_list" && p.parent?.type === "call") return p.parent;
  return n;
}

/** First line of the comments directly above a definition; the first statement of a body finds them before the body node. */
function rubyDoc(decl: Node): number | undefined {
  let anchor = statementOf(decl);
  if (!anchor.previousSibling && anchor.parent?.type === "body_statement") anchor = anchor.parent;
  return docStartLine(anchor, isComment);
}

/** `Struct.new(...)` / `Data.define(...)` → the kind of type it makes. */
function structKind(call: Node | null): "struct" | "record" | undefined {
  if (call?.type !== "call") return undefined;
  const recv = call.childForFieldName("receiver")?.text;
  const method = call.childForFieldName("method")?.text;
  if (recv === "Struct" && method === "new") return "struct";
  if (recv === "Data" && method === "define") return "record";
  return undefined;
}

function structMembers(call: Node): number {
  let n = 0;
  for (const a of call.childForFieldName("arguments")?.namedChildren ?? []) if (a && (a.type === "simple_symbol" || a.type === "string")) n++;
  return n;
}

function countParams(params: Node | null): number {
  if (!params) return 0;
  let n = 0;
  for (const p of params.namedChildren) if (p && p.type !== "comment" && p.type !== "hash_splat_nil") n++;
  return n;
}

/** Classifies a `require` path: relative paths, the project's own load paths, the standard library, gems. */
export function classifyRubyRequire(path: string, project: ProjectInfo): Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative"> {
  if (path.startsWith("./") || path.startsWith("../") || path.startsWith("/")) return { isStandardLib: false, isExternal: false, isRelative: true };
  const first = (path.split("/")[0] ?? path).replace(/\.rb$/, "");
  if (project.rubyTopLevel?.includes(first)) return { isStandardLib: false, isExternal: false, isRelative: false };
  const std = RUBY_STDLIB.has(first);
  return { isStandardLib: std, isExternal: !std, isRelative: false };
}

/** A constant or `A::B` node → name and qualifier text. */
function constantRef(n: Node, src: string): { node: Node; qualifier?: string } | undefined {
  if (n.type === "constant") return { node: n };
  if (n.type === "scope_resolution") {
    const name = n.childForFieldName("name");
    const scope = n.childForFieldName("scope");
    if (name?.type === "constant") return { node: name, ...(scope ? { qualifier: boundedText(src, scope) } : {}) };
  }
  return undefined;
}

/** Ruby: `require` loads a file and binds nothing; members are in scope unqualified; `Foo.new` runs `initialize`. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "ruby",
  implicitThis: true,
  selfQualifiers: ["self"],
  superQualifiers: ["super"],
  coreMembers: [
    "each",
    "map",
    "select",
    "reject",
    "find",
    "include?",
    "push",
    "pop",
    "shift",
    "first",
    "last",
    "join",
    "split",
    "keys",
    "values",
    "fetch",
    "merge",
    "to_s",
    "to_h",
    "to_a",
    "size",
    "length",
    "empty?",
    "nil?",
    "new",
    "call",
    "send",
    "inject",
    "reduce",
    "sum",
    "min",
    "max",
    "sort",
    "uniq",
    "compact",
    "flatten",
    "<<",
  ],
  includes: "all",
  types: { local: assignedLocal, field: rubyField },
  constructorCall: { name: "new", member: "initialize" },
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

export const ruby: LanguageModule = {
  id: "ruby",
  extensions: [".rb", ".rake", ".gemspec"],
  filenames: ["gemfile", "rakefile"],
  grammar: "tree-sitter-ruby.wasm",
  resolution: RULES,
  lineComment: "#",
  query: QUERY,

  isTestFile(path) {
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (/_(spec|test)\.rb$/.test(base) || /^test_.*\.rb$/.test(base)) return true;
    return /(^|\/)(spec|test)\//.test(path);
  },

  extract(_tree, ctx, matches): Extracted {
    const st = newState(ctx.source);
    const uses = sortMatches(matches);
    uses.defs.sort((a, b) => a.startIndex - b.startIndex);
    for (const node of uses.defs) {
      if (node.type === "constant") constantAssignment(node, st);
      else if (node.type === "class" || node.type === "module") classOrModule(node, st);
      else methodDefinition(node, st);
    }
    initializerFields(st);
    explicitReturns(uses.returns, st);
    globalVariables(uses.globals, st);
    callReferences(uses.calls, st, ctx.project);
    constantReferences(uses, st);
    attributeComplexity(st.functions, uses.decisions);
    st.variables.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn);
    assignEnclosing(st.references, st.functions, st.types, st.variables);
    return { types: st.types, functions: st.functions, variables: st.variables, imports: st.imports, references: st.references };
  },

  resolveImport(imp, fromPath, files): string[] {
    if (imp.isStandardLib || imp.isExternal) return [];
    const withExt = (p: string): string => (p.endsWith(".rb") ? p : p + ".rb");
    if (imp.isRelative) {
      const target = joinInside(dirOf(fromPath), withExt(imp.module));
      return target !== undefined && files.has(target) ? [target] : [];
    }
    const dirs = [...(files.project.rubyLoadPaths ?? [])].sort((a, b) => Number(fromPath.startsWith(dirOf(b))) - Number(fromPath.startsWith(dirOf(a))));
    for (const d of [...dirs, ""]) {
      const target = joinInside(d, withExt(imp.module));
      if (target !== undefined && files.has(target)) return [target];
    }
    return [];
  },
};

/** What extraction collects over one file, shared by the steps below (one function per kind of declaration, as in go.ts). */
interface RubyState {
  src: string;
  types: TypeFact[];
  functions: FunctionFact[];
  variables: VariableFact[];
  imports: ImportFact[];
  references: ReferenceFact[];
  /** constant nodes already recorded (definitions, inherit, implement) */
  handled: Set<number>;
  /** class / module node id, or Struct.new call id */
  typeInfos: Map<number, TypeInfo>;
  /** `class << self` node id -> what its body declares */
  singletonScans: Map<number, BodyScan>;
  /** bodies of `initialize` methods, whose instance variables are fields of their owner */
  initializers: Array<{ fn: Node; owner: TypeInfo }>;
  /** qualified names of the value constants recorded (a reassignment is not a second constant) */
  seenConstants: Set<string>;
}

function newState(src: string): RubyState {
  return {
    src,
    types: [],
    functions: [],
    variables: [],
    imports: [],
    references: [],
    handled: new Set(),
    typeInfos: new Map(),
    singletonScans: new Map(),
    initializers: [],
    seenConstants: new Set(),
  };
}

/** The query's matches sorted by capture, for the steps that read them. */
interface RubyUses {
  decisions: Node[];
  /** classes, modules, struct assignments' constants, methods, constants */
  defs: Node[];
  globals: Node[];
  returns: Node[];
  calls: Array<{ name: Node; qualifier?: Node; call: Node }>;
  constants: Array<{ name: Node; qualifier?: Node }>;
  // Constants that are parts of `A::B` or the method of `Integer("1")`, known by id: asking a node
  // for its parent walks down from the root, which is quadratic over a deep `A::B::C::…` chain.
  inScope: Set<number>;
  callMethods: Set<number>;
}

function sortMatches(matches: QueryMatch[]): RubyUses {
  const u: RubyUses = { decisions: [], defs: [], globals: [], returns: [], calls: [], constants: [], inScope: new Set(), callMethods: new Set() };
  for (const m of matches) {
    if (m.decision) u.decisions.push(m.decision);
    else if (m.type) u.defs.push(m.type);
    else if (m.method) u.defs.push(m.method);
    else if (m.constant) u.defs.push(m.constant);
    else if (m.global) u.globals.push(m.global);
    else if (m.return) u.returns.push(m.return);
    else if (m.call) {
      // Fields are read here rather than matched by the query: a pattern constraining a call's
      // children stays open through a whole receiver chain, which made long chains quadratic.
      const name = m.call.childForFieldName("method");
      const receiver = m.call.childForFieldName("receiver");
      if (name) u.calls.push({ name, ...(receiver ? { qualifier: receiver } : {}), call: m.call });
      if (name?.type === "constant") u.callMethods.add(name.id);
    } else if (m.scope) {
      const name = m.scope.childForFieldName("name");
      const scope = m.scope.childForFieldName("scope");
      if (name?.type === "constant") {
        u.constants.push({ name, ...(scope ? { qualifier: scope } : {}) });
        u.inScope.add(name.id);
      }
      if (scope?.type === "constant") u.inScope.add(scope.id);
    } else if (m["const.bare"]) u.constants.push({ name: m["const.bare"] });
  }
  return u;
}

/** `NAME = value` in a class, module or at the top; `Point = Struct.new(...)` declares a type. */
function constantAssignment(node: Node, st: RubyState): void {
  const assign = node.parent!;
  const { owner: ownerNode } = ownerOf(assign, st.typeInfos);
  const owner = ownerNode ? st.typeInfos.get(ownerNode.id) : undefined;
  const name = node.text;
  st.handled.add(node.id);
  const right = assign.childForFieldName("right");
  const kind = structKind(right);
  const exported = !(owner?.scan.privateConstants.has(name) ?? false) && (owner ? owner.exported : true);
  if (kind && right) {
    const block = right.childForFieldName("block");
    const fact: TypeFact = {
      name,
      qualifiedName: qualify(owner?.qname, name),
      kind,
      startLine: line(assign),
      endLine: endLine(assign),
      startColumn: column(assign),
      exported,
      fieldCount: structMembers(right),
      methodCount: 0,
    };
    if (owner) fact.container = owner.name;
    const doc = rubyDoc(assign);
    if (doc !== undefined) fact.docStartLine = doc;
    st.types.push(fact);
    const scan = scanBody(block?.childForFieldName("body") ?? null);
    fact.fieldCount += scan.attrs.size;
    st.typeInfos.set(right.id, { name, qname: fact.qualifiedName, exported, fact, scan });
    return;
  }
  const qname = qualify(owner?.qname, name);
  if (st.seenConstants.has(qname)) return;
  st.seenConstants.add(qname);
  const v: VariableFact = {
    name,
    qualifiedName: qname,
    kind: "constant",
    startLine: line(assign),
    endLine: endLine(assign),
    startColumn: column(node),
    exported,
  };
  if (owner) v.container = owner.name;
  st.variables.push(v);
}

/** `class A::B < Base` / `module M`: the type, and its superclass as an inherit reference. */
function classOrModule(node: Node, st: RubyState): void {
  const nameNode = node.childForFieldName("name");
  const ref = nameNode ? constantRef(nameNode, st.src) : undefined;
  if (!ref) return;
  st.handled.add(ref.node.id);
  const { owner: ownerNode } = ownerOf(node, st.typeInfos);
  const owner = ownerNode ? st.typeInfos.get(ownerNode.id) : undefined;
  const name = ref.node.text;
  const written = ref.qualifier?.replace(/^::/, "").replace(/::/g, ".");
  const exported = !(owner?.scan.privateConstants.has(name) ?? false) && (owner ? owner.exported : true);
  const body = node.childForFieldName("body");
  const scan = scanBody(body);
  const fact: TypeFact = {
    name,
    qualifiedName: qualify(owner?.qname, written, name),
    kind: node.type === "class" ? "class" : "module",
    startLine: line(node),
    endLine: endLine(node),
    startColumn: column(node),
    exported,
    fieldCount: scan.attrs.size,
    methodCount: 0,
  };
  if (owner) fact.container = owner.name;
  const doc = rubyDoc(node);
  if (doc !== undefined) fact.docStartLine = doc;
  const sup = node.childForFieldName("superclass")?.firstNamedChild;
  if (sup) {
    const base = constantRef(sup, st.src);
    if (base) {
      st.handled.add(base.node.id);
      st.references.push({ name: base.node.text, ...(base.qualifier ? { qualifier: base.qualifier } : {}), kind: "inherit", ...at(base.node) });
    } else if (structKind(sup) === "struct") fact.fieldCount += structMembers(sup);
  }
  st.types.push(fact);
  st.typeInfos.set(node.id, { name, qname: fact.qualifiedName, exported, fact, scan });
}

/** A method's visibility: from its `class << self` body, its owner's sections, or `private :name` / `private_class_method`. */
function methodVisibility(node: Node, name: string, owner: TypeInfo, singletonClass: Node | null, st: RubyState): Visibility {
  if (singletonClass) {
    let scan = st.singletonScans.get(singletonClass.id);
    if (!scan) {
      scan = scanBody(singletonClass.childForFieldName("body"));
      st.singletonScans.set(singletonClass.id, scan);
    }
    return scan.byName.get(name) ?? scan.byNode.get(node.id) ?? owner.scan.singletonByName.get(name) ?? "public";
  }
  if (node.type === "singleton_method") return owner.scan.singletonByName.get(name) ?? owner.scan.byNode.get(node.id) ?? "public";
  return owner.scan.byName.get(name) ?? owner.scan.byNode.get(node.id) ?? "public";
}

/** A method: `def x`, `def self.x`, or a def inside `class << self`. */
function methodDefinition(node: Node, st: RubyState): void {
  const nameNode = node.childForFieldName("name");
  if (!nameNode) return;
  const name = nameNode.text;
  const { owner: ownerNode, singletonClass } = ownerOf(node, st.typeInfos);
  const owner = ownerNode ? st.typeInfos.get(ownerNode.id) : undefined;
  const singleton = node.type === "singleton_method" || singletonClass !== null;
  const vis: Visibility = owner ? methodVisibility(node, name, owner, singletonClass, st) : "public";
  const exported = owner?.exported === true && vis === "public" && !(IMPLICITLY_PRIVATE.has(name) && !singleton);
  const params = node.childForFieldName("parameters");
  const body = node.childForFieldName("body");
  const object = node.type === "singleton_method" ? node.childForFieldName("object") : null;
  const setter = nameNode.type === "setter";
  const fact: FunctionFact = {
    name,
    qualifiedName: qualify(owner?.qname, name),
    startLine: line(node),
    endLine: endLine(node),
    startColumn: column(node),
    exported,
    isMethod: owner !== undefined || (object !== null && object.text !== "self"),
    paramCount: countParams(params),
    returnCount: !body || setter || (name === "initialize" && !singleton) ? 0 : 1,
    bodyLines: spanLines(body),
    complexity: 1,
    signature: compactSignature(st.src, node, (params ?? nameNode).endIndex),
  };
  if (owner) fact.receiverType = owner.name;
  else if (object && object.text !== "self") fact.receiverType = boundedText(st.src, object);
  const doc = rubyDoc(node);
  if (doc !== undefined) fact.docStartLine = doc;
  st.functions.push(fact);
  if (owner) {
    owner.fact.methodCount++;
    if (name === "initialize" && !singleton && body) st.initializers.push({ fn: body, owner });
  }
}

/** Instance variables assigned in initialize are fields too. */
function initializerFields(st: RubyState): void {
  for (const { fn, owner } of st.initializers) {
    const ivars = new Set<string>();
    for (const a of fn.descendantsOfType(["assignment", "operator_assignment"])) {
      const left = a?.childForFieldName("left");
      if (left?.type === "instance_variable") ivars.add(left.text.slice(1));
    }
    for (const v of ivars) if (!owner.scan.attrs.has(v)) owner.fact.fieldCount++;
  }
}

/** Explicit `return a, b` raises a method's count above the implicit one. */
function explicitReturns(returns: Node[], st: RubyState): void {
  if (returns.length === 0) return;
  const index = new SpanIndex(st.functions);
  for (const r of returns) {
    const p = r.startPosition;
    const f = index.find(p.row + 1, p.column + 1);
    if (!f || f.returnCount === 0) continue;
    const args = r.firstNamedChild;
    const n = args?.type === "argument_list" ? args.namedChildCount : args ? 1 : 0;
    if (n > f.returnCount) f.returnCount = n;
  }
}

/** `$name = value` at the top of the file, once per name. */
function globalVariables(globals: Node[], st: RubyState): void {
  const seenGlobals = new Set<string>();
  for (const g of globals) {
    if (seenGlobals.has(g.text)) continue;
    seenGlobals.add(g.text);
    const assign = g.parent!;
    st.variables.push({
      name: g.text,
      qualifiedName: g.text,
      kind: "variable",
      startLine: line(assign),
      endLine: endLine(assign),
      startColumn: column(g),
      exported: true,
    });
  }
}

/** Calls, and the declarations written as calls: requires and mixins. */
function callReferences(calls: RubyUses["calls"], st: RubyState, project: ProjectInfo): void {
  for (const c of calls) {
    const name = c.name.text;
    if (!c.qualifier && DECLARATIONS.has(name)) {
      declarationCall(name, c.call, st, project);
      continue;
    }
    if (c.name.type !== "identifier" && c.name.type !== "constant") continue; // `a.()` and operators
    st.references.push({ name, ...(c.qualifier ? { qualifier: boundedText(st.src, c.qualifier) } : {}), kind: "call", ...at(c.name) });
  }
}

/** `require …` as an import, `include M` / `extend M` / `prepend M` as implement references. */
function declarationCall(word: string, call: Node, st: RubyState, project: ProjectInfo): void {
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  if (IMPORT_WORDS.has(word)) {
    const imp = requireOf(word, args, project);
    if (imp) st.imports.push({ ...imp, ...at(call) });
  } else if (MIXIN_WORDS.has(word)) {
    for (const a of args) {
      const ref = a ? constantRef(a, st.src) : undefined;
      if (!ref) continue;
      st.handled.add(ref.node.id);
      st.references.push({ name: ref.node.text, ...(ref.qualifier ? { qualifier: ref.qualifier } : {}), kind: "implement", ...at(ref.node) });
    }
  }
}

/** Constants used in code: types (CamelCase) or reads of value constants (SCREAMING_CASE). */
function constantReferences(u: RubyUses, st: RubyState): void {
  for (const c of u.constants) {
    if (st.handled.has(c.name.id)) continue;
    if (!c.qualifier && u.inScope.has(c.name.id)) continue; // recorded with its qualifier
    if (u.callMethods.has(c.name.id)) continue; // `Integer("1")`: a call
    const name = c.name.text;
    const kind = name.length > 1 && /^[A-Z][A-Z0-9_]*$/.test(name) && !CAPITAL_MODULES.has(name) ? "read" : "type";
    st.references.push({ name, ...(c.qualifier ? { qualifier: boundedText(st.src, c.qualifier) } : {}), kind, ...at(c.name) });
  }
}

/** A def's signature: `def name(params)` with whitespace collapsed. */
function compactSignature(src: string, node: Node, end: number): string {
  const text = src.slice(node.startIndex, end).replace(/\s+/g, " ").trim();
  return text.length > 400 ? text.slice(0, 399) + "…" : text;
}

/** The import a `require` / `require_relative` / `load` / `autoload` call makes, when its path is written literally. */
function requireOf(word: string, args: Array<Node | null>, project: ProjectInfo): Omit<ImportFact, "line" | "column"> | undefined {
  let pathNode = args[0] ?? null;
  const symbols: string[] = [];
  if (word === "autoload") {
    const sym = pathNode ? symbolName(pathNode) : undefined;
    if (sym !== undefined) symbols.push(sym);
    pathNode = args[1] ?? null;
  }
  let path = plainString(pathNode);
  let relative = word === "require_relative";
  if (path === undefined && pathNode?.type === "call") {
    // require File.expand_path("x", __dir__): a path relative to this file's folder
    const recv = pathNode.childForFieldName("receiver")?.text;
    const method = pathNode.childForFieldName("method")?.text;
    const inner = pathNode.childForFieldName("arguments")?.namedChildren ?? [];
    if (recv === "File" && method === "expand_path" && inner[1]?.text === "__dir__") {
      path = plainString(inner[0]);
      relative = true;
    }
  }
  if (path === undefined || path === "") return undefined;
  const cls = relative ? { isStandardLib: false, isExternal: false, isRelative: true } : classifyRubyRequire(path, project);
  return { module: path, ...cls, symbols };
}
