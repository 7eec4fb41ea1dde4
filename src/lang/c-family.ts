/**
 * What C and C++ share: one walk over the declaration levels of a translation unit (file scope,
 * preprocessor branches, extern "C" blocks, namespaces, class bodies, templates; never function
 * bodies), and one pass over the query's matches for calls, type uses, reads and decision points.
 * C++ is a superset, so C runs the same code with the C++ constructs simply absent from its trees.
 *
 * Rules, chosen so the statistics mean what a C or C++ programmer expects:
 * - Functions are the functions *defined* here (a body, `= default` / `= delete`), plus C++ pure
 *   virtual methods (`= 0`, the declaration is their only definition; bodyLines 0). Prototypes and
 *   member declarations whose body is elsewhere are not functions; they count toward methodCount.
 * - exported: a function or variable is exported unless `static` (internal linkage) or inside an
 *   anonymous namespace; `extern` declarations are not definitions and are skipped. A type, a
 *   `#define` constant and a C++ namespace-scope `const`/`constexpr` (internal linkage in C++) are
 *   exported when written in a header (.h .hh .hpp .hxx .h++ .inl .ipp .tpp), the only place other
 *   files can see them. A class member is exported when it is public and its class is exported; an
 *   out-of-line method takes the access of its declaration when the class is in the same file, and
 *   counts as exported otherwise.
 * - Qualified names follow the nesting as written: `ns.Class.method`, `Struct.Nested`, `Enum.MEMBER`.
 *   An out-of-line `void A::m() {}` is a method of A (receiverType `A` as written) unless A is a
 *   namespace declared in the same file.
 * - methodCount counts the member functions declared in the class body (inline or not); out-of-line
 *   definitions do not add to it again. fieldCount counts data members (an enum: its enumerators).
 * - A base class is an `implement` reference when it is defined earlier in the same file with no data
 *   members and only pure virtual methods (constructors and destructors aside); otherwise `inherit`.
 * - `#define NAME value` is a constant; a function-like macro (`#define container_of(p, t, m) …`) is a
 *   function, as Rust's `macro_rules!` is: its parameters counted, no return, complexity 1, exported
 *   when in a header, so that its definition is found and the calls written to it resolve (the kernel's
 *   `list_for_each_entry`, `container_of`). Valueless defines (include guards, feature flags) are not
 *   recorded. `#include <x>` is standard when x is a standard header, external
 *   otherwise; `#include "x"` is relative.
 */
import type { Node, Tree } from "web-tree-sitter";
import type { ExtractContext, Extracted, ProjectFiles, QueryMatch } from "./module.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, TypeKind, VariableFact } from "./types.ts";
import { dirOf, joinInside } from "../core/rel-path.ts";
import {
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
} from "./kit.ts";

export interface Dialect {
  cpp: boolean;
  /** Headers that `#include <x>` treats as the standard library. */
  stdHeaders: ReadonlySet<string>;
}

const HEADER_EXTENSIONS = /\.(h|hh|hpp|hxx|h\+\+|inl|ipp|tpp)$/i;

export const isHeaderPath = (path: string): boolean => HEADER_EXTENSIONS.test(path);

const isComment = (n: Node): boolean => n.type === "comment";

const TYPE_KINDS: Record<string, TypeKind> = {
  struct_specifier: "struct",
  union_specifier: "union",
  enum_specifier: "enum",
  class_specifier: "class",
};

const PREPROC_BRANCHES = new Set(["preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"]);

type Access = "public" | "protected" | "private";

/** The class (or struct / union) whose body the walk is in. */
interface Owner {
  fact: TypeFact;
  access: Access;
  exported: boolean;
  /** For the interface rule: data members, pure virtual methods, other methods (ctors and dtors aside). */
  fields: number;
  pure: number;
  concrete: number;
  /** Member name → exported, for out-of-line definitions in the same file. */
  members: Map<string, boolean>;
}

interface Scope {
  /** Qualified-name segments of the enclosing namespaces and classes. */
  path: string[];
  /** False inside an anonymous namespace (internal linkage). */
  visible: boolean;
  owner?: Owner;
}

/** A declarator taken apart: the name it declares and whether it declares a function. */
interface DeclaratorInfo {
  name?: Node;
  isFunction: boolean;
  /** The function_declarator, when isFunction. */
  fn?: Node;
  isPointer: boolean;
  /** The outermost pointer is itself const (`char *const p`). */
  constPointer: boolean;
  /** A qualified name (`A::count`, `ns::f`): a definition of something declared elsewhere. */
  qualified: boolean;
}

/** The name of a function declarator, split into the name and the scope written before it. */
interface NameParts {
  name: string;
  node: Node;
  /** Scope segments without template arguments: `Box<U>::m` → ["Box"]. */
  scope: string[];
  /** The scope as written: `Box<U>`, `app::Box`. */
  scopeText?: string;
}

function hasKeyword(node: Node, type: string, word: string): boolean {
  for (const c of node.namedChildren) if (c && c.type === type && c.text === word) return true;
  return false;
}

/**
 * hasKeyword for a declaration or definition whose keywords all sit in src[node.startIndex, end) (before
 * its first declarator: the grammar's specifiers precede the declarators): a keyword child's text is the
 * word itself, so where the text there does not hold the word, the children are not asked (each is a Node
 * object and two calls into WASM; the kernel's declarations are mostly neither static, extern nor const).
 */
function hasKeywordBefore(src: string, node: Node, end: number, type: string, word: string): boolean {
  // bounded: an indexOf from the start could run on through the rest of the file for every declaration
  return src.slice(node.startIndex, end).includes(word) && hasKeyword(node, type, word);
}

