/**
 * Java: the package, classes, interfaces, enums, records and annotation types at any depth (nested,
 * inner and local classes, qualified `pkg.Outer.Inner`), methods and constructors, fields and enum
 * constants, imports (single, static, wildcard) and references (calls, constructor calls, type uses,
 * annotations, extends / implements, static member reads).
 *
 * Decisions, in the language's terms:
 * - exported = `public`, written or implied: members and nested types of interfaces and annotation types
 *   (unless `private`), and enum constants.
 * - A constructor is a method named like its class (`Cart.Cart`), returning nothing; a record's compact
 *   constructor takes the record's components. Annotation-type elements are methods without a body.
 * - Annotation types have kind `interface` (the JLS calls them annotation interfaces).
 * - fieldCount counts declared fields (each declarator), record components and enum constants (all three
 *   are fields of the class file); methodCount counts methods and constructors. `static final` fields and
 *   interface fields are constants, other fields `field`; record components are fields, exported (their
 *   accessors are public).
 * - Methods and classes inside anonymous class bodies, enum constant bodies and field initialisers are
 *   not definitions: like lambdas, their decision points count toward the named method around them.
 * - Decisions inside field initialisers and initializer blocks belong to no function.
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
import { nestScopes } from "./managed-scope.ts";

const QUERY = `
(line_comment) @comment
(block_comment) @comment
[(if_statement) (for_statement) (enhanced_for_statement) (while_statement) (do_statement) (catch_clause) (ternary_expression)] @decision
["&&" "||" "case"] @decision
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration) (annotation_type_declaration)] @type
[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (annotation_type_element_declaration)] @function
[(field_declaration) (constant_declaration)] @field
(enum_constant) @enum_constant
(package_declaration) @package
(import_declaration) @import
(method_invocation) @call
(object_creation_expression) @new
(method_reference) @method_ref
(marker_annotation) @annotation
(annotation) @annotation
(type_identifier) @type_id
(scoped_type_identifier) @scoped_type
(type_parameter) @type_param
(field_access) @field_access
`;

const TYPE_KINDS: Record<string, TypeFact["kind"]> = {
  class_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
  record_declaration: "record",
  annotation_type_declaration: "interface",
};

const FUNCTION_NODES = new Set(["method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration"]);

/**
 * What a definition can sit in: a type or a method (its owner), or code that has no name to qualify
 * what it holds by: an anonymous class body, an enum constant's body, a field's initialiser.
 */
type ScopeKind = "type" | "function" | "anonymous";

const isComment = (n: Node): boolean => n.type === "line_comment" || n.type === "block_comment";

/** The keyword modifiers of a declaration (`public`, `static`, `final`…), annotations left out. */
function modifiersOf(decl: Node): Set<string> {
  const out = new Set<string>();
  for (const c of decl.children) {
    if (c?.type !== "modifiers") continue;
    for (const m of c.children) if (m && !m.isNamed) out.add(m.type);
    break;
  }
  return out;
}

/** How a definition counts for what it holds: fields and enum constants hold only initialisers and bodies. */
function scopeKindOf(d: Node): ScopeKind {
  if (TYPE_KINDS[d.type]) return "type";
  if (FUNCTION_NODES.has(d.type)) return "function";
  return "anonymous";
}

