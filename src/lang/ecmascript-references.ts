/**
 * Imports and use sites of a TypeScript / JavaScript file: import statements, re-exports, `require` and
 * `import()`, calls, constructors, JSX components, decorators, heritage, type uses and reads of
 * module-level names. Fed by src/lang/ecmascript-extract.ts, which owns the definitions; it reads nodes
 * downwards only (the few `require` bindings excepted).
 */
import type { Node } from "web-tree-sitter";
import type { ImportFact, ReferenceFact, ReferenceKind } from "./types.ts";
import type { ProjectInfo } from "./project.ts";
import { at, readsIdentifier } from "./kit.ts";
import { classifySpecifier } from "./ecmascript-imports.ts";
import { firstNamed, literalString, memberName, textOf } from "./ecmascript-nodes.ts";
import { nameOccurrences } from "./source-text.ts";

/** TypeScript's lib types: uses of these are not references to project code. */
const BUILTIN_TYPES = new Set([
  "Array",
  "ReadonlyArray",
  "ArrayLike",
  "Promise",
  "PromiseLike",
  "Awaited",
  "Record",
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Omit",
  "Exclude",
  "Extract",
  "NonNullable",
  "Parameters",
  "ReturnType",
  "InstanceType",
  "ConstructorParameters",
  "ThisParameterType",
  "OmitThisParameter",
  "ThisType",
  "NoInfer",
  "Uppercase",
  "Lowercase",
  "Capitalize",
  "Uncapitalize",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "ReadonlyMap",
  "ReadonlySet",
  "Date",
  "RegExp",
  "Error",
  "TypeError",
  "RangeError",
  "SyntaxError",
  "Function",
  "Object",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "BigInt",
  "Iterable",
  "Iterator",
  "IterableIterator",
  "AsyncIterable",
  "AsyncIterator",
  "AsyncIterableIterator",
  "Generator",
  "AsyncGenerator",
  "PropertyKey",
  "PropertyDescriptor",
  "TemplateStringsArray",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "JSON",
  "Math",
  "Console",
]);

/** What a `type_identifier` is besides a use: a type parameter, a declared name, or the name in `ns.Type` (its namespace node). */
export type TypeRole = "parameter" | "declared" | Node;

export interface ReferenceInput {
  bucket: (capture: string) => Node[];
  /** `object.property` with an identifier object, and the member expression. */
  members: Array<[Node, Node, Node]>;
  typeRoles: Map<number, TypeRole>;
  /** Names of module-level values whose reads are recorded. */
  values: Set<string>;
  /** Type names the file declares (a declared `Map` is project code, not the lib's). */
  declaredTypes: Set<string>;
  /** The file's tree, where bareReads asks about each occurrence of a value's name. */
  root: Node;
}

/**
 * Where an identifier is no read, by its parent (readsIdentifier): parameters, patterns, imports and
 * exports (false), the field of a parent that declares or assigns rather than reads, callees (recorded as
 * calls), and members: `NAME.x` is recorded through the member (`x` qualified by NAME) when NAME is a
 * module alias, an import or a module-level value, or not at all.
 */
const NOT_READ: Record<string, string | false> = {
  import_specifier: false,
  import_clause: false,
  namespace_import: false,
  export_specifier: false,
  formal_parameters: false,
  required_parameter: false,
  optional_parameter: false,
  rest_pattern: false,
  array_pattern: false,
  object_pattern: false,
  pair_pattern: false,
  assignment_pattern: false,
  object_assignment_pattern: false,
  catch_clause: false,
  labeled_statement: false,
  import_require_clause: false,
  nested_identifier: false,
  member_expression: false,
  jsx_opening_element: false,
  jsx_closing_element: false,
  jsx_self_closing_element: false,
  decorator: false,
  variable_declarator: "name",
  function_declaration: "name",
  function_signature: "name",
  function_expression: "name",
  generator_function_declaration: "name",
  class_declaration: "name",
  class: "name",
  method_definition: "name",
  enum_declaration: "name",
  type_alias_declaration: "name",
  interface_declaration: "name",
  module: "name",
  internal_module: "name",
  arrow_function: "parameter",
  call_expression: "function",
  new_expression: "constructor",
  assignment_expression: "left",
  augmented_assignment_expression: "left",
  for_in_statement: "left",
};