function declaratorChild(d: Node): Node | null {
  const f = d.childForFieldName("declarator");
  if (f) return f;
  const named = d.namedChildren.filter(
    (c): c is Node => c !== null && c.type !== "attribute_declaration" && c.type !== "type_qualifier" && c.type !== "ms_call_modifier",
  );
  return named[named.length - 1] ?? null;
}

/** Walks a declarator down to the name it declares. */
export function inspectDeclarator(d: Node | null): DeclaratorInfo {
  const info: DeclaratorInfo = { isFunction: false, isPointer: false, constPointer: false, qualified: false };
  let cur: Node | null = d;
  for (let depth = 0; cur && depth < 32; depth++) {
    switch (cur.type) {
      case "init_declarator":
      case "array_declarator":
      case "attributed_declarator":
      case "reference_declarator":
      case "parenthesized_declarator":
        cur = declaratorChild(cur);
        continue;
      case "pointer_declarator":
        if (!info.isPointer) info.constPointer = hasKeyword(cur, "type_qualifier", "const");
        info.isPointer = true;
        cur = declaratorChild(cur);
        continue;
      case "function_declarator": {
        let inner = cur.childForFieldName("declarator");
        while (inner && (inner.type === "parenthesized_declarator" || inner.type === "attributed_declarator")) inner = declaratorChild(inner);
        // `int (*fp)(int)` declares a pointer to a function: a variable, not a function
        if (inner && inner.type === "pointer_declarator") {
          cur = inner;
          continue;
        }
        info.isFunction = true;
        info.fn = cur;
        cur = inner;
        continue;
      }
      case "qualified_identifier":
        info.qualified = true;
        info.name = cur;
        return info;
      case "operator_cast": {
        // `operator bool() const`: a conversion function; its parameters sit in the abstract declarator
        const fn = cur.childForFieldName("declarator");
        info.isFunction = true;
        if (fn) info.fn = fn;
        info.name = cur;
        return info;
      }
      case "identifier":
      case "field_identifier":
      case "type_identifier":
      case "destructor_name":
      case "operator_name":
      case "template_function":
        info.name = cur;
        return info;
      default:
        return info;
    }
  }
  return info;
}

function scopeSegment(n: Node): string {
  if (n.type === "template_type") return n.childForFieldName("name")?.text ?? compactText(n);
  return compactText(n);
}

/** Splits a declared function name: `m`, `A::m`, `ns::A<T>::m`, `~A`, `operator==`, `f<int>`. */
export function nameParts(n: Node, src: string): NameParts | undefined {
  switch (n.type) {
    case "identifier":
    case "field_identifier":
    case "type_identifier":
      return { name: n.text, node: n, scope: [] };
    case "destructor_name":
    case "operator_name":
      return { name: n.text.replace(/\s+/g, " ").replace(/^operator\s+(?=\W)/, "operator"), node: n, scope: [] };
    case "template_function": {
      const name = n.childForFieldName("name");
      return name ? nameParts(name, src) : undefined;
    }
    case "operator_cast": {
      const t = n.childForFieldName("type");
      return { name: "operator " + (t ? compactText(t) : ""), node: n, scope: [] };
    }
    case "qualified_identifier": {
      const scope = n.childForFieldName("scope");
      const nameNode = n.childForFieldName("name");
      const inner = nameNode ? nameParts(nameNode, src) : undefined;
      if (!inner) return undefined;
      const segs = scope ? [scopeSegment(scope), ...inner.scope] : inner.scope;
      const scopeText = src
        .slice(n.startIndex, inner.node.startIndex)
        .replace(/::\s*$/, "")
        .replace(/\s+/g, "")
        .replace(/^::/, "");
      return { name: inner.name, node: inner.node, scope: segs, ...(scopeText ? { scopeText } : {}) };
    }
    default:
      return undefined;
  }
}

/** Counts the parameters of a parameter_list: `(void)` is none, `...` is one, K&R names count too. */
export function countParams(list: Node | null | undefined): number {
  if (!list) return 0;
  let n = 0;
  let onlyVoid = false;
  for (const p of list.namedChildren) {
    if (!p) continue;
    switch (p.type) {
      case "parameter_declaration":
        n++;
        onlyVoid = n === 1 && !p.childForFieldName("declarator") && p.childForFieldName("type")?.text === "void";
        break;
      case "optional_parameter_declaration":
      case "variadic_parameter_declaration":
      case "variadic_parameter":
      case "identifier":
        n++;
        onlyVoid = false;
        break;
    }
  }
  return n === 1 && onlyVoid ? 0 : n;
}

/** 0 for `void f()` (and constructors, destructors), 1 otherwise (`void *f()` returns a pointer). */
function returnCount(def: Node, declarator: Node | null, fn: Node | undefined): number {
  const t = def.childForFieldName("type");
  if (!t) return def.childForFieldName("declarator")?.type === "operator_cast" ? 1 : 0;
  let d = declarator;
  while (d && (d.type === "attributed_declarator" || d.type === "parenthesized_declarator")) d = declaratorChild(d);
  if (t.type === "primitive_type" && t.text === "void") return d && d.type === "function_declarator" ? 0 : 1;
  if (t.type === "placeholder_type_specifier" && fn) {
    const trailing = fn.namedChildren.find((c) => c?.type === "trailing_return_type");
    if (trailing && trailing.text.replace(/^->\s*/, "") === "void") return 0;
  }
  return 1;
}

