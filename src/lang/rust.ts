/**
 * Rust: structs, enums (variants as enum members), unions, traits, type aliases, inline modules, impl
 * blocks, functions and methods, consts and statics, `macro_rules!` macros, `use` trees and `mod x;`,
 * and references (calls, macro invocations, type uses, trait implementations, supertraits, reads of
 * consts and statics).
 *
 * Rules:
 * - Qualified names start from the file's module path (src/a/b.rs → `a.b`; lib.rs and main.rs are the
 *   crate root; see rust-paths.ts), then inline modules, then the impl's or trait's type: `a.b.Point.new`.
 * - exported means `pub` as written. `pub(crate)`, `pub(super)`, `pub(in path)` and `pub(self)` are
 *   visible inside the crate only and count as not exported. Enum variants and trait methods share
 *   their enum's or trait's visibility. Methods of `impl Trait for Type` have no visibility of their
 *   own: they are exported when Type is `pub` in this file, or when Type is declared elsewhere.
 * - Methods: receiverType is the impl's self type as written (`Point<T>`), or the trait's name for
 *   methods declared in a trait (required methods without a body have bodyLines 0). `self` is the
 *   receiver, not a parameter. A tuple return type counts its elements; `()` and `!` count as none.
 * - methodCount of a struct, enum or union counts the methods of its impl blocks in this file; a
 *   trait's counts its declared methods. fieldCount: named or tuple fields; an enum's: its variants.
 * - `const` items are constants, `static` items variables; associated consts of an impl are constants
 *   with the type as container.
 * - A `macro_rules!` macro is recorded as a function (each rule is an arm of its pattern match, so
 *   complexity is 1 + rules); it is exported with `#[macro_export]`. Invocations are calls by name.
 * - Complexity: 1 + if / while / for, each match arm except a bare `_`, each arm guard, `&&` and `||`.
 * - Imports: one per `use` declaration, module = the path before the last segment or the `{...}` list,
 *   symbols = what it brings in (`*` for globs). std, core, alloc, proc_macro and test are the standard
 *   library; crate::, self::, super::, modules declared in this file and the project's own crates
 *   (Cargo.toml) are internal; `mod x;` is an internal import of the module file; the rest is external.
 * - Test files: anything under tests/ or benches/, and *_test.rs / tests.rs files. Files holding a
 *   `#[cfg(test)] mod tests { ... }` stay source files: they are mostly production code.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule, QueryMatch } from "./module.ts";
import { BASE_RULES, TEST_PREFIX, TEST_SUFFIX, arrowReturn, bindingLocal, colonField, colonParameter, type ResolutionRules } from "./resolution.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, TypeKind, VariableFact } from "./types.ts";
import { at, assignEnclosing, attributeComplexity, column, compactText, endLine, line, qualify, signatureOf, spanLines } from "./kit.ts";
import { moduleOfPath, modulePrefix, resolveRustImport } from "./rust-paths.ts";

const QUERY = `
(line_comment) @comment
(block_comment) @comment
[(if_expression) (while_expression) (for_expression)] @decision
(match_arm pattern: (_) @arm)
["&&" "||"] @decision
(call_expression function: (_) @call.fn)
(macro_invocation macro: (_) @macro)
(scoped_type_identifier path: (_) @type.path name: (type_identifier) @type.qname)
(type_identifier) @type
(identifier) @ident
(scoped_identifier path: (_) @path.qualifier name: (identifier) @path.name) @path
(scoped_identifier path: (scoped_identifier) @path.not)
(scoped_type_identifier path: (scoped_identifier) @path.not)
(use_wildcard (scoped_identifier) @path.not)
(use_declaration argument: (scoped_identifier) @path.not)
(use_list (scoped_identifier) @path.not)
(scoped_use_list path: (scoped_identifier) @path.not)
(use_as_clause path: (scoped_identifier) @path.not)
(generic_function function: (scoped_identifier) @path.not)
(attribute (scoped_identifier) @path.not)
(visibility_modifier (scoped_identifier) @path.not)
`;

const STD_CRATES = new Set(["std", "core", "alloc", "proc_macro", "test"]);
const INTERNAL_ROOTS = new Set(["crate", "self", "super"]);
/** Prelude enum variants: `Some(x)` constructs a value, it calls no function. */
const VARIANT_CONSTRUCTORS = new Set(["Some", "Ok", "Err"]);

