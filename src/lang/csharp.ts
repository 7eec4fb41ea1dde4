/**
 * C#: namespaces (block, nested and file-scoped: they qualify names, as Java packages do), classes,
 * structs, interfaces, enums, records, delegates and nested types; methods, constructors, destructors,
 * operators and local functions; fields, properties, events and enum members; using directives (plain,
 * static, alias, global) and references (calls, `new`, type uses, attributes, base types, reads through a
 * capitalised name).
 *
 * Decisions, in the language's terms:
 * - exported = `public`, written or implied (members and nested types of an interface without an access
 *   modifier, enum members). C#'s defaults (internal types, private members) are not exported.
 * - Kinds: `record` and `record struct` are `record`; a delegate is a named function type, kind
 *   `type_alias` (as Go's `type F func()` and Kotlin's `typealias F = () -> Unit`).
 * - fieldCount counts a type's data members: fields (each declarator, constants included), properties,
 *   events and enum members, and a record's positional parameters (they become public properties).
 *   Indexers are not counted. methodCount counts methods, constructors, destructors and operators.
 *   Properties are variables (kind property), not functions: decisions inside accessors belong to no
 *   function, nor do those in field initialisers.
 * - A constructor is a method named like its type; a destructor is named `~Type`, an operator
 *   `operator +`, a conversion `implicit operator T`. Local functions are functions (not methods) named
 *   under their method (`Type.Method.Local`).
 * - An extension method (first parameter `this T`) has receiverType = the extended type, as Kotlin's
 *   extension functions; the `this` parameter counts as a parameter, since it is written as one.
 * - returnCount: 0 for `void`, the element count of a tuple return type, else 1.
 * - Base list: an interface's bases are inherit; a struct's are implement; for a class or record the first
 *   base is inherit when it has constructor arguments (`: Base(x)`) or the file declares it as a class,
 *   implement when the file declares it as an interface, and otherwise decided by the I-prefix naming
 *   convention (`IDisposable` → implement); later bases are implement (C# allows one base class, first).
 * - `packageName` is the namespace of the file's first top-level type (nested namespaces joined), else
 *   the file-scoped or first namespace declared.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule } from "./module.ts";
import { BASE_RULES, TEST_CLASS, typeBeforeParameter, typeBeforeReturn, typedField, typedLocal, type ResolutionRules } from "./resolution.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "./types.ts";
import type { ProjectInfo } from "./project.ts";
import { variableFact, at, assignEnclosing, attributeComplexity, column, docStartLine, endLine, line, qualify, signatureOf, spanLines } from "./kit.ts";
import { boundedText } from "./source-text.ts";
import { classifyManagedImport, resolveManagedImport } from "./managed-imports.ts";
import { byPosition, dropReadsThroughMembers } from "./managed-refs.ts";
import { nestScopes, type Scope } from "./managed-scope.ts";

const QUERY = `
(comment) @comment
[(if_statement) (for_statement) (foreach_statement) (while_statement) (do_statement) (catch_clause) (conditional_expression)] @decision
["&&" "||" "??"] @decision
(switch_section "case" @decision)
(switch_expression_arm) @arm
[(class_declaration) (struct_declaration) (interface_declaration) (enum_declaration) (record_declaration) (delegate_declaration)] @type
[(method_declaration) (constructor_declaration) (destructor_declaration) (operator_declaration) (conversion_operator_declaration) (local_function_statement)] @function
[(field_declaration) (event_field_declaration) (property_declaration) (event_declaration)] @member
(enum_member_declaration) @enum_member
(file_scoped_namespace_declaration) @file_namespace
(namespace_declaration) @namespace
(indexer_declaration) @indexer
(using_directive) @using
(invocation_expression) @call
(object_creation_expression) @new
(attribute) @attribute
(type_parameter) @type_param
(member_access_expression) @member_access
(variable_declaration type: (_) @type_use)
(parameter type: (_) @type_use)
(parameter_list type: (_) @type_use)
(property_declaration type: (_) @type_use)
(event_declaration type: (_) @type_use)
(indexer_declaration type: (_) @type_use)
(method_declaration returns: (_) @type_use)
(local_function_statement type: (_) @type_use)
(delegate_declaration type: (_) @type_use)
(operator_declaration type: (_) @type_use)
(conversion_operator_declaration type: (_) @type_use)
(type_argument_list) @type_args
(cast_expression type: (_) @type_use)
(typeof_expression type: (_) @type_use)
(default_expression type: (_) @type_use)
(as_expression right: (_) @type_use)
(catch_declaration type: (_) @type_use)
(declaration_pattern type: (_) @type_use)
(recursive_pattern type: (_) @type_use)
(declaration_expression type: (_) @type_use)
(array_creation_expression type: (_) @type_use)
(foreach_statement type: (_) @type_use)
(tuple_element type: (_) @type_use)
(type_parameter_constraint type: (_) @type_use)
(explicit_interface_specifier (_) @type_use)
`;

const TYPE_KINDS: Record<string, TypeFact["kind"]> = {
  class_declaration: "class",
  struct_declaration: "struct",
  interface_declaration: "interface",
  enum_declaration: "enum",
  record_declaration: "record",
  delegate_declaration: "type_alias",
};
const FUNCTION_NODES = new Set([
  "method_declaration",
  "constructor_declaration",
  "destructor_declaration",
  "operator_declaration",
  "conversion_operator_declaration",
  "local_function_statement",
]);
const ACCESS = new Set(["public", "private", "protected", "internal"]);

const isComment = (n: Node): boolean => n.type === "comment";

/**
 * What a declaration can sit in: a namespace (it qualifies names), a type or a function (its owner), or
 * code with no name to qualify what it holds by: fields, properties, events, indexers and enum members
 * hold only initialisers and accessors, so what is declared in them is skipped.
 */