class CFamilyExtractor {
  readonly types: TypeFact[] = [];
  readonly functions: FunctionFact[] = [];
  readonly variables: VariableFact[] = [];
  readonly imports: ImportFact[] = [];
  readonly references: ReferenceFact[] = [];
  /** ids of type_identifier nodes that name a definition or a base class (not type uses). */
  private readonly skipTypeIds = new Set<number>();
  private readonly templateParams = new Set<string>();
  private readonly namespaces = new Set<string>();
  /** Class name → whether it is a pure interface (for `implement` references). */
  private readonly interfaces = new Map<string, boolean>();
  /** Qualified class name → member name → exported. */
  private readonly members = new Map<string, Map<string, boolean>>();
  /** Names of file-scope values (variables, constants, enumerators): reads of these are references. */
  readonly values = new Set<string>();
  /** ids of identifiers that declare a value or name a callee (not reads). */
  private readonly skipIdentIds = new Set<number>();
  private readonly header: boolean;

  constructor(
    private readonly src: string,
    path: string,
    private readonly dialect: Dialect,
    /** Where the parser's MISSING nodes start (ExtractContext.missingStarts); undefined: not known. */
    private readonly missingStarts?: ReadonlySet<number>,
  ) {
    this.header = isHeaderPath(path);
  }

  /** The text of an identifier, type_identifier or field_identifier node (tokenText). */
  private name(n: Node): string {
    return tokenText(this.src, n, this.missingStarts);
  }

  /** The children of the container being walked, and the index of the current one (for doc comments). */
  private siblings: Array<Node | null> = [];
  private index = -1;