/**
 * The qualifier a path gives a reference: its text, or none for `self::` (the current module: `self::run()`
 * is `run()` here, and a bare `self` qualifier is the receiver's, `self.run()`).
 */
function pathQualifier(path: Node | null | undefined): { qualifier?: string } {
  if (!path || path.type === "self") return {};
  return { qualifier: compactText(path) };
}

const isComment = (n: Node): boolean => n.type === "line_comment" || n.type === "block_comment";

/**
 * The first line of the comments directly above an item, attributes in between allowed; `//!` comments
 * document the enclosing module, not the item. Reads the walked sibling array: `previousSibling` scans
 * the parent's children from the start, quadratic over a long file.
 */
function docStart(siblings: Array<Node | null>, index: number): number | undefined {
  const item = siblings[index]!;
  let expected = line(item) - 1;
  let j = index - 1;
  for (let prev = siblings[j]; prev && prev.type === "attribute_item" && endLine(prev) === expected; prev = siblings[--j]) expected = line(prev) - 1;
  let start: number | undefined;
  for (let prev = siblings[j]; prev && isComment(prev) && endLine(prev) === expected && !/^\/[/*]!/.test(prev.text); prev = siblings[--j]) {
    start = line(prev);
    expected = start - 1;
  }
  return start;
}

/** The attributes written directly above an item (`#[macro_export]`, `#[cfg(test)]`), comments in between allowed. */
function attributesOf(siblings: Array<Node | null>, index: number): string[] {
  const out: string[] = [];
  for (let j = index - 1, prev = siblings[j]; prev && (prev.type === "attribute_item" || isComment(prev)); prev = siblings[--j]) {
    if (prev.type === "attribute_item") out.push(prev.text);
  }
  return out;
}

function isPub(item: Node): boolean {
  for (const c of item.namedChildren) if (c?.type === "visibility_modifier") return c.text === "pub";
  return false;
}

/** `&'a mut Point<T>` → `Point`; `fmt::Display` → `Display`. */
function baseTypeName(t: string): string {
  return t
    .replace(/^(&\s*('\w+\s+)?(mut\s+)?|\*\s*(const|mut)\s+)+/, "")
    .replace(/<.*$/s, "")
    .replace(/^.*::/, "")
    .trim();
}

function countParams(params: Node | null): number {
  if (!params) return 0;
  let n = 0;
  for (const p of params.namedChildren) {
    if (p?.type === "variadic_parameter") n++;
    // `self: Pin<&mut Self>` is a typed receiver, not a parameter
    else if (p?.type === "parameter" && p.childForFieldName("pattern")?.text.replace(/^mut\s+/, "") !== "self") n++;
  }
  return n;
}

function countReturns(t: Node | null): number {
  if (!t) return 0;
  if (t.type === "unit_type" || t.type === "never_type") return 0;
  if (t.type === "tuple_type") return t.namedChildren.filter((c) => c !== null).length;
  return 1;
}

/** A leaf of a `use` tree: its full path, the node of its local name, and how it is brought in. */
interface UseLeaf {
  path: string[];
  nameNode?: Node;
  alias?: Node;
  glob: boolean;
}

function pathSegments(n: Node, out: Array<{ text: string; node: Node }>): void {
  if (n.type === "scoped_identifier") {
    const p = n.childForFieldName("path");
    if (p) pathSegments(p, out);
    const name = n.childForFieldName("name");
    if (name) out.push({ text: name.text, node: name });
  } else out.push({ text: n.text, node: n });
}

function useLeaves(n: Node, prefix: Array<{ text: string; node: Node }>, out: UseLeaf[]): void {
  switch (n.type) {
    case "scoped_use_list": {
      const segs = [...prefix];
      const p = n.childForFieldName("path");
      if (p) pathSegments(p, segs);
      const list = n.childForFieldName("list");
      if (list) useLeaves(list, segs, out);
      return;
    }
    case "use_list":
      for (const c of n.namedChildren) if (c && !isComment(c)) useLeaves(c, prefix, out);
      return;
    case "use_as_clause": {
      const segs = [...prefix];
      const p = n.childForFieldName("path");
      if (p) pathSegments(p, segs);
      const alias = n.childForFieldName("alias");
      const last = segs[segs.length - 1];
      out.push({ path: segs.map((s) => s.text), ...(last ? { nameNode: last.node } : {}), ...(alias ? { alias } : {}), glob: false });
      return;
    }
    case "use_wildcard": {
      const segs = [...prefix];
      const p = n.namedChildren.find((c) => c !== null && !isComment(c));
      if (p) pathSegments(p, segs);
      out.push({ path: segs.map((s) => s.text), glob: true });
      return;
    }
    default: {
      const segs = [...prefix];
      pathSegments(n, segs);
      // `self` in a list names the module of the prefix, written where the prefix ends
      const selfLeaf = segs.length > 1 && segs[segs.length - 1]!.text === "self";
      const nameSeg = selfLeaf ? segs[segs.length - 2] : segs[segs.length - 1];
      out.push({ path: segs.map((s) => s.text), ...(nameSeg ? { nameNode: nameSeg.node } : {}), glob: false });
    }
  }
}

interface ImplContext {
  /** The self type as written and its bare name. */
  written: string;
  name: string;
  trait: boolean;
}

interface Scope {
  path: string[];
  impl?: ImplContext;
  /** The trait whose body this is. */
  trait?: TypeFact;
}

class RustExtractor {
  readonly types: TypeFact[] = [];
  readonly functions: FunctionFact[] = [];
  readonly variables: VariableFact[] = [];
  readonly imports: ImportFact[] = [];
  readonly references: ReferenceFact[] = [];
  private readonly skipTypeIds = new Set<number>();
  private readonly typeParams = new Set<string>();
  private readonly localModules = new Set<string>();
  private readonly uses: Node[] = [];
  /** Methods of trait impls, whose visibility follows their type; and every impl method, for methodCount. */
  private readonly traitImplMethods: Array<{ fact: FunctionFact; type: string; path: string[] }> = [];
  private readonly implMethods: Array<{ type: string; path: string[] }> = [];
  /** Implementation references, enclosed by the implementing type rather than by position. */
  private readonly implementRefs: Array<{ ref: ReferenceFact; owner: string }> = [];
  readonly values = new Set<string>();
  /** ids of identifiers that declare a value, name a callee or sit in a `use` (not reads). */
  private readonly skipIdentIds = new Set<number>();
  /** Paths recorded as calls or macro invocations (not read again as values). */
  private readonly calledPaths = new Set<number>();

  constructor(
    private readonly src: string,
    private readonly crates: ReadonlySet<string>,
  ) {}

  /** The children of the container being walked, and the index of the current one (for docs and attributes). */
  private siblings: Array<Node | null> = [];
  private index = -1;

  walk(container: Node, scope: Scope): void {
    const saved = this.siblings;
    const savedIndex = this.index;
    const children = container.namedChildren;
    for (let i = 0; i < children.length; i++) {
      const item = children[i];
      if (!item) continue;
      this.siblings = children;
      this.index = i;
      this.item(item, scope);
    }
    this.siblings = saved;
    this.index = savedIndex;
  }

  private item(item: Node, scope: Scope): void {
    switch (item.type) {
      case "function_item":
      case "function_signature_item":
        this.fn(item, scope);
        break;
      case "struct_item":
        this.struct(item, scope, "struct");
        break;
      case "union_item":
        this.struct(item, scope, "union");
        break;
      case "enum_item":
        this.enumItem(item, scope);
        break;
      case "trait_item":
        this.trait(item, scope);
        break;
      case "type_item":
        if (!scope.impl) this.pushType(item, scope, "type_alias");
        else this.declName(item);
        break;
      case "associated_type":
        this.declName(item);
        break;
      case "mod_item":
        this.mod(item, scope);
        break;
      case "impl_item":
        this.impl(item, scope);
        break;
      case "const_item":
      case "static_item":
        this.value(item, scope);
        break;
      case "macro_definition":
        this.macro(item, scope);
        break;
      case "use_declaration":
        this.uses.push(item);
        break;
      case "extern_crate_declaration":
        this.externCrate(item);
        break;
      case "ERROR":
        // an unparsable stretch still holds whole items
        this.walk(item, scope);
        break;
    }
  }

  private typeParameters(item: Node): void {
    const tp = item.childForFieldName("type_parameters");
    if (!tp) return;
    for (const p of tp.namedChildren) {
      const name = p?.type === "type_parameter" ? p.childForFieldName("name") : undefined;
      if (name) {
        this.typeParams.add(name.text);
        this.skipTypeIds.add(name.id);
      }
    }
  }

  private declName(item: Node): Node | null {
    const name = item.childForFieldName("name");
    if (name) this.skipTypeIds.add(name.id);
    this.typeParameters(item);
    return name;
  }

  private pushType(item: Node, scope: Scope, kind: TypeKind, exported = isPub(item)): TypeFact | undefined {
    const nameNode = this.declName(item);
    if (!nameNode) return undefined;
    const fact: TypeFact = {
      name: nameNode.text,
      qualifiedName: qualify(...scope.path, nameNode.text),
      kind,
      startLine: line(item),
      endLine: endLine(item),
      startColumn: column(item),
      exported,
      fieldCount: 0,
      methodCount: 0,
    };
    const doc = docStart(this.siblings, this.index);
    if (doc !== undefined) fact.docStartLine = doc;
    this.types.push(fact);
    return fact;
  }

  private struct(item: Node, scope: Scope, kind: TypeKind): void {
    const fact = this.pushType(item, scope, kind);
    if (fact) fact.fieldCount = countFields(item.childForFieldName("body"));
  }

  private enumItem(item: Node, scope: Scope): void {
    const fact = this.pushType(item, scope, "enum");
    const body = item.childForFieldName("body");
    if (!fact || !body) return;
    for (const v of body.namedChildren) {
      if (v?.type !== "enum_variant") continue;
      const name = v.childForFieldName("name");
      if (!name) continue;
      fact.fieldCount++;
      this.variables.push({
        name: name.text,
        qualifiedName: qualify(fact.qualifiedName, name.text),
        kind: "enum_member",
        startLine: line(v),
        endLine: endLine(v),
        startColumn: column(v),
        exported: fact.exported,
        container: fact.name,
      });
    }
  }

  private trait(item: Node, scope: Scope): void {
    const fact = this.pushType(item, scope, "trait");
    if (!fact) return;
    const bounds = item.childForFieldName("bounds");
    if (bounds) for (const b of bounds.namedChildren) if (b) this.traitRef(b, "inherit");
    const body = item.childForFieldName("body");
    if (body) this.walk(body, { path: scope.path, trait: fact });
  }

  /** Records a reference to a trait (`Display`, `fmt::Display`, `From<T>`) and keeps its name out of type uses. */
  private traitRef(t: Node, kind: "inherit" | "implement"): ReferenceFact | undefined {
    let n: Node | null = t;
    if (n.type === "generic_type") n = n.childForFieldName("type");
    let qualifier: string | undefined;
    if (n?.type === "scoped_type_identifier") {
      const p = n.childForFieldName("path");
      if (p) qualifier = compactText(p);
      n = n.childForFieldName("name");
    }
    if (n?.type !== "type_identifier") return undefined;
    this.skipTypeIds.add(n.id);
    const ref: ReferenceFact = { name: n.text, ...(qualifier ? { qualifier } : {}), kind, ...at(n) };
    this.references.push(ref);
    return ref;
  }

  private mod(item: Node, scope: Scope): void {
    const nameNode = item.childForFieldName("name");
    if (!nameNode) return;
    const body = item.childForFieldName("body");
    this.localModules.add(nameNode.text);
    if (!body) {
      // `mod x;` loads the module from x.rs or x/mod.rs
      this.imports.push({ module: nameNode.text, isStandardLib: false, isExternal: false, isRelative: false, symbols: [], ...at(item) });
      this.references.push({ name: nameNode.text, kind: "import", ...at(nameNode) });
      return;
    }
    const fact = this.pushType(item, scope, "module");
    if (fact) this.walk(body, { path: [...scope.path, fact.name] });
  }

  private impl(item: Node, scope: Scope): void {
    const type = item.childForFieldName("type");
    if (!type) return;
    this.typeParameters(item);
    const written = compactText(type);
    const name = baseTypeName(written);
    const trait = item.childForFieldName("trait");
    if (trait) {
      const ref = this.traitRef(trait, "implement");
      if (ref) this.implementRefs.push({ ref, owner: qualify(...scope.path, name) });
    }
    const body = item.childForFieldName("body");
    if (body) this.walk(body, { path: scope.path, impl: { written, name, trait: trait !== null } });
  }

  private fn(item: Node, scope: Scope): void {
    const nameNode = item.childForFieldName("name");
    if (!nameNode) return;
    this.typeParameters(item);
    const name = nameNode.text;
    const body = item.childForFieldName("body");
    const owner = scope.impl?.name ?? scope.trait?.name;
    let exported = isPub(item);
    if (scope.trait) exported = scope.trait.exported;
    const fact: FunctionFact = {
      name,
      qualifiedName: qualify(...scope.path, owner, name),
      startLine: line(item),
      endLine: endLine(item),
      startColumn: column(item),
      exported,
      isMethod: owner !== undefined,
      paramCount: countParams(item.childForFieldName("parameters")),
      returnCount: countReturns(item.childForFieldName("return_type")),
      bodyLines: spanLines(body),
      complexity: 1,
      signature: signatureOf(this.src, item, body).replace(/;$/, ""),
    };
    if (scope.impl) fact.receiverType = scope.impl.written;
    else if (scope.trait) {
      fact.receiverType = scope.trait.name;
      scope.trait.methodCount++;
    }
    const doc = docStart(this.siblings, this.index);
    if (doc !== undefined) fact.docStartLine = doc;
    this.functions.push(fact);
    if (scope.impl) {
      this.implMethods.push({ type: scope.impl.name, path: scope.path });
      if (scope.impl.trait) this.traitImplMethods.push({ fact, type: scope.impl.name, path: scope.path });
    }
  }

  private value(item: Node, scope: Scope): void {
    if (scope.trait) return; // a trait's associated const is a requirement, not a value
    const nameNode = item.childForFieldName("name");
    if (!nameNode) return;
    const v: VariableFact = {
      name: nameNode.text,
      qualifiedName: qualify(...scope.path, scope.impl?.name, nameNode.text),
      kind: item.type === "const_item" ? "constant" : "variable",
      startLine: line(item),
      endLine: endLine(item),
      startColumn: column(item),
      exported: isPub(item),
    };
    this.skipIdentIds.add(nameNode.id);
    if (scope.impl) v.container = scope.impl.name;
    else this.values.add(nameNode.text);
    this.variables.push(v);
  }

  private macro(item: Node, scope: Scope): void {
    const nameNode = item.childForFieldName("name");
    if (!nameNode) return;
    const rules = item.namedChildren.filter((c) => c?.type === "macro_rule").length;
    const fact: FunctionFact = {
      name: nameNode.text,
      qualifiedName: qualify(...scope.path, nameNode.text),
      startLine: line(item),
      endLine: endLine(item),
      startColumn: column(item),
      exported: attributesOf(this.siblings, this.index).some((a) => /\bmacro_export\b/.test(a)),
      isMethod: false,
      paramCount: 0,
      returnCount: 0,
      bodyLines: spanLines(item),
      complexity: 1 + rules,
      signature: `macro_rules! ${nameNode.text}`,
    };
    const doc = docStart(this.siblings, this.index);
    if (doc !== undefined) fact.docStartLine = doc;
    this.functions.push(fact);
  }

  private externCrate(item: Node): void {
    const nameNode = item.childForFieldName("name");
    if (!nameNode) return;
    const alias = item.childForFieldName("alias");
    const fact: ImportFact = { module: nameNode.text, ...this.classify(nameNode.text), symbols: [], ...at(item) };
    if (alias) fact.alias = alias.text;
    this.imports.push(fact);
    const local = alias ?? nameNode;
    this.references.push({ name: local.text, kind: "import", ...at(local) });
  }

  private classify(first: string): Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative"> {
    if (STD_CRATES.has(first)) return { isStandardLib: true, isExternal: false, isRelative: false };
    const internal = INTERNAL_ROOTS.has(first) || this.localModules.has(first) || this.crates.has(first);
    return { isStandardLib: false, isExternal: !internal, isRelative: false };
  }

  /** `use` declarations, once every `mod` of the file is known (a use may name a module declared later). */
  useDeclarations(): void {
    for (const u of this.uses) {
      const arg = u.childForFieldName("argument");
      if (arg?.type === "use_list") {
        // `use {a, b::c};` brings in unrelated paths: one import each
        for (const c of arg.namedChildren) if (c && !isComment(c)) this.useTree(u, c);
      } else if (arg) this.useTree(u, arg);
    }
  }

  /** One import for a use tree: its module, the symbols it brings in, and the local names as references. */
  private useTree(u: Node, arg: Node): void {
    const leaves: UseLeaf[] = [];
    useLeaves(arg, [], leaves);
    if (leaves.length === 0) return;
    let module: string[];
    let symbols: string[];
    let alias: string | undefined;
    if (arg.type === "scoped_use_list") {
      const prefix: Array<{ text: string; node: Node }> = [];
      const p = arg.childForFieldName("path");
      if (p) pathSegments(p, prefix);
      module = prefix.map((s) => s.text);
      symbols = leaves
        .map((l) => (l.glob ? [...l.path.slice(module.length), "*"] : l.path.slice(module.length)))
        .filter((s) => s.length > 0 && !(s.length === 1 && s[0] === "self"))
        .map((s) => s.join("::"));
    } else {
      const leaf = leaves[0]!;
      if (leaf.glob) {
        module = leaf.path;
        symbols = ["*"];
      } else if (leaf.path.length === 1) {
        module = leaf.path;
        symbols = [];
      } else {
        module = leaf.path.slice(0, -1);
        symbols = [leaf.path[leaf.path.length - 1]!];
      }
      if (leaf.alias) alias = leaf.alias.text;
    }
    const first = (module[0] ?? symbols[0] ?? "").split("::")[0]!.replace(/^::/, "");
    const fact: ImportFact = { module: module.join("::"), ...this.classify(first), symbols, ...at(u) };
    if (alias) fact.alias = alias;
    this.imports.push(fact);
    for (const l of leaves) {
      if (l.nameNode) this.skipIdentIds.add(l.nameNode.id);
      if (l.alias) this.skipIdentIds.add(l.alias.id);
      if (l.glob) continue;
      const local = l.alias ?? l.nameNode;
      if (!local || local.text === "self" || local.text === "_") continue;
      this.references.push({ name: local.text, kind: "import", ...at(local) });
    }
  }

  /** Visibility of trait-impl methods and methodCount, once every type of the file is known. */
  finishImpls(): void {
    const byName = new Map<string, TypeFact>();
    for (const t of this.types) if (t.kind !== "trait" && t.kind !== "module" && t.kind !== "type_alias") byName.set(t.qualifiedName, t);
    for (const m of this.implMethods) {
      const t = byName.get(qualify(...m.path, m.type));
      if (t) t.methodCount++;
    }
    for (const m of this.traitImplMethods) {
      const t = byName.get(qualify(...m.path, m.type));
      m.fact.exported = t ? t.exported : true;
    }
  }

  /**
   * Calls, macro invocations, type uses, reads and decision points from the query's matches. Nothing
   * here climbs to a parent (each `parent` look-up walks down from the root: quadratic on deep
   * expressions); context comes from the query's captures, matched by node id.
   */
  matches(matches: QueryMatch[]): void {
    const decisions: Node[] = [];
    const typeNodes: Node[] = [];
    const idents: Node[] = [];
    const paths = new Map<number, Node>();
    // `Color::Red`, `Self::MAX`, `Point::new` as a value: paths read in expressions and patterns (what a
    // call, a macro, a use tree, an attribute or an outer path holds is theirs)
    const valuePaths: Array<{ path: Node; qualifier: Node; name: Node }> = [];
    const notValuePaths = new Set<number>();
    for (const m of matches) {
      const decision = m.decision;
      if (decision) {
        decisions.push(decision);
        continue;
      }
      const pattern = m.arm;
      if (pattern) {
        if (pattern.text !== "_") decisions.push(pattern);
        // a guard (`Some(x) if x > 0 =>`) is one more way out of the arm
        const guard = pattern.childForFieldName("condition");
        if (guard) decisions.push(guard);
        continue;
      }
      const fn = m["call.fn"];
      if (fn) {
        this.call(fn);
        continue;
      }
      const macro = m.macro;
      if (macro) {
        this.macroCall(macro);
        continue;
      }
      const qname = m["type.qname"];
      const path = m["type.path"];
      if (qname && path) {
        paths.set(qname.id, path);
        continue;
      }
      const type = m.type;
      if (type) {
        typeNodes.push(type);
        continue;
      }
      const ident = m.ident;
      if (ident) {
        idents.push(ident);
        continue;
      }
      const valuePath = m.path;
      if (valuePath) valuePaths.push({ path: valuePath, qualifier: m["path.qualifier"]!, name: m["path.name"]! });
      else if (m["path.not"]) notValuePaths.add(m["path.not"].id);
    }
    for (const { path, qualifier, name } of valuePaths) {
      if (notValuePaths.has(path.id) || this.calledPaths.has(path.id)) continue;
      this.skipIdentIds.add(name.id);
      this.references.push({ name: name.text, ...pathQualifier(qualifier), kind: "read", ...at(name) });
    }
    for (const t of typeNodes) this.typeUse(t, paths.get(t.id));
    for (const ident of idents) {
      if (this.skipIdentIds.has(ident.id) || !this.values.has(ident.text)) continue;
      this.references.push({ name: ident.text, kind: "read", ...at(ident) });
    }
    attributeComplexity(this.functions, decisions);
  }

  private call(fn: Node): void {
    let f: Node | null = fn;
    if (f.type === "generic_function") f = f.childForFieldName("function"); // `parse::<u8>()`
    if (!f) return;
    switch (f.type) {
      case "identifier":
        this.skipIdentIds.add(f.id);
        if (!VARIANT_CONSTRUCTORS.has(f.text)) this.references.push({ name: f.text, kind: "call", ...at(f) });
        return;
      case "field_expression": {
        const field = f.childForFieldName("field");
        const value = f.childForFieldName("value");
        if (field?.type === "field_identifier")
          this.references.push({ name: field.text, ...(value ? { qualifier: compactText(value) } : {}), kind: "call", ...at(field) });
        return;
      }
      case "scoped_identifier": {
        this.calledPaths.add(f.id);
        const name = f.childForFieldName("name");
        const path = f.childForFieldName("path");
        if (name?.type === "identifier") this.references.push({ name: name.text, ...pathQualifier(path), kind: "call", ...at(name) });
        return;
      }
    }
  }

  private macroCall(m: Node): void {
    if (m.type === "identifier") {
      this.references.push({ name: m.text, kind: "call", ...at(m) });
    } else if (m.type === "scoped_identifier") {
      this.calledPaths.add(m.id);
      const name = m.childForFieldName("name");
      const path = m.childForFieldName("path");
      if (name) this.references.push({ name: name.text, ...pathQualifier(path), kind: "call", ...at(name) });
    }
  }

  private typeUse(t: Node, path: Node | undefined): void {
    if (this.skipTypeIds.has(t.id) || this.typeParams.has(t.text) || t.text === "Self") return;
    this.references.push({ name: t.text, ...pathQualifier(path), kind: "type", ...at(t) });
  }

  result(): Extracted {
    // `mod x;` imports were recorded during the walk, `use` imports after it: back to source order
    this.imports.sort((a, b) => a.line - b.line || a.column - b.column);
    assignEnclosing(this.references, this.functions, this.types, this.variables);
    // `impl Trait for Type` belongs to Type, wherever Type is defined
    for (const { ref, owner } of this.implementRefs) ref.enclosing = owner;
    return { types: this.types, functions: this.functions, variables: this.variables, imports: this.imports, references: this.references };
  }
}

function countFields(body: Node | null): number {
  if (!body) return 0;
  if (body.type === "field_declaration_list") return body.namedChildren.filter((c) => c?.type === "field_declaration").length;
  if (body.type === "ordered_field_declaration_list") return body.childrenForFieldName("type").filter((c) => c !== null).length;
  return 0;
}

/** Rust: names come through `use`; `mod x;` is structure, not a dependency; `name: Type` declarations. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "rust",
  strictModules: true,
  selfQualifiers: ["self", "Self"],
  structuralImport: (line) => /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+[A-Za-z_]\w*\s*;/.test(line),
  packageScope: "declared-or-folder",
  types: { parameter: colonParameter, local: bindingLocal, field: colonField, returnType: arrowReturn },
  modulePath: moduleOfPath,
  testNames: [TEST_PREFIX, TEST_SUFFIX],
};

export const rust: LanguageModule = {
  id: "rust",
  extensions: [".rs"],
  grammar: "tree-sitter-rust.wasm",
  resolution: RULES,
  query: QUERY,
  isTestFile: (path) => /(^|\/)(tests|benches)\//.test(path) || /(^|\/)(tests|[^/]+_test)\.rs$/.test(path),

  extract(tree, ctx, matches): Extracted {
    const crates = new Set([...ctx.project.rustCrates, ...(ctx.project.rustCrateDirs ?? []).map((c) => c.name)]);
    const x = new RustExtractor(ctx.source, crates);
    x.walk(tree.rootNode, { path: modulePrefix(ctx.path) });
    x.useDeclarations();
    x.finishImpls();
    x.matches(matches);
    return x.result();
  },

  resolveImport: resolveRustImport,
};