type ScopeKind = "namespace" | "type" | "function" | "anonymous";

function scopeKindOf(d: Node): ScopeKind {
  if (TYPE_KINDS[d.type]) return "type";
  if (FUNCTION_NODES.has(d.type)) return "function";
  return "anonymous";
}

/** The owner of a declaration and, for one outside any type, the block namespaces around it (outermost first). */
function ownerOf(s: Scope<ScopeKind> | undefined): { owner?: Scope<ScopeKind>; namespaces: string[] } {
  const namespaces: string[] = [];
  let p = s?.parent;
  for (; p && p.kind === "namespace"; p = p.parent) {
    const name = p.node.childForFieldName("name");
    if (name) namespaces.unshift(name.text.replace(/\s+/g, ""));
  }
  return p ? { owner: p, namespaces } : { namespaces };
}

function modifiersOf(decl: Node): Set<string> {
  const out = new Set<string>();
  for (const c of decl.namedChildren) if (c?.type === "modifier") out.add(c.text);
  return out;
}

/** The name node a written type stands on, and its qualifier: `System.IO.Stream` → `Stream`, `System.IO`. */
function typeName(t: Node | null | undefined): { name: Node; qualifier?: string } | undefined {
  while (t) {
    switch (t.type) {
      case "identifier":
        return { name: t };
      case "generic_name":
        t = t.namedChild(0);
        break;
      case "qualified_name": {
        const name = typeName(t.childForFieldName("name"));
        const q = t.childForFieldName("qualifier");
        if (!name) return undefined;
        return q ? { name: name.name, qualifier: q.text.replace(/\s+/g, "") } : name;
      }
      case "alias_qualified_name":
        t = t.childForFieldName("name");
        break;
      case "nullable_type":
      case "array_type":
      case "pointer_type":
      case "ref_type":
      case "scoped_type":
        t = t.childForFieldName("type") ?? t.lastNamedChild;
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

function refOf(name: Node, kind: ReferenceFact["kind"], qualifier?: string): ReferenceFact {
  const r: ReferenceFact = { name: name.text, kind, ...at(name) };
  if (qualifier) r.qualifier = qualifier;
  return r;
}

/** Parameters of a parameter list; a `params T[] name` parameter sits on the list itself in this grammar. */
function countParams(list: Node | null | undefined): number {
  if (!list) return 0;
  let n = 0;
  for (const c of list.namedChildren) if (c?.type === "parameter") n++;
  return n + list.childrenForFieldName("name").length;
}

function countReturns(t: Node | null | undefined): number {
  if (!t) return 0;
  if (t.type === "predefined_type" && t.text === "void") return 0;
  if (t.type === "tuple_type") return t.namedChildren.filter((c) => c?.type === "tuple_element").length;
  return 1;
}

function functionName(d: Node, ownerName: string | undefined): { name: string; nameNode?: Node } | undefined {
  switch (d.type) {
    case "destructor_declaration":
      return ownerName ? { name: "~" + ownerName } : undefined;
    case "operator_declaration": {
      const op = d.childForFieldName("operator");
      return op ? { name: "operator " + op.text } : undefined;
    }
    case "conversion_operator_declaration": {
      const t = d.childForFieldName("type");
      const direction = d.children.find((c) => c?.type === "implicit" || c?.type === "explicit")?.type ?? "implicit";
      return t ? { name: `${direction} operator ${t.text.replace(/\s+/g, "")}` } : undefined;
    }
    default: {
      const n = d.childForFieldName("name");
      return n ? { name: n.text, nameNode: n } : undefined;
    }
  }
}

const TEST_FILE = /\w(Test|Tests)\.cs$/;
const TEST_DIR = /^(.+\.)?(unit|integration|functional|acceptance)?tests?$/i;

/** C#: namespaces shared by declaration; members in scope unqualified; types precede names. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "c_sharp",
  aliases: ["c#", "csharp"],
  implicitThis: true,
  selfQualifiers: ["this"],
  superQualifiers: ["base"],
  coreMembers: [
    "Add",
    "Remove",
    "Contains",
    "ContainsKey",
    "TryGetValue",
    "Get",
    "Set",
    "ToString",
    "Equals",
    "GetHashCode",
    "Select",
    "Where",
    "First",
    "FirstOrDefault",
    "Any",
    "All",
    "ToList",
    "Count",
    "Format",
    "Split",
    "Trim",
  ],
  types: { parameter: typeBeforeParameter, local: typedLocal, field: typedField, returnType: typeBeforeReturn },
  testNames: [TEST_CLASS],
};

export const csharp: LanguageModule = {
  id: "c_sharp",
  extensions: [".cs"],
  grammar: "tree-sitter-c_sharp.wasm",
  resolution: RULES,
  query: QUERY,
  /** *Tests.cs / *Test.cs, and anything under a `tests` folder or a test project folder (`Shop.Tests`, `Shop.UnitTests`). */
  isTestFile: (path) => {
    const segs = path.split("/");
    const base = segs.pop() ?? "";
    return TEST_FILE.test(base) || segs.some((s) => TEST_DIR.test(s));
  },
  resolveImport: (imp, _from, files) => resolveManagedImport(imp, files, [".cs"]),

  extract(_tree, ctx, matches): Extracted {
    const src = ctx.source;
    let fileNamespace: string | undefined;
    let firstNamespace: string | undefined;
    let firstTypeNamespace: string | undefined; // where the first top-level type lives (nested namespaces joined)
    const types: TypeFact[] = [];
    const functions: FunctionFact[] = [];
    const variables: VariableFact[] = [];
    const imports: ImportFact[] = [];
    const references: ReferenceFact[] = [];
    const decisions: Node[] = [];
    const defs: Node[] = [];
    const typeUses: Node[] = [];
    const typeParams = new Set<string>();
    const baseLists: Array<{ list: Node; kind: TypeFact["kind"] }> = [];
    const positionalProperties = new Set<VariableFact>();
    const boundaries: Array<{ node: Node; kind: ScopeKind }> = [];
    const memberAccesses: Node[] = [];
    const callees = new Set<number>(); // member accesses that are an invocation's function

    for (const m of matches) {
      if (m.decision) decisions.push(m.decision);
      else if (m.arm) {
        // `_ => …` is the default arm; `_ when cond => …` is a branch
        const first = m.arm.namedChild(0);
        if (first?.type !== "discard" || m.arm.namedChildren.some((c) => c?.type === "when_clause")) decisions.push(m.arm);
      } else if (m.type || m.function || m.member || m.enum_member) defs.push((m.type ?? m.function ?? m.member ?? m.enum_member)!);
      else if (m.type_use) typeUses.push(m.type_use);
      else if (m.type_args) {
        for (const t of m.type_args.namedChildren) if (t) typeUses.push(t);
      } else if (m.type_param) {
        const n = m.type_param.childForFieldName("name");
        if (n) typeParams.add(n.text);
      } else if (m.file_namespace) {
        const n = m.file_namespace.childForFieldName("name");
        if (n) fileNamespace = n.text.replace(/\s+/g, "");
      } else if (m.namespace) {
        boundaries.push({ node: m.namespace, kind: "namespace" });
        const n = m.namespace.childForFieldName("name");
        if (n && firstNamespace === undefined) firstNamespace = n.text.replace(/\s+/g, "");
      } else if (m.indexer) boundaries.push({ node: m.indexer, kind: "anonymous" });
      else if (m.using) readUsing(m.using, ctx.project, imports, references);
      else if (m.call) readCall(m.call, src, references, callees);
      else if (m.new) {
        const t = typeName(m.new.childForFieldName("type"));
        if (t) references.push(refOf(t.name, "call", t.qualifier));
      } else if (m.attribute) {
        const t = typeName(m.attribute.childForFieldName("name"));
        if (t) references.push(refOf(t.name, "type", t.qualifier));
      } else if (m.member_access) memberAccesses.push(m.member_access);
    }

    // `Color.Red`, `Limits.Max`: a member read through a capitalised (type) name, not a call
    for (const ma of memberAccesses) {
      if (callees.has(ma.id)) continue;
      const obj = ma.childForFieldName("expression");
      const name = ma.childForFieldName("name");
      if (obj?.type !== "identifier" || name?.type !== "identifier" || !/^[A-Z]/.test(obj.text)) continue;
      references.push(refOf(name, "read", obj.text));
    }

    defs.sort((a, b) => a.startIndex - b.startIndex);
    const scopes = nestScopes<ScopeKind>([...defs.map((node) => ({ node, kind: scopeKindOf(node) })), ...boundaries]);
    const typeByNode = new Map<number, TypeFact>();
    const functionByNode = new Map<number, FunctionFact>();

    for (const d of defs) {
      const scope = ownerOf(scopes.get(d.id));
      if (scope.owner?.kind === "anonymous") continue;
      const ownerType = scope.owner?.kind === "type" ? typeByNode.get(scope.owner.node.id) : undefined;
      const ownerFunction = scope.owner?.kind === "function" ? functionByNode.get(scope.owner.node.id) : undefined;
      if (scope.owner && !ownerType && !ownerFunction) continue; // inside a declaration that was itself skipped
      const prefix = ownerType?.qualifiedName ?? ownerFunction?.qualifiedName ?? qualify(fileNamespace, ...scope.namespaces);
      const mods = modifiersOf(d);
      const inInterface = ownerType?.kind === "interface";
      const noAccess = ![...mods].some((m) => ACCESS.has(m));
      const exported =
        !ownerFunction && (mods.has("public") || (inInterface && noAccess && !d.children.some((c) => c?.type === "explicit_interface_specifier")));

      const kind = TYPE_KINDS[d.type];
      if (kind) {
        const nameNode = d.childForFieldName("name");
        if (!nameNode) continue;
        const fact: TypeFact = {
          name: nameNode.text,
          qualifiedName: qualify(prefix, nameNode.text),
          kind,
          startLine: line(d),
          endLine: endLine(d),
          startColumn: column(d),
          exported,
          fieldCount: 0,
          methodCount: 0,
        };
        if (scope.owner) fact.container = prefix;
        else if (firstTypeNamespace === undefined && prefix) firstTypeNamespace = prefix;
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        if (d.type === "record_declaration") {
          const params = d.namedChildren.find((c) => c?.type === "parameter_list");
          for (const p of params?.namedChildren ?? []) {
            const n = p?.type === "parameter" ? p.childForFieldName("name") : null;
            if (!n) continue;
            const v = variableFact(n, p!, "property", true, fact.qualifiedName);
            variables.push(v);
            positionalProperties.add(v);
            fact.fieldCount++;
          }
        }
        const bases = d.namedChildren.find((c) => c?.type === "base_list");
        // a record struct is a struct: its bases are interfaces
        const isStruct = kind === "struct" || d.children.some((c) => c?.type === "struct");
        if (bases && kind !== "enum") baseLists.push({ list: bases, kind: isStruct ? "struct" : kind });
        types.push(fact);
        typeByNode.set(d.id, fact);
        continue;
      }

      if (FUNCTION_NODES.has(d.type)) {
        const named = functionName(d, ownerType?.name);
        if (!named) continue;
        const body = d.childForFieldName("body");
        const params = d.childForFieldName("parameters");
        const fact: FunctionFact = {
          name: named.name,
          qualifiedName: qualify(prefix, named.name),
          startLine: line(d),
          endLine: endLine(d),
          startColumn: column(d),
          exported,
          isMethod: ownerType !== undefined,
          paramCount: countParams(params),
          returnCount:
            d.type === "constructor_declaration" || d.type === "destructor_declaration"
              ? 0
              : countReturns(d.childForFieldName(d.type === "method_declaration" ? "returns" : "type")),
          bodyLines: spanLines(body),
          complexity: 1,
          signature: signatureOf(src, d, body),
        };
        const extended = extendedType(params);
        if (extended) fact.receiverType = extended;
        else if (ownerType) fact.receiverType = ownerType.name;
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        functions.push(fact);
        functionByNode.set(d.id, fact);
        if (ownerType) ownerType.methodCount++;
        continue;
      }

      if (!ownerType) continue;
      if (d.type === "enum_member_declaration") {
        const n = d.childForFieldName("name");
        if (!n) continue;
        variables.push(variableFact(n, d, "enum_member", true, ownerType.qualifiedName));
        ownerType.fieldCount++;
        continue;
      }
      if (d.type === "property_declaration" || d.type === "event_declaration") {
        const n = d.childForFieldName("name");
        if (!n) continue;
        variables.push(variableFact(n, d, d.type === "property_declaration" ? "property" : "field", exported, ownerType.qualifiedName));
        ownerType.fieldCount++;
        continue;
      }
      // field_declaration / event_field_declaration
      const decl = d.namedChildren.find((c) => c?.type === "variable_declaration");
      for (const v of decl?.namedChildren ?? []) {
        const n = v?.type === "variable_declarator" ? v.childForFieldName("name") : null;
        if (!n) continue;
        variables.push(variableFact(n, d, mods.has("const") ? "constant" : "field", exported, ownerType.qualifiedName));
        ownerType.fieldCount++;
      }
    }

    const declared = new Map<string, TypeFact["kind"]>();
    for (const t of types) if (!declared.has(t.name)) declared.set(t.name, t.kind);
    for (const b of baseLists) readBaseList(b.list, b.kind, declared, references);

    for (const t of typeUses) {
      const n = typeName(t);
      if (!n || (!n.qualifier && (typeParams.has(n.name.text) || n.name.text === "dynamic"))) continue;
      references.push(refOf(n.name, "type", n.qualifier));
    }

    attributeComplexity(functions, decisions);
    const kept = dropReadsThroughMembers(references, variables, types).sort(byPosition);
    // A positional property's span is its line: the rest of the record header is not inside it.
    assignEnclosing(
      kept,
      functions,
      types,
      variables.filter((v) => !positionalProperties.has(v)),
    );
    const out: Extracted = { types, functions, variables, imports, references: kept };
    const pkg = firstTypeNamespace ?? fileNamespace ?? firstNamespace;
    if (pkg) out.packageName = pkg;
    return out;
  },
};

/** The type of an extension method's `this` parameter, as written. */
function extendedType(params: Node | null | undefined): string | undefined {
  const first = params?.namedChildren.find((c) => c?.type === "parameter");
  if (!first?.namedChildren.some((c) => c?.type === "modifier" && c.text === "this")) return undefined;
  const t = first.childForFieldName("type");
  return t ? t.text.replace(/\s+/g, " ") : undefined;
}

function readUsing(u: Node, project: ProjectInfo, imports: ImportFact[], references: ReferenceFact[]): void {
  const alias = u.childForFieldName("name");
  let target: Node | undefined;
  for (const c of u.namedChildren) if (c && c.id !== alias?.id && c.type !== "comment") target = c;
  if (!target) return;
  const module = target.text.replace(/\s+/g, "").replace(/^global::/, "");
  const fact: ImportFact = { module, ...classifyManagedImport(module, project, "dotnet"), symbols: [], ...at(u) };
  if (alias) {
    fact.alias = alias.text;
    references.push(refOf(alias, "import"));
  }
  imports.push(fact);
}

function readCall(call: Node, src: string, references: ReferenceFact[], callees: Set<number>): void {
  const f = call.childForFieldName("function");
  if (!f) return;
  callees.add(f.id);
  switch (f.type) {
    case "identifier":
      references.push(refOf(f, "call"));
      return;
    case "generic_name": {
      const n = f.namedChild(0);
      if (n) references.push(refOf(n, "call"));
      return;
    }
    case "member_access_expression": {
      const n = typeName(f.childForFieldName("name"));
      const q = f.childForFieldName("expression");
      if (n) references.push(refOf(n.name, "call", q ? boundedText(src, q) : undefined));
      return;
    }
    case "conditional_access_expression": {
      const binding = f.namedChildren.find((c) => c?.type === "member_binding_expression");
      const n = typeName(binding?.childForFieldName("name"));
      const q = f.childForFieldName("condition");
      if (n) references.push(refOf(n.name, "call", q ? boundedText(src, q) : undefined));
      return;
    }
    case "qualified_name": {
      const n = typeName(f);
      if (n) references.push(refOf(n.name, "call", n.qualifier));
      return;
    }
  }
}

const I_PREFIX = /^I[A-Z]/;

function readBaseList(list: Node, kind: TypeFact["kind"], declared: Map<string, TypeFact["kind"]>, references: ReferenceFact[]): void {
  let first = true;
  for (const c of list.namedChildren) {
    if (!c || c.type === "argument_list" || c.type === "comment") continue;
    const withArgs = c.type === "primary_constructor_base_type";
    const n = typeName(withArgs ? c.childForFieldName("type") : c);
    if (!n) continue;
    let rel: ReferenceFact["kind"];
    if (kind === "interface") rel = "inherit";
    else if (kind === "struct" || !first) rel = "implement";
    else if (withArgs) rel = "inherit";
    else {
      const known = declared.get(n.name.text);
      if (known === "interface") rel = "implement";
      else if (known !== undefined) rel = "inherit";
      else rel = I_PREFIX.test(n.name.text) ? "implement" : "inherit";
    }
    references.push(refOf(n.name, rel, n.qualifier));
    first = false;
  }
}