  walk(container: Node, scope: Scope): void {
    const saved = this.siblings;
    const savedIndex = this.index;
    const children = container.namedChildren;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!child) continue;
      this.siblings = children;
      this.index = i;
      this.item(child, scope, child);
    }
    this.siblings = saved;
    this.index = savedIndex;
  }

  /**
   * First line of the comments directly above a declaration. Read from the walked sibling array:
   * `previousSibling` scans the parent's children from the start, quadratic over a long file.
   */
  private doc(decl: Node): number | undefined {
    if (this.siblings[this.index]?.id !== decl.id) return docStartLine(decl, isComment);
    let expected = line(decl) - 1;
    let start: number | undefined;
    for (let j = this.index - 1; j >= 0; j--) {
      const prev = this.siblings[j];
      if (!prev || !isComment(prev) || endLine(prev) !== expected) break;
      start = line(prev);
      expected = start - 1;
    }
    return start;
  }

  private item(node: Node, scope: Scope, outer: Node): void {
    switch (node.type) {
      case "preproc_if":
      case "preproc_ifdef":
      case "preproc_else":
      case "preproc_elif":
      case "preproc_elifdef":
      case "ERROR":
        // an unparsable stretch (often a macro the grammar cannot know) still holds whole definitions
        this.walk(node, scope);
        break;
      case "linkage_specification": {
        const body = node.childForFieldName("body");
        if (body?.type === "declaration_list") this.walk(body, scope);
        else if (body) this.item(body, scope, node);
        break;
      }
      case "namespace_definition":
        this.namespace(node, scope);
        break;
      case "template_declaration":
        this.template(node, scope, outer);
        break;
      case "function_definition":
        this.functionDefinition(node, scope, outer);
        break;
      case "declaration":
        this.declaration(node, scope, outer);
        break;
      case "field_declaration":
        if (scope.owner) this.fieldDeclaration(node, scope, scope.owner, outer);
        break;
      case "type_definition":
        this.typedef(node, scope, outer);
        break;
      case "alias_declaration":
        this.usingAlias(node, scope, outer);
        break;
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier":
      case "class_specifier":
        if (node.childForFieldName("body")) this.typeSpecifier(node, scope, outer);
        break;
      case "access_specifier":
        if (scope.owner) scope.owner.access = node.text.replace(/\s*:$/, "") as Access;
        break;
      case "preproc_def":
        this.define(node);
        break;
      case "preproc_function_def":
        this.macroFunction(node);
        break;
      case "preproc_include":
        this.include(node);
        break;
    }
  }

  private template(node: Node, scope: Scope, outer: Node): void {
    let inner: Node | undefined;
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "template_parameter_list") {
        for (const p of c.namedChildren) {
          if (!p) continue;
          const name = p.type.endsWith("type_parameter_declaration")
            ? (p.childForFieldName("name") ?? p.namedChildren.find((x) => x?.type === "type_identifier"))
            : p.childForFieldName("declarator");
          if (name && (name.type === "type_identifier" || name.type === "identifier")) this.templateParams.add(name.text);
        }
      } else if (c.type !== "requires_clause" && !isComment(c)) inner = c;
    }
    // the template header belongs to the definition: its span, signature and doc comment start there
    if (inner) this.item(inner, scope, outer);
  }

  private namespace(node: Node, scope: Scope): void {
    const nameNode = node.childForFieldName("name");
    const body = node.childForFieldName("body");
    if (!nameNode) {
      if (body) this.walk(body, { path: scope.path, visible: false });
      return;
    }
    const segs =
      nameNode.type === "nested_namespace_specifier"
        ? nameNode.namedChildren.filter((c): c is Node => c !== null && c.type === "namespace_identifier").map((c) => c.text)
        : [nameNode.text];
    for (const s of segs) this.namespaces.add(s);
    const fact: TypeFact = {
      name: segs[segs.length - 1]!,
      qualifiedName: qualify(...scope.path, ...segs),
      kind: "namespace",
      startLine: line(node),
      endLine: endLine(node),
      startColumn: column(node),
      exported: scope.visible,
      fieldCount: 0,
      methodCount: 0,
    };
    const doc = this.doc(node);
    if (doc !== undefined) fact.docStartLine = doc;
    this.types.push(fact);
    if (body) this.walk(body, { path: [...scope.path, ...segs], visible: scope.visible });
  }

  /** `end`: where the node's keywords end at the latest (its first declarator's start). */
  private isStatic(node: Node, end: number): boolean {
    return hasKeywordBefore(this.src, node, end, "storage_class_specifier", "static");
  }

  private functionDefinition(node: Node, scope: Scope, outer: Node): void {
    const declarator = node.childForFieldName("declarator");
    if (!declarator) return;
    const info = inspectDeclarator(declarator);
    if (!info.isFunction || !info.name) return;
    const fn = info.fn;
    const parts = nameParts(info.name, this.src);
    if (!parts) return;
    this.skipIdentIds.add(parts.node.id); // a function named like a macro constant does not read it
    const body = node.childForFieldName("body");
    const owner = scope.owner;
    let qualifiedName: string;
    let receiverType: string | undefined;
    let exported: boolean;
    if (owner) {
      receiverType = owner.fact.name;
      qualifiedName = qualify(...scope.path, parts.name);
      exported = owner.exported && owner.access === "public";
      this.noteMember(owner, parts.name, exported, "concrete");
    } else if (parts.scope.length > 0 && !this.namespaces.has(parts.scope[parts.scope.length - 1]!)) {
      receiverType = parts.scopeText ?? parts.scope.join("::");
      qualifiedName = qualify(...scope.path, ...parts.scope, parts.name);
      const declared = this.members.get(qualify(...scope.path, ...parts.scope))?.get(parts.name);
      exported = scope.visible && (declared ?? true);
    } else {
      qualifiedName = qualify(...scope.path, ...parts.scope, parts.name);
      exported = scope.visible && !this.isStatic(node, declarator.startIndex);
    }
    const fact: FunctionFact = {
      name: parts.name,
      qualifiedName,
      startLine: line(outer),
      endLine: endLine(outer),
      startColumn: column(outer),
      exported,
      isMethod: receiverType !== undefined,
      paramCount: countParams(fn?.childForFieldName("parameters")),
      returnCount: returnCount(node, declarator, fn),
      bodyLines: spanLines(body),
      complexity: 1,
      signature: signatureOf(this.src, outer, body),
    };
    if (receiverType !== undefined) fact.receiverType = receiverType;
    const doc = this.doc(outer);
    if (doc !== undefined) fact.docStartLine = doc;
    this.functions.push(fact);
  }

  /** Records a member function declared or defined in a class body. */
  private noteMember(owner: Owner, name: string, exported: boolean, kind: "pure" | "concrete"): void {
    owner.fact.methodCount++;
    owner.members.set(name, exported);
    const special = name === owner.fact.name || name.startsWith("~");
    if (kind === "pure") owner.pure++;
    else if (!special) owner.concrete++;
  }

  private declaration(node: Node, scope: Scope, outer: Node): void {
    const type = node.childForFieldName("type");
    if (type && TYPE_KINDS[type.type] && type.childForFieldName("body")) this.typeSpecifier(type, scope, outer);
    const owner = scope.owner;
    // the keywords are read once, up to the first declarator (they precede it), and only when needed
    let keywords: { isStatic: boolean; isExtern: boolean; isConst: boolean } | undefined;
    let head = -1;
    for (const d of node.childrenForFieldName("declarator")) {
      if (!d) continue;
      if (head < 0) head = d.startIndex;
      const info = inspectDeclarator(d);
      if (!info.name) continue;
      if (info.isFunction) {
        this.skipIdentIds.add(info.name.id);
        // a prototype at file scope is not a definition; in a class body it declares a member
        if (owner) {
          const parts = nameParts(info.name, this.src);
          if (parts) this.noteMember(owner, parts.name, owner.exported && owner.access === "public", "concrete");
        }
        continue;
      }
      if (owner) {
        owner.fact.fieldCount++;
        owner.fields++;
        continue;
      }
      keywords ??= {
        isStatic: this.isStatic(node, head),
        isExtern: hasKeywordBefore(this.src, node, head, "storage_class_specifier", "extern"),
        isConst: hasKeywordBefore(this.src, node, head, "type_qualifier", "const") || hasKeywordBefore(this.src, node, head, "type_qualifier", "constexpr"),
      };
      const { isStatic, isExtern, isConst } = keywords;
      if (isExtern || info.qualified || info.name.type !== "identifier") continue;
      const constant = isConst && (!info.isPointer || info.constPointer);
      // a C++ namespace-scope const has internal linkage: only a header shares it
      const exported = scope.visible && !isStatic && (constant && this.dialect.cpp ? this.header : true);
      const name = this.name(info.name);
      this.values.add(name);
      this.skipIdentIds.add(info.name.id);
      this.variables.push({
        name,
        qualifiedName: qualify(...scope.path, name),
        kind: constant ? "constant" : "variable",
        startLine: line(outer),
        endLine: endLine(outer),
        startColumn: column(outer),
        exported,
      });
    }
  }

  private fieldDeclaration(node: Node, scope: Scope, owner: Owner, outer: Node): void {
    const type = node.childForFieldName("type");
    const nested = type && TYPE_KINDS[type.type] && type.childForFieldName("body") ? type : undefined;
    if (nested) this.typeSpecifier(nested, scope, outer);
    const declarators = node.childrenForFieldName("declarator").filter((d): d is Node => d !== null);
    if (declarators.length === 0) {
      // `struct Inner {...};` only declares a type; `union {...};` is an anonymous member
      if (!nested?.childForFieldName("name")) {
        owner.fact.fieldCount++;
        owner.fields++;
      }
      return;
    }
    for (const d of declarators) {
      const info = inspectDeclarator(d);
      if (!info.isFunction) {
        owner.fact.fieldCount++;
        owner.fields++;
        continue;
      }
      const parts = info.name ? nameParts(info.name, this.src) : undefined;
      if (!parts) continue;
      const exported = owner.exported && owner.access === "public";
      const pure = node.childForFieldName("default_value")?.text === "0";
      this.noteMember(owner, parts.name, exported, pure ? "pure" : "concrete");
      if (!pure) continue;
      // a pure virtual method is defined (as abstract) by this declaration alone
      const fact: FunctionFact = {
        name: parts.name,
        qualifiedName: qualify(...scope.path, parts.name),
        startLine: line(outer),
        endLine: endLine(outer),
        startColumn: column(outer),
        exported,
        isMethod: true,
        receiverType: owner.fact.name,
        paramCount: countParams(info.fn?.childForFieldName("parameters")),
        returnCount: returnCount(node, d, info.fn),
        bodyLines: 0,
        complexity: 1,
        signature: signatureOf(this.src, outer, null).replace(/\s*=\s*0\s*;$/, ""),
      };
      const doc = this.doc(outer);
      if (doc !== undefined) fact.docStartLine = doc;
      this.functions.push(fact);
    }
  }

  private typeExported(scope: Scope): boolean {
    if (scope.owner) return scope.owner.exported && scope.owner.access === "public";
    return scope.visible && this.header;
  }

  private pushType(name: string, kind: TypeKind, scope: Scope, span: Node, docNode: Node): TypeFact {
    const fact: TypeFact = {
      name,
      qualifiedName: qualify(...scope.path, name),
      kind,
      startLine: line(span),
      endLine: endLine(span),
      startColumn: column(span),
      exported: this.typeExported(scope),
      fieldCount: 0,
      methodCount: 0,
    };
    if (scope.owner) fact.container = scope.owner.fact.name;
    const doc = this.doc(docNode);
    if (doc !== undefined) fact.docStartLine = doc;
    this.types.push(fact);
    return fact;
  }

  /** A struct, union, enum or class with a body. `forcedName` names an anonymous one (typedef). */
  private typeSpecifier(spec: Node, scope: Scope, outer: Node, forcedName?: string): void {
    const kind = TYPE_KINDS[spec.type]!;
    const body = spec.childForFieldName("body");
    let nameNode = spec.childForFieldName("name");
    if (nameNode?.type === "template_type") nameNode = nameNode.childForFieldName("name");
    if (nameNode?.type === "qualified_identifier") nameNode = nameParts(nameNode, this.src)?.node ?? null;
    if (nameNode) this.skipTypeIds.add(nameNode.id);
    const name = nameNode?.text ?? forcedName;
    if (kind === "enum") {
      const fact = name ? this.pushType(name, kind, scope, outer, outer) : undefined;
      if (body) this.enumerators(body, scope, fact, fact?.exported ?? this.typeExported(scope));
      return;
    }
    if (!name || !body) return;
    const fact = this.pushType(name, kind, scope, outer, outer);
    if (this.dialect.cpp) this.baseClasses(spec);
    const owner: Owner = {
      fact,
      access: kind === "class" ? "private" : "public",
      exported: fact.exported,
      fields: 0,
      pure: 0,
      concrete: 0,
      members: new Map(),
    };
    const memberScope: Scope = { path: [...scope.path, name], visible: scope.visible, owner };
    this.members.set(memberScope.path.join("."), owner.members);
    this.walk(body, memberScope);
    this.interfaces.set(name, owner.fields === 0 && owner.pure > 0 && owner.concrete === 0);
  }

  private enumerators(list: Node, scope: Scope, owner: TypeFact | undefined, exported: boolean): void {
    for (const e of list.namedChildren) {
      if (!e) continue;
      if (PREPROC_BRANCHES.has(e.type)) {
        this.enumerators(e, scope, owner, exported);
        continue;
      }
      if (e.type !== "enumerator") continue;
      const nameNode = e.childForFieldName("name");
      if (!nameNode) continue;
      const name = this.name(nameNode);
      this.values.add(name);
      this.skipIdentIds.add(nameNode.id);
      const v: VariableFact = {
        name,
        qualifiedName: qualify(...scope.path, owner?.name, name),
        kind: "enum_member",
        startLine: line(e),
        endLine: endLine(e),
        startColumn: column(nameNode),
        exported,
      };
      if (owner) {
        v.container = owner.name;
        owner.fieldCount++;
      }
      this.variables.push(v);
    }
  }

  private baseClasses(spec: Node): void {
    const clause = spec.namedChildren.find((c) => c?.type === "base_class_clause");
    if (!clause) return;
    for (const b of clause.namedChildren) {
      if (!b) continue;
      let nameNode: Node | null = b;
      let qualifier: string | undefined;
      if (b.type === "qualified_identifier") {
        const parts = nameParts(b, this.src);
        nameNode = b.childForFieldName("name");
        if (parts?.scopeText) qualifier = parts.scopeText;
      }
      if (nameNode?.type === "template_type") nameNode = nameNode.childForFieldName("name");
      if (nameNode?.type !== "type_identifier") continue;
      this.skipTypeIds.add(nameNode.id);
      const kind = this.interfaces.get(nameNode.text) ? "implement" : "inherit";
      this.references.push(refAt(nameNode.text, kind, nameNode, qualifier || undefined));
    }
  }

  private typedef(node: Node, scope: Scope, outer: Node): void {
    const type = node.childForFieldName("type");
    const names: Node[] = [];
    let plain: Node | undefined;
    for (const d of node.childrenForFieldName("declarator")) {
      if (!d) continue;
      const info = inspectDeclarator(d);
      if (info.name?.type !== "type_identifier") continue;
      names.push(info.name);
      if (!plain && d.type === "type_identifier") plain = info.name;
    }
    let defined: string | undefined;
    if (type && TYPE_KINDS[type.type] && type.childForFieldName("body")) {
      const tag = type.childForFieldName("name");
      // `typedef struct {...} Name;`: the typedef names the anonymous struct itself
      defined = tag ? tag.text : plain?.text;
      this.typeSpecifier(type, scope, outer, tag ? undefined : defined);
    }
    for (const n of names) {
      this.skipTypeIds.add(n.id);
      if (n.text !== defined) this.pushType(n.text, "type_alias", scope, outer, outer);
    }
  }

  private usingAlias(node: Node, scope: Scope, outer: Node): void {
    const nameNode = node.childForFieldName("name");
    if (!nameNode) return;
    this.skipTypeIds.add(nameNode.id);
    this.pushType(nameNode.text, "type_alias", scope, outer, outer);
  }

  private define(node: Node): void {
    const nameNode = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (!nameNode || !value || textOf(this.src, value).trim() === "") return;
    const name = this.name(nameNode);
    this.values.add(name);
    this.skipIdentIds.add(nameNode.id);
    this.variables.push({
      name,
      qualifiedName: name,
      kind: "constant",
      startLine: line(node),
      endLine: endLine(node),
      startColumn: column(nameNode),
      exported: this.header,
    });
  }

  private macroFunction(node: Node): void {
    const nameNode = node.childForFieldName("name");
    if (!nameNode) return;
    const name = this.name(nameNode);
    this.skipIdentIds.add(nameNode.id);
    const params = node.childForFieldName("parameters");
    const fact: FunctionFact = {
      name,
      qualifiedName: name,
      startLine: line(node),
      endLine: endLine(node),
      startColumn: column(node),
      exported: this.header,
      isMethod: false,
      paramCount: params ? params.children.filter((c) => c?.type === "identifier" || c?.type === "...").length : 0,
      returnCount: 0,
      bodyLines: spanLines(node),
      complexity: 1,
      signature: `#define ${name}${params ? params.text.replace(/\s+/g, " ") : ""}`,
    };
    const doc = this.doc(node);
    if (doc !== undefined) fact.docStartLine = doc;
    this.functions.push(fact);
  }

  private include(node: Node): void {
    const pathNode = node.childForFieldName("path");
    if (!pathNode) return;
    let module: string;
    let cls: Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative">;
    if (pathNode.type === "system_lib_string") {
      module = pathNode.text.slice(1, -1).trim();
      const std = this.dialect.stdHeaders.has(module);
      cls = { isStandardLib: std, isExternal: !std, isRelative: false };
    } else if (pathNode.type === "string_literal") {
      module = pathNode.text.slice(1, -1);
      cls = { isStandardLib: false, isExternal: false, isRelative: true };
    } else return; // `#include MACRO`: computed, nothing to record
    if (module.length === 0) return;
    this.imports.push({ module, ...cls, symbols: [], ...at(node) });
    // the header's name as written, just inside the quotes or angle brackets
    const p = at(pathNode);
    this.references.push({ name: module, kind: "import", line: p.line, column: p.column + 1 });
  }

  /**
   * Second stage: calls, type uses, reads and decision points from the query's matches. Nothing here
   * climbs to a parent (each `parent` look-up walks down from the root: quadratic on deep expressions);
   * what a node's context decides comes from the query's own captures, matched by node id.
   */
  matches(matches: QueryMatch[], root: Node): void {
    const decisions: Node[] = [];
    const logic: Node[] = [];
    const notLogic = new Set<number>();
    const typeNodes: Node[] = [];
    /** type_identifier id → the scope written before it, the longest seen. */
    const scopes = new Map<number, Node>();
    for (const m of matches) {
      const decision = m.decision;
      if (decision) {
        decisions.push(decision);
        continue;
      }
      const op = m.logic;
      if (op) {
        logic.push(op);
        continue;
      }
      const notOp = m.notlogic;
      if (notOp) {
        notLogic.add(notOp.id);
        continue;
      }
      const fn = m["call.fn"];
      if (fn) {
        this.call(fn);
        continue;
      }
      const created = m["new.type"];
      if (created) {
        this.construction(created);
        continue;
      }
      const def = m["type.def"];
      if (def) {
        this.skipTypeIds.add(def.id);
        continue;
      }
      const qname = m["type.qname"];
      const scope = m["type.scope"];
      if (qname && scope) {
        const prev = scopes.get(qname.id);
        if (!prev || scope.startIndex < prev.startIndex) scopes.set(qname.id, scope);
        continue;
      }
      const type = m.type;
      if (type) typeNodes.push(type);
    }
    // `&&` is also an rvalue reference, a ref-qualifier, a constraint conjunction: only operators decide
    for (const op of logic) if (!notLogic.has(op.id)) decisions.push(op);
    for (const t of typeNodes) this.typeUse(t, scopes.get(t.id));
    this.valueReads(root);
    attributeComplexity(this.functions, decisions);
  }

  /**
   * Reads of file-scope values: every `identifier` node whose text names one, in document order. The
   * query used to capture every identifier of the file for this (2.84 million captures on 3,000 kernel
   * files, each a Node object and a text read, to keep a few); now the text says where a value's name can
   * be, and the tree is asked only there: each run of identifier characters that is a value's name, then
   * the smallest node spanning it, kept when it is an identifier spanning exactly the run (not a field,
   * a type, a comment or a string). An identifier is a maximal
   * run (the grammar's token is greedy over the same characters); a name the runs cannot express (a
   * `\u` escape) is looked for by plain search.
   */
  private valueReads(root: Node): void {
    if (this.values.size === 0) return;
    const src = this.src;
    if (this.values.has("")) {
      // a declaration whose name the parser had to invent (MISSING, empty): such names sit in no text, so
      // every identifier is read, as the capture did
      for (const ident of root.descendantsOfType("identifier")) {
        if (!ident || this.skipIdentIds.has(ident.id) || !this.values.has(ident.text)) continue;
        this.references.push(refAt(ident.text, "read", ident));
      }
      return;
    }
    const candidates = valueNameRuns(src, this.values);
    if (candidates.length === 0) return;
    // the file's top-level nodes are stepped through forward (a cursor); inside one, tree-sitter finds the
    // smallest node spanning the run (descendantForIndex, in WASM)
    const cursor = root.walk();
    try {
      if (!cursor.gotoFirstChild()) return;
      let top: Node | undefined;
      for (const [start, end] of candidates) {
        let moved = false;
        while (cursor.endIndex <= start) {
          if (!cursor.gotoNextSibling()) return;
          moved = true;
        }
        if (cursor.startIndex > start) continue;
        if (moved || !top) top = cursor.currentNode;
        const node = top.descendantForIndex(start, end);
        if (!node || node.startIndex !== start || node.endIndex !== end || node.type !== "identifier" || this.skipIdentIds.has(node.id)) continue;
        this.references.push(refAt(src.slice(start, end), "read", node));
      }
    } finally {
      cursor.delete();
    }
  }

  private call(fn: Node): void {
    switch (fn.type) {
      case "identifier": {
        this.skipIdentIds.add(fn.id);
        const name = this.name(fn);
        // `T()` with T a template parameter constructs whatever T is: no project symbol
        if (!this.templateParams.has(name)) this.references.push(refAt(name, "call", fn));
        return;
      }
      case "field_expression": {
        let field = fn.childForFieldName("field");
        if (field?.type === "template_method") field = field.childForFieldName("name");
        const object = fn.childForFieldName("argument");
        if (!field || (field.type !== "field_identifier" && field.type !== "identifier")) return;
        this.references.push(refAt(this.name(field), "call", field, object ? compactText(object) : undefined));
        return;
      }
      case "qualified_identifier":
      case "template_function": {
        const parts = nameParts(fn, this.src);
        if (parts?.node.type !== "identifier") return;
        this.references.push(refAt(parts.name, "call", parts.node, parts.scopeText || undefined));
        return;
      }
    }
  }

  /** `new Foo(...)`: a call of Foo's constructor. */
  private construction(type: Node): void {
    let n: Node | null = type;
    let qualifier: string | undefined;
    if (n.type === "qualified_identifier") {
      const parts = nameParts(n, this.src);
      qualifier = parts?.scopeText;
      n = n.childForFieldName("name");
    }
    if (n?.type === "template_type") n = n.childForFieldName("name");
    if (n?.type !== "type_identifier") return;
    this.skipTypeIds.add(n.id);
    this.references.push(refAt(n.text, "call", n, qualifier || undefined));
  }

  private typeUse(t: Node, scope: Node | undefined): void {
    if (this.skipTypeIds.has(t.id)) return;
    const name = this.name(t);
    if (this.templateParams.size > 0 && this.templateParams.has(name)) return;
    // `std::vector<int>`, `a::b::C`: the scopes written before the name qualify it
    const qualifier = scope
      ? this.src
          .slice(scope.startIndex, t.startIndex)
          .replace(/\s+/g, "")
          .replace(/<[^:]*>::$/, "::")
          .replace(/::$/, "")
          .replace(/^::/, "")
      : undefined;
    this.references.push(refAt(name, "type", t, qualifier || undefined));
  }

  result(): Extracted {
    assignEnclosing(this.references, this.functions, this.types, this.variables);
    return { types: this.types, functions: this.functions, variables: this.variables, imports: this.imports, references: this.references };
  }
}