export class EcmaReferences {
  readonly imports: ImportFact[] = [];
  /** References with the offset where each is written (for `enclosing`). */
  readonly refs: Array<{ ref: ReferenceFact; offset: number }> = [];
  readonly importLocals = new Set<string>();
  /** Import bindings that stand for a whole module (`ns.x` reads): namespace, default and require aliases. */
  readonly moduleAliases = new Set<string>();
  /** Member expressions and type names already recorded as calls, components, decorators or heritage. */
  readonly consumed = new Set<number>();

  constructor(
    private readonly src: string,
    private readonly project: ProjectInfo,
  ) {}

  // ---- imports -------------------------------------------------------------------------------------

  private addImport(module: string, site: Node): ImportFact {
    const fact: ImportFact = { module, ...classifySpecifier(module, this.project), symbols: [], ...at(site) };
    this.imports.push(fact);
    return fact;
  }

  private importRef(local: Node, wholeModule: boolean): void {
    if (local.type !== "identifier" && local.type !== "shorthand_property_identifier_pattern") return;
    this.importLocals.add(local.text);
    if (wholeModule) this.moduleAliases.add(local.text);
    this.pushRef(local.text, undefined, "import", local);
  }

  importStatement(stmt: Node): void {
    let source = stmt.childForFieldName("source");
    const requireClause = stmt.namedChildren.find((c) => c?.type === "import_require_clause");
    if (!source && requireClause) source = requireClause.childForFieldName("source");
    const module = literalString(source);
    if (module === undefined) return; // `import x = A.B` aliases a namespace, not a module
    const fact = this.addImport(module, stmt);
    if (requireClause) {
      const id = requireClause.namedChildren.find((c) => c?.type === "identifier");
      if (id) {
        fact.alias = id.text;
        this.importRef(id, true);
      }
      return;
    }
    const clause = stmt.namedChildren.find((c) => c?.type === "import_clause");
    if (!clause) return;
    for (const c of clause.namedChildren) {
      if (!c) continue;
      if (c.type === "identifier") {
        fact.symbols.push("default");
        this.importRef(c, true);
      } else if (c.type === "namespace_import") {
        const id = c.namedChildren.find((x) => x?.type === "identifier");
        if (id) {
          fact.alias = id.text;
          this.importRef(id, true);
        }
      } else if (c.type === "named_imports") {
        for (const spec of c.namedChildren) {
          if (spec?.type !== "import_specifier") continue;
          const name = spec.childForFieldName("name");
          const alias = spec.childForFieldName("alias");
          if (name) fact.symbols.push(memberName(name) ?? name.text);
          const local = alias ?? name;
          if (local) this.importRef(local, false);
        }
      }
    }
  }

  /** `export … from "m"`: the module is imported; the names are exported, not bound locally. */
  reExport(stmt: Node): void {
    const module = literalString(stmt.childForFieldName("source"));
    if (module === undefined) return;
    const fact = this.addImport(module, stmt);
    for (const c of stmt.namedChildren) {
      if (c?.type === "export_clause") {
        for (const spec of c.namedChildren) {
          const name = spec?.type === "export_specifier" ? spec.childForFieldName("name") : null;
          if (name) fact.symbols.push(memberName(name) ?? name.text);
        }
      } else if (c?.type === "namespace_export") {
        const id = c.namedChildren.find((x) => x?.type === "identifier" || x?.type === "string");
        if (id) fact.alias = memberName(id) ?? id.text;
      }
    }
  }