/** The name node of a type as written, and what qualifies it: `java.util.List<X>` → `List`, `java.util`. */
function typeName(t: Node | null | undefined, src: string): { name: Node; qualifier?: string } | undefined {
  while (t) {
    switch (t.type) {
      case "type_identifier":
      case "identifier":
        return { name: t };
      case "generic_type":
      case "annotated_type":
        t = t.type === "generic_type" ? t.namedChild(0) : t.lastNamedChild;
        break;
      case "array_type":
        t = t.childForFieldName("element");
        break;
      case "scoped_type_identifier":
      case "scoped_identifier": {
        const name = t.type === "scoped_identifier" ? t.childForFieldName("name") : t.lastNamedChild;
        if (!name) return undefined;
        const qualifier = src
          .slice(t.startIndex, name.startIndex)
          .replace(/[\s.]+$/, "")
          .replace(/\s+/g, "");
        return qualifier ? { name, qualifier } : { name };
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

function countParams(list: Node | null | undefined): number {
  if (!list) return 0;
  let n = 0;
  for (const c of list.namedChildren) if (c && (c.type === "formal_parameter" || c.type === "spread_parameter")) n++;
  return n;
}

function refOf(name: Node, kind: ReferenceFact["kind"], qualifier?: string): ReferenceFact {
  const r: ReferenceFact = { name: name.text, kind, ...at(name) };
  if (qualifier) r.qualifier = qualifier;
  return r;
}

const TEST_DIR = /(^|\/)src\/(test|testFixtures|\w+Test)\//;
const TEST_FILE = /(^Test[A-Z_]\w*|\w(Test|Tests|TestCase|IT|ITCase))\.java$/;

/** Java: a package is shared by its declaration; members are in scope unqualified; types precede names. */
/** Members of the JDK's collections and strings, called on receivers whose type is not known (Kotlin calls them too). */
export const JAVA_CORE_MEMBERS = [
  "get",
  "put",
  "set",
  "add",
  "remove",
  "contains",
  "containsKey",
  "size",
  "isEmpty",
  "equals",
  "hashCode",
  "toString",
  "stream",
  "map",
  "filter",
  "forEach",
  "collect",
  "append",
  "length",
  "substring",
  "trim",
  "split",
  "format",
  "of",
];

const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "jvm",
  implicitThis: true,
  selfQualifiers: ["this"],
  superQualifiers: ["super"],
  coreMembers: JAVA_CORE_MEMBERS,
  types: { parameter: typeBeforeParameter, local: typedLocal, field: typedField, returnType: typeBeforeReturn },
  testNames: [TEST_CLASS],
};

export const java: LanguageModule = {
  id: "java",
  extensions: [".java"],
  grammar: "tree-sitter-java.wasm",
  resolution: RULES,
  query: QUERY,
  /** Maven / Gradle conventions: test source sets (src/test/, src/androidTest/…) and Surefire / Failsafe class names. */
  isTestFile: (path) => TEST_DIR.test(path) || TEST_FILE.test(path.slice(path.lastIndexOf("/") + 1)),
  resolveImport: (imp, _from, files) => resolveManagedImport(imp, files, [".java", ".kt"]),

  extract(_tree, ctx, matches): Extracted {
    const src = ctx.source;
    let pkg: string | undefined;
    const types: TypeFact[] = [];
    const functions: FunctionFact[] = [];
    const variables: VariableFact[] = [];
    const imports: ImportFact[] = [];
    const references: ReferenceFact[] = [];
    const decisions: Node[] = [];
    const defs: Node[] = [];
    const typeIds: Node[] = [];
    const typeParams = new Set<string>();
    const recordComponents = new Set<VariableFact>();
    const anonymousBodies: Node[] = [];
    // type identifiers that are no `type` reference (qualifier segments, declared type parameters, supertypes
    // and `new` classes recorded otherwise), and the qualifier of the last segment of a scoped type
    const notTypeRefs = new Set<number>();
    const scopedQualifier = new Map<number, string>();

    for (const m of matches) {
      const d = m.decision ?? m.type ?? m.function ?? m.field ?? m.enum_constant;
      if (m.decision) decisions.push(m.decision);
      else if (d) defs.push(d);
      else if (m.type_id) typeIds.push(m.type_id);
      else if (m.type_param) {
        const id = m.type_param.namedChildren.find((c) => c?.type === "type_identifier");
        if (id) {
          typeParams.add(id.text);
          notTypeRefs.add(id.id);
        }
      } else if (m.scoped_type) readScopedType(m.scoped_type, src, notTypeRefs, scopedQualifier);
      else if (m.package) {
        const n = m.package.namedChildren.find((c) => c?.type === "scoped_identifier" || c?.type === "identifier");
        if (n) pkg = n.text.replace(/\s+/g, "");
      } else if (m.import) {
        readImport(m.import, ctx.project, imports, references);
      } else if (m.call) {
        const name = m.call.childForFieldName("name");
        if (!name) continue;
        const obj = m.call.childForFieldName("object");
        references.push(refOf(name, "call", obj ? boundedText(src, obj) : undefined));
      } else if (m.new) {
        const t = typeName(m.new.childForFieldName("type"), src);
        if (t) {
          references.push(refOf(t.name, "call", t.qualifier));
          notTypeRefs.add(t.name.id);
        }
        const body = m.new.lastNamedChild;
        if (body?.type === "class_body") anonymousBodies.push(body);
      } else if (m.method_ref) {
        readMethodReference(m.method_ref, src, references);
      } else if (m.annotation) {
        const t = typeName(m.annotation.childForFieldName("name"), src);
        if (t) references.push(refOf(t.name, "type", t.qualifier));
      } else if (m.field_access) {
        // `Color.RED`, `Limits.MAX`: a static member read through a (capitalised) class name
        const obj = m.field_access.childForFieldName("object");
        const field = m.field_access.childForFieldName("field");
        if (obj?.type !== "identifier" || field?.type !== "identifier" || !/^[A-Z]/.test(obj.text)) continue;
        references.push(refOf(field, "read", obj.text));
      }
    }

    // Definitions, outer before inner, so an owner's qualified name is known before its members'.
    defs.sort((a, b) => a.startIndex - b.startIndex);
    const scopes = nestScopes<ScopeKind>([
      ...defs.map((node) => ({ node, kind: scopeKindOf(node) })),
      ...anonymousBodies.map((node) => ({ node, kind: "anonymous" as const })),
    ]);
    const typeByNode = new Map<number, TypeFact>();
    const functionByNode = new Map<number, FunctionFact>();

    for (const d of defs) {
      const parent = scopes.get(d.id)?.parent;
      if (parent?.kind === "anonymous") continue;
      const parentType = parent?.kind === "type" ? typeByNode.get(parent.node.id) : undefined;
      const parentFunction = parent?.kind === "function" ? functionByNode.get(parent.node.id) : undefined;
      if (parent && !parentType && !parentFunction) continue; // inside a definition that was itself skipped
      const inInterface = parentType !== undefined && (parent!.node.type === "interface_declaration" || parent!.node.type === "annotation_type_declaration");
      const prefix = parent ? (parentType ?? parentFunction)!.qualifiedName : pkg;
      const mods = modifiersOf(d);
      const isPublic = mods.has("public") || (inInterface && !mods.has("private"));

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
          exported: isPublic,
          fieldCount: 0,
          methodCount: 0,
        };
        if (parent && prefix) fact.container = prefix;
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        if (d.type === "record_declaration") {
          // components are fields with public accessors: exported, like the accessors
          for (const c of d.childForFieldName("parameters")?.namedChildren ?? []) {
            const n = c?.type === "formal_parameter" ? c.childForFieldName("name") : null;
            if (!n) continue;
            const v = variableFact(n, c!, "field", true, fact.qualifiedName);
            variables.push(v);
            recordComponents.add(v);
            fact.fieldCount++;
          }
        }
        readSupertypes(d, src, references, notTypeRefs);
        types.push(fact);
        typeByNode.set(d.id, fact);
        continue;
      }

      if (FUNCTION_NODES.has(d.type)) {
        const nameNode = d.childForFieldName("name");
        if (!nameNode || !parentType) continue;
        const body = d.childForFieldName("body");
        const returns = d.childForFieldName("type");
        let paramCount = countParams(d.childForFieldName("parameters"));
        if (d.type === "compact_constructor_declaration") paramCount = countParams(parent!.node.childForFieldName("parameters"));
        const fact: FunctionFact = {
          name: nameNode.text,
          qualifiedName: qualify(prefix, nameNode.text),
          startLine: line(d),
          endLine: endLine(d),
          startColumn: column(d),
          exported: isPublic,
          isMethod: true,
          receiverType: parentType.name,
          paramCount,
          returnCount: returns && returns.type !== "void_type" ? 1 : 0,
          bodyLines: spanLines(body),
          complexity: 1,
          signature: signatureOf(src, d, body),
        };
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        functions.push(fact);
        functionByNode.set(d.id, fact);
        parentType.methodCount++;
        continue;
      }

      if (!parentType) continue;
      if (d.type === "enum_constant") {
        const nameNode = d.childForFieldName("name");
        if (!nameNode) continue;
        variables.push(variableFact(nameNode, d, "enum_member", true, parentType.qualifiedName));
        parentType.fieldCount++;
        continue;
      }
      // field_declaration / constant_declaration
      const constant = d.type === "constant_declaration" || inInterface || (mods.has("static") && mods.has("final"));
      for (const decl of d.childrenForFieldName("declarator")) {
        const nameNode = decl?.childForFieldName("name");
        if (!nameNode) continue;
        variables.push(variableFact(nameNode, d, constant ? "constant" : "field", isPublic, parentType.qualifiedName));
        parentType.fieldCount++;
      }
    }

    // a `type` reference for every other type identifier (never `var`, nor a type parameter's name)
    for (const t of typeIds) {
      if (notTypeRefs.has(t.id)) continue;
      const text = t.text;
      if (text === "var" || typeParams.has(text)) continue;
      references.push(refOf(t, "type", scopedQualifier.get(t.id)));
    }

    attributeComplexity(functions, decisions);
    const kept = dropReadsThroughMembers(references, variables, types).sort(byPosition);
    // A record component's span is its line: the rest of the record header is not inside it.
    assignEnclosing(
      kept,
      functions,
      types,
      variables.filter((v) => !recordComponents.has(v)),
    );
    const out: Extracted = { types, functions, variables, imports, references: kept };
    if (pkg) out.packageName = pkg;
    return out;
  },
};

function readImport(decl: Node, project: ProjectInfo, imports: ImportFact[], references: ReferenceFact[]): void {
  let nameNode: Node | undefined;
  let wildcard = false;
  for (const c of decl.namedChildren) {
    if (!c) continue;
    if (c.type === "scoped_identifier" || c.type === "identifier") nameNode = c;
    else if (c.type === "asterisk") wildcard = true;
  }
  if (!nameNode) return;
  const name = nameNode.text.replace(/\s+/g, "");
  const module = wildcard ? name + ".*" : name;
  const last = nameNode.type === "scoped_identifier" ? nameNode.childForFieldName("name") : nameNode;
  imports.push({ module, ...classifyManagedImport(module, project, "java"), symbols: wildcard || !last ? [] : [last.text], ...at(decl) });
  // the local name a single-type or static import introduces, where it is written
  if (!wildcard && last) references.push(refOf(last, "import"));
}

function readMethodReference(n: Node, src: string, references: ReferenceFact[]): void {
  // `Type::method`, `expr::method`; `Type::new` names a constructor and is recorded as a call of `Type`
  const kids = n.children;
  const sep = kids.findIndex((c) => c?.type === "::");
  const target = sep >= 0 ? kids[kids.length - 1] : undefined;
  const head = n.namedChild(0);
  if (!target || !head) return;
  if (target.type === "identifier") references.push(refOf(target, "call", boundedText(src, head)));
  else if (target.type === "new" && (head.type === "identifier" || head.type === "type_identifier")) references.push(refOf(head, "call"));
}

/** extends → inherit; implements → implement; an interface's extends → inherit. */
function readSupertypes(decl: Node, src: string, references: ReferenceFact[], notTypeRefs: Set<number>): void {
  for (const c of decl.namedChildren) {
    if (!c) continue;
    if (c.type === "superclass") {
      const t = typeName(c.namedChild(0), src);
      if (!t) continue;
      references.push(refOf(t.name, "inherit", t.qualifier));
      notTypeRefs.add(t.name.id);
    } else if (c.type === "super_interfaces" || c.type === "extends_interfaces") {
      const list = c.namedChildren.find((x) => x?.type === "type_list");
      for (const item of list?.namedChildren ?? []) {
        const t = typeName(item, src);
        if (!t) continue;
        references.push(refOf(t.name, c.type === "super_interfaces" ? "implement" : "inherit", t.qualifier));
        notTypeRefs.add(t.name.id);
      }
    }
  }
}

/**
 * `java.util.List`: `java` and `util` are no type references; `List` is one, qualified by `java.util`.
 * Read downwards from the scoped type (asking each identifier for its parent would walk from the root).
 */
function readScopedType(scoped: Node, src: string, notTypeRefs: Set<number>, scopedQualifier: Map<number, string>): void {
  const last = scoped.lastNamedChild;
  if (last?.type !== "type_identifier") return;
  for (const c of scoped.namedChildren) {
    if (!c || c.id === last.id) continue;
    if (c.type === "type_identifier") notTypeRefs.add(c.id);
    else if (c.type === "scoped_type_identifier") for (const id of c.descendantsOfType("type_identifier")) if (id) notTypeRefs.add(id.id);
  }
  const qualifier = src
    .slice(scoped.startIndex, last.startIndex)
    .replace(/[\s.]+$/, "")
    .replace(/\s+/g, "");
  if (qualifier) scopedQualifier.set(last.id, qualifier);
}