export function extractCFamily(tree: Tree, ctx: ExtractContext, matches: QueryMatch[], dialect: Dialect): Extracted {
  const x = new CFamilyExtractor(ctx.source, ctx.path, dialect, ctx.missingStarts);
  x.walk(tree.rootNode, { path: [], visible: true });
  x.matches(matches, tree.rootNode);
  return x.result();
}

/**
 * The text of a node that is one identifier token (identifier, type_identifier, field_identifier), read
 * from the source without asking the tree where it ends (one call into WASM per read: the kernel's C
 * files make about 160 such reads a file, for calls and type names): the grammar's identifier token is
 * greedy, so it is the whole run of identifier characters from its start. The tree is asked instead where
 * the run meets a character beyond ASCII or a backslash (a `\\u` escape, a line continuation), where the
 * run is empty, and at the start of a MISSING node (the parser's invented tokens have no text, and one can
 * start where a real identifier does); and always when those starts are not known.
 */
export function tokenText(src: string, n: Node, missingStarts: ReadonlySet<number> | undefined): string {
  const start = n.startIndex;
  if (missingStarts && !missingStarts.has(start)) {
    const len = src.length;
    let end = start;
    let c = 0;
    while (end < len) {
      c = src.charCodeAt(end);
      if (c >= 128 || ASCII_IDENTIFIER[c] === 0) break;
      end++;
    }
    if (end > start && (end === len || (c < 128 && c !== 92))) return src.slice(start, end);
  }
  return src.slice(start, n.endIndex);
}