  /**
   * `require("m")` / `import("m")` with a literal: an import, bound by the declarator around it when there
   * is one. These calls are few, so climbing a few parents here is cheap.
   */
  private callImport(call: Node): boolean {
    const args = call.childForFieldName("arguments");
    const module = literalString(args ? firstNamed(args) : null);
    if (module === undefined) return false;
    const fact = this.addImport(module, call);
    const up = (n: Node): Node => {
      let v = n;
      while (v.parent && (v.parent.type === "parenthesized_expression" || v.parent.type === "as_expression" || v.parent.type === "non_null_expression"))
        v = v.parent;
      return v;
    };
    let value = up(call);
    if (value.parent?.type === "await_expression") value = up(value.parent);
    let member: string | undefined;
    if (value.parent?.type === "member_expression" && value.parent.childForFieldName("object")?.id === value.id) {
      member = value.parent.childForFieldName("property")?.text;
      value = up(value.parent);
    }
    const decl = value.parent;
    if (decl?.type !== "variable_declarator" || decl.childForFieldName("value")?.id !== value.id) return true;
    const name = decl.childForFieldName("name");
    if (!name) return true;
    if (member) {
      fact.symbols.push(member);
      if (name.type === "identifier") this.importRef(name, false);
    } else if (name.type === "identifier") {
      fact.alias = name.text;
      this.importRef(name, true);
    } else if (name.type === "object_pattern") {
      for (const p of name.namedChildren) {
        if (p?.type === "shorthand_property_identifier_pattern") {
          fact.symbols.push(p.text);
          this.importRef(p, false);
        } else if (p?.type === "pair_pattern") {
          const key = memberName(p.childForFieldName("key"));
          const local = p.childForFieldName("value");
          if (key) fact.symbols.push(key);
          if (local) this.importRef(local, false);
        }
      }
    }
    return true;
  }

  // ---- references ----------------------------------------------------------------------------------

  pushRef(name: string, qualifier: string | undefined, kind: ReferenceKind, site: Node): void {
    const p = site.startPosition;
    const ref: ReferenceFact = { name, kind, line: p.row + 1, column: p.column + 1 };
    if (qualifier !== undefined) ref.qualifier = qualifier;
    this.refs.push({ ref, offset: site.startIndex });
  }

  /** A callee, constructor, decorator or component written as `name` or `qualifier.name`. */
  private refToExpression(e: Node | null, kind: ReferenceKind): void {
    if (!e) return;
    if (e.type === "identifier") this.pushRef(e.text, undefined, kind, e);
    else if (e.type === "member_expression") {
      this.consumed.add(e.id);
      const prop = e.childForFieldName("property");
      const obj = e.childForFieldName("object");
      if (prop && obj && (prop.type === "property_identifier" || prop.type === "private_property_identifier"))
        this.pushRef(prop.text, textOf(this.src, obj), kind, prop);
    }
  }

  /** A type in a heritage clause: `I`, `I<T>`, `ns.I`. Its name is consumed so it is not also a type use. */
  private refToType(t: Node | null, kind: ReferenceKind): void {
    if (!t) return;
    if (t.type === "type_identifier" || t.type === "identifier") {
      this.consumed.add(t.id);
      this.pushRef(t.text, undefined, kind, t);
    } else if (t.type === "generic_type") this.refToType(t.childForFieldName("name"), kind);
    else if (t.type === "nested_type_identifier") {
      const name = t.childForFieldName("name");
      const module = t.childForFieldName("module");
      if (!name) return;
      this.consumed.add(name.id);
      this.pushRef(name.text, module ? textOf(this.src, module) : undefined, kind, name);
    } else if (t.type === "member_expression") this.refToExpression(t, kind);
  }