/** A run of the characters of a C or C++ identifier (tree-sitter-c: XID_Continue and `$`; `\\u` escapes aside). */
const WHOLE_RUN = /^[\p{XID_Continue}$]+$/u;
/** The run starting exactly at lastIndex (sticky), for runs that hold a character beyond ASCII. */
const RUN_AT = /[\p{XID_Continue}$]+/uy;

/** Below this many names, each is looked for by indexOf; from it on, the text is cut into runs once. */
const NAMES_SEARCHED_ONE_BY_ONE = 24;

/** An ASCII character of identifiers (letters, digits, `_`, `$`). */
function isAsciiIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

/** 1 for the char codes below 128 that isAsciiIdentifierChar accepts (a table look-up is faster in the scan). */
const ASCII_IDENTIFIER = Uint8Array.from({ length: 128 }, (_, c) => (isAsciiIdentifierChar(c) ? 1 : 0));

/** The end of the identifier run starting at `i` (`i` itself when none starts there). */
function runEndAt(src: string, i: number): number {
  RUN_AT.lastIndex = i;
  return RUN_AT.test(src) ? RUN_AT.lastIndex : i;
}

/** A 32-bit hash of a run's char codes, computed as the scan goes (h * 31 + c). */
function runHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Every maximal run of identifier characters whose text is one of `names`, in document order: the runs
 * of the regular expression /[\p{XID_Continue}$]+/gu, found by a char-code scan (the expression ran over
 * every file's whole text), which hands a run over to the expression only where it meets a character
 * beyond ASCII. An ASCII run is hashed as it is scanned and cut out of the text only when a name has its
 * hash (cutting and looking up every run cost more than the scan).
 */
function namedRuns(src: string, names: ReadonlySet<string>, out: Array<[number, number]>): void {
  // a bit per hash value's low 16 bits: a run whose bit is clear names nothing (a Set of hashes cost more)
  const maybe = new Uint8Array(65536);
  for (const name of names) maybe[runHash(name) & 0xffff] = 1;
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    let end: number;
    if (c < 128) {
      if (ASCII_IDENTIFIER[c] === 0) {
        i++;
        continue;
      }
      let h = c;
      end = i + 1;
      while (end < n) {
        const d = src.charCodeAt(end);
        if (d >= 128 || ASCII_IDENTIFIER[d] === 0) break;
        h = (Math.imul(h, 31) + d) | 0;
        end++;
      }
      if (end === n || src.charCodeAt(end) < 128) {
        if (maybe[h & 0xffff] === 1 && names.has(src.slice(i, end))) out.push([i, end]);
        i = end;
        continue;
      }
      end = runEndAt(src, i);
    } else {
      end = runEndAt(src, i);
      if (end === i) {
        // not a run character: step over it whole (a surrogate pair is one code point)
        i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
        continue;
      }
    }
    if (names.has(src.slice(i, end))) out.push([i, end]);
    i = end;
  }
}

/**
 * Where the text has a run of identifier characters equal to one of `names`: [start, end) pairs in
 * document order. A name that is not a run itself (a `\\u` escape inside) is found wherever it occurs.
 * Few names are each searched for (indexOf, then the characters either side must not continue an ASCII
 * identifier); many are met by cutting the whole text into runs once.
 */
export function valueNameRuns(src: string, names: ReadonlySet<string>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let sorted = true;
  if (names.size >= NAMES_SEARCHED_ONE_BY_ONE) {
    namedRuns(src, names, out);
    for (const name of names) {
      if (name.length === 0 || WHOLE_RUN.test(name)) continue;
      sorted = false;
      for (let i = src.indexOf(name); i >= 0; i = src.indexOf(name, i + 1)) out.push([i, i + name.length]);
    }
  } else {
    for (const name of names) {
      if (name.length === 0) continue;
      const whole = WHOLE_RUN.test(name);
      for (let i = src.indexOf(name); i >= 0; i = src.indexOf(name, i + 1)) {
        const end = i + name.length;
        if (whole && ((i > 0 && isAsciiIdentifierChar(src.charCodeAt(i - 1))) || (end < src.length && isAsciiIdentifierChar(src.charCodeAt(end))))) continue;
        out.push([i, end]);
      }
      if (out.length > 0) sorted = false;
    }
  }
  if (!sorted) out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out;
}