  /** Every use site of the file, given the module-level names whose reads count (see moduleLevelValues). */
  collect(input: ReferenceInput): void {
    const { bucket, members, typeRoles } = input;
    const values = input.values;
    const readArguments = (args: Node | null) => {
      if (!args || values.size === 0) return;
      for (const a of args.namedChildren) if (a && a.type === "identifier" && values.has(a.text)) this.pushRef(a.text, undefined, "read", a);
    };
    for (const call of bucket("call")) {
      const fn = call.childForFieldName("function");
      if (!fn) continue;
      if (fn.type === "import" || (fn.type === "identifier" && fn.text === "require")) {
        if (this.callImport(call) || fn.type === "import") continue;
      }
      this.refToExpression(fn, "call");
      readArguments(call.childForFieldName("arguments"));
    }
    for (const n of bucket("new")) {
      this.refToExpression(n.childForFieldName("constructor"), "call");
      readArguments(n.childForFieldName("arguments"));
    }
    for (const d of bucket("decorator")) {
      const e = firstNamed(d);
      if (e && e.type !== "call_expression") this.refToExpression(e, "call");
    }
    for (const el of bucket("jsx")) {
      const name = el.childForFieldName("name");
      // lower-case names are intrinsic elements (`div`, `my-element`), not components
      if (name?.type === "identifier" && /^[A-Z]/.test(name.text)) this.refToExpression(name, "call");
      else if (name?.type === "member_expression") this.refToExpression(name, "call");
    }
    for (const h of bucket("heritage")) {
      if (h.type === "extends_type_clause") {
        for (const t of h.namedChildren) if (t && t.type !== "comment") this.refToType(t, "inherit");
        continue;
      }
      for (const c of h.namedChildren) {
        if (!c || c.type === "comment") continue;
        if (c.type === "extends_clause") this.refToExpression(c.childForFieldName("value"), "inherit");
        else if (c.type === "implements_clause") {
          for (const t of c.namedChildren) if (t && t.type !== "comment") this.refToType(t, "implement");
        } else this.refToExpression(c, "inherit"); // JavaScript: `extends <expression>` directly
      }
    }
    this.typeReferences(bucket("type"), typeRoles, input.declaredTypes);
    for (const r of bucket("read")) if (values.has(r.text)) this.pushRef(r.text, undefined, "read", r);
    this.bareReads(input.root, values);
    for (const [obj, prop, member] of members) {
      // `ns.VALUE` where ns is a whole-module import, `Role.Admin` / `Box.size` where Role is an imported or
      // module-level name (an enum's member, a class's static); calls, components, decorators and heritage
      // were recorded already; `Server.prototype` is the language's, not a member of Server's
      if (this.consumed.has(member.id) || prop.text === "prototype") continue;
      const o = obj.text;
      if (this.moduleAliases.has(o) || this.importLocals.has(o) || values.has(o)) this.pushRef(prop.text, o, "read", prop);
    }
  }

  /**
   * Reads of module-level and imported names wherever an expression holds them: an assignment's right
   * side (`c.port = DEFAULT_PORT`), an operand, a template, an array element. The query catches only a
   * few of these places; a rename or removal must see them all. Found from the text first (a whole-word
   * match of one of the names), each occurrence is then asked of the tree: an identifier in a place that
   * reads it, and not yet recorded.
   */
  private bareReads(root: Node, values: Set<string>): void {
    const names = new Set<string>();
    for (const n of values) if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(n) && !this.moduleAliases.has(n)) names.add(n);
    if (names.size === 0) return;
    let recorded: Set<number> | undefined;
    for (const start of nameOccurrences(this.src, names, { dollar: true, notAssign: "=>" })) {
      const node = root.descendantForIndex(start, start + 1);
      if (!node || (node.type !== "identifier" && node.type !== "shorthand_property_identifier") || node.startIndex !== start) continue;
      if (!names.has(node.text) || !readsIdentifier(node, NOT_READ)) continue;
      recorded ??= new Set(this.refs.map((r) => r.offset));
      if (recorded.has(start)) continue;
      recorded.add(start);
      this.pushRef(node.text, undefined, "read", node);
    }
  }

  private typeReferences(ids: Node[], typeRoles: Map<number, TypeRole>, declared: Set<string>): void {
    if (ids.length === 0) return;
    const typeParams = new Set<string>();
    for (const t of ids) if (typeRoles.get(t.id) === "parameter") typeParams.add(t.text);
    for (const t of ids) {
      const role = typeRoles.get(t.id);
      if (role === "parameter" || role === "declared" || this.consumed.has(t.id)) continue;
      const name = t.text;
      if (!declared.has(name) && (typeParams.has(name) || BUILTIN_TYPES.has(name))) continue;
      this.pushRef(name, role ? textOf(this.src, role) : undefined, "type", t);
    }
  }
}