/** Shared test-file convention: a tests?/ directory anywhere in the path, or a test_ / _test stem. */
export function cFamilyTestFile(path: string, suffixes: string[]): boolean {
  if (/(^|\/)tests?\//i.test(path)) return true;
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem.startsWith("test_") || suffixes.some((s) => stem.endsWith(s));
}

/**
 * The project file an `#include` names: for `"x.h"` the file next to the includer first; then, for
 * quoted and angle-bracket includes alike, `include/x.h`, `src/x.h` and `x.h` under each folder from
 * the includer's up to the root (the -I roots projects use). Standard headers resolve to nothing.
 */
export function resolveInclude(imp: ImportFact, fromPath: string, files: ProjectFiles): string[] {
  if (imp.isStandardLib) return [];
  const dir = dirOf(fromPath);
  // the candidates in order, each tried as it is made: the first that is a project file wins
  if (imp.isRelative) {
    const c = joinInside(dir, imp.module);
    if (c && files.has(c)) return [c];
  }
  const inInclude = "include/" + imp.module;
  const inSrc = "src/" + imp.module;
  for (let d: string | undefined = dir; d !== undefined; d = d === "" ? undefined : dirOf(d)) {
    for (const rel of [inInclude, inSrc, imp.module]) {
      const c = joinInside(d, rel);
      if (c && files.has(c)) return [c];
    }
  }
  return [];
}
