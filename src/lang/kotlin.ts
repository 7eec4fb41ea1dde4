/**
 * Kotlin (.kt, .kts): the package, classes (data, sealed, enum, value, inner…), interfaces, objects and
 * companion objects, type aliases; top-level, member, local and extension functions, secondary
 * constructors; properties (top-level, members, `val` / `var` constructor parameters) and enum entries;
 * imports; references (calls, type uses, annotations, supertypes, reads through a capitalised name).
 *
 * Decisions, in the language's terms:
 * - exported = public, Kotlin's default: a declaration is exported unless marked `private`, `protected`
 *   or `internal` (visible outside its module only when public), or local to a function. Enum entries
 *   cannot be restricted: always exported.
 * - Kinds: interfaces and `fun interface`s are `interface` (so are annotation classes, annotation
 *   interfaces on the JVM); enum classes `enum`; objects and companion objects `object` (an unnamed
 *   companion is named `Companion`, as Kotlin names it); every other class `class`.
 * - Supertypes: one written with a constructor call (`Base(x)`) is inherit; one without is implement,
 *   unless this file declares it as a class (a class whose constructors delegate with `super(...)`); an
 *   interface's supertypes are inherit (interfaces extend interfaces, as in Java).
 * - Extension functions have receiverType = the extended type as written and are qualified by the package
 *   (that is how they are imported); they are methods only when declared inside a type. A secondary
 *   constructor is a method named like its class.
 * - returnCount: 0 for `Unit` or no declared type with a block body (Unit), 1 otherwise, including an
 *   expression body without a declared type (it returns the expression).
 * - fieldCount counts properties (with `val` / `var` constructor parameters) and enum entries;
 *   methodCount counts member functions and secondary constructors.
 * - Methods of object expressions and enum entry bodies are not definitions: their decision points count
 *   toward the named function around them, as a lambda's do. `init` blocks and property accessors belong
 *   to no function.
 * - `const val` is a constant; other top-level properties are variables; members are properties.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule } from "./module.ts";
import { BASE_RULES, TEST_CLASS, arrowReturn, bindingLocal, colonField, colonParameter, typeBeforeReturn, type ResolutionRules } from "./resolution.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "./types.ts";
import type { ProjectInfo } from "./project.ts";
import { at, assignEnclosing, attributeComplexity, column, docStartLine, endLine, line, qualify, signatureOf, spanLines, variableFact } from "./kit.ts";
import { boundedText } from "./source-text.ts";
import { JAVA_CORE_MEMBERS } from "./java.ts";
import { classifyManagedImport, resolveManagedImport } from "./managed-imports.ts";
import { byPosition, dropReadsThroughMembers } from "./managed-refs.ts";
import { nestScopes, ownerScope } from "./managed-scope.ts";

const QUERY = `
(line_comment) @comment
(block_comment) @comment
[(if_expression) (for_statement) (while_statement) (do_while_statement) (catch_block)] @decision
["&&" "||" "?:"] @decision
(when_entry) @when
[(class_declaration) (object_declaration) (companion_object) (type_alias)] @type
[(function_declaration) (secondary_constructor)] @function
(property_declaration) @property
(class_parameter) @class_param
(enum_entry) @enum_entry
(package_header) @package
(import) @import
(call_expression) @call
(user_type) @user_type
(type_parameter) @type_param
(navigation_expression) @nav
(object_literal) @object_literal
[(anonymous_function) (anonymous_initializer)] @anonymous
(lambda_literal) @lambda
`;

const TYPE_NODES = new Set(["class_declaration", "object_declaration", "companion_object", "type_alias"]);
const FUNCTION_NODES = new Set(["function_declaration", "secondary_constructor"]);
/** Built-in types that map to JVM primitives: no more a reference to project code than Java's `int`. */
const PRIMITIVES = new Set(["Int", "Long", "Short", "Byte", "Double", "Float", "Char", "Boolean", "Unit", "UInt", "ULong", "UShort", "UByte"]);
/** Children of a function declaration that are not its receiver or return type. */
const NOT_A_TYPE = new Set([
  "modifiers",
  "type_parameters",
  "function_value_parameters",
  "function_body",
  "type_constraints",
  "identifier",
  "line_comment",
  "block_comment",
]);

const isComment = (n: Node): boolean => n.type === "line_comment" || n.type === "block_comment";

/**
 * What a definition can sit in: a type or a function (its owner), a lambda (transparent, but what is
 * declared in it is local), or code with no name to qualify what it holds by (object expressions,
 * anonymous functions, `init` blocks, and properties, enum entries and constructor parameters, which
 * hold only initialisers, accessors and bodies).
 */
type ScopeKind = "type" | "function" | "lambda" | "anonymous";
const THROUGH_LAMBDAS: ReadonlySet<ScopeKind> = new Set(["lambda"]);

function scopeKindOf(d: Node): ScopeKind {
  if (TYPE_NODES.has(d.type)) return "type";
  if (FUNCTION_NODES.has(d.type)) return "function";
  return "anonymous";
}

interface Modifiers {
  visibility?: string;
  words: Set<string>;
}

/** Visibility and the other modifier keywords (`data`, `enum`, `const`, `override`…) of a declaration. */
function modifiersOf(decl: Node): Modifiers {
  const out: Modifiers = { words: new Set() };
  const mods = decl.children.find((c) => c?.type === "modifiers");
  if (!mods) return out;
  for (const m of mods.namedChildren) {
    if (!m || m.type === "annotation") continue;
    if (m.type === "visibility_modifier") out.visibility = m.text;
    else out.words.add(m.text);
  }
  return out;
}

const hidden = (m: Modifiers): boolean => m.visibility === "private" || m.visibility === "protected" || m.visibility === "internal";

function typeKind(decl: Node, mods: Modifiers): TypeFact["kind"] {
  if (decl.type === "type_alias") return "type_alias";
  if (decl.type !== "class_declaration") return "object";
  if (decl.children.some((c) => c?.type === "interface") || mods.words.has("annotation")) return "interface";
  if (mods.words.has("enum")) return "enum";
  return "class";
}

function nameOfType(decl: Node): Node | null {
  return decl.type === "type_alias" ? decl.childForFieldName("type") : decl.childForFieldName("name");
}

/** The last identifier of a `user_type` and the segments before it: `java.io.Serializable` → `Serializable`, `java.io`. */
function userTypeName(t: Node): { name: Node; qualifier?: string } | undefined {
  const ids = t.namedChildren.filter((c): c is Node => c?.type === "identifier");
  const name = ids[ids.length - 1];
  if (!name) return undefined;
  return ids.length > 1
    ? {
        name,
        qualifier: ids
          .slice(0, -1)
          .map((i) => i.text)
          .join("."),
      }
    : { name };
}

/** The user_type a written type stands on (`Base?`, `(Base)`), if any. */
function baseUserType(t: Node | null | undefined): Node | undefined {
  while (t) {
    if (t.type === "user_type") return t;
    if (t.type === "nullable_type" || t.type === "parenthesized_type" || t.type === "non_nullable_type") t = t.namedChild(0);
    else return undefined;
  }
  return undefined;
}

function refOf(name: Node, kind: ReferenceFact["kind"], qualifier?: string): ReferenceFact {
  const r: ReferenceFact = { name: name.text, kind, ...at(name) };
  if (qualifier) r.qualifier = qualifier;
  return r;
}

function countParams(decl: Node): number {
  const list = decl.children.find((c) => c?.type === "function_value_parameters");
  let n = 0;
  for (const c of list?.namedChildren ?? []) if (c?.type === "parameter") n++;
  return n;
}

const TEST_DIR = /(^|\/)src\/(test|testFixtures|\w+Test)\//;
const TEST_FILE = /\w(Test|Tests|IT)\.kts?$/;

/** Kotlin: Java's family (each sees the other's classes); `name: Type` declarations; `this@Outer`. */
const RULES: ResolutionRules = {
  ...BASE_RULES,
  family: "jvm",
  implicitThis: true,
  selfQualifiers: ["this", "this@"],
  superQualifiers: ["super"],
  // Java's collection members (Kotlin calls them too) and the scope functions
  coreMembers: [...JAVA_CORE_MEMBERS, "let", "apply", "also", "run"],
  types: {
    parameter: colonParameter,
    local: bindingLocal,
    field: colonField,
    returnType: (signature, name) => arrowReturn(signature) ?? typeBeforeReturn(signature, name),
  },
  testNames: [TEST_CLASS],
};

export const kotlin: LanguageModule = {
  id: "kotlin",
  extensions: [".kt", ".kts"],
  grammar: "tree-sitter-kotlin.wasm",
  resolution: RULES,
  query: QUERY,
  /** Gradle conventions: test source sets (src/test/, src/commonTest/, src/androidTest/…) and *Test.kt names. */
  isTestFile: (path) => TEST_DIR.test(path) || TEST_FILE.test(path.slice(path.lastIndexOf("/") + 1)),
  resolveImport: (imp, _from, files) => resolveManagedImport(imp, files, [".kt", ".java"]),

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
    const userTypes: Node[] = [];
    const typeParams = new Set<string>();
    const supertypeLists: Array<{ list: Node; isInterface: boolean }> = [];
    const constructorProperties = new Set<VariableFact>();
    const boundaries: Array<{ node: Node; kind: ScopeKind }> = [];
    const navigations: Node[] = [];
    const callees = new Set<number>(); // navigation expressions that are a call's callee

    for (const m of matches) {
      if (m.decision) decisions.push(m.decision);
      else if (m.when) {
        if (m.when.firstChild?.type !== "else") decisions.push(m.when);
      } else if (m.type || m.function || m.property || m.class_param || m.enum_entry) {
        defs.push((m.type ?? m.function ?? m.property ?? m.class_param ?? m.enum_entry)!);
      } else if (m.user_type) userTypes.push(m.user_type);
      else if (m.type_param) {
        const id = m.type_param.namedChildren.find((c) => c?.type === "identifier");
        if (id) typeParams.add(id.text);
      } else if (m.package) {
        const q = m.package.namedChildren.find((c) => c?.type === "qualified_identifier" || c?.type === "identifier");
        if (q) pkg = q.text.replace(/\s+/g, "");
      } else if (m.import) readImport(m.import, ctx.project, imports, references);
      else if (m.call) readCall(m.call, src, references, callees);
      else if (m.object_literal) {
        boundaries.push({ node: m.object_literal, kind: "anonymous" });
        const supers = m.object_literal.namedChildren.find((c) => c?.type === "delegation_specifiers");
        if (supers) supertypeLists.push({ list: supers, isInterface: false });
      } else if (m.anonymous) boundaries.push({ node: m.anonymous, kind: "anonymous" });
      else if (m.lambda) boundaries.push({ node: m.lambda, kind: "lambda" });
      else if (m.nav) navigations.push(m.nav);
    }

    // `Color.RED`, `Limits.MAX`: a member read through a capitalised (type or object) name, not a call
    for (const nav of navigations) {
      if (callees.has(nav.id)) continue;
      const head = receiverOf(nav);
      const last = nav.lastNamedChild;
      if (head?.type !== "identifier" || last?.type !== "identifier" || head.id === last.id || !/^[A-Z]/.test(head.text)) continue;
      references.push(refOf(last, "read", head.text));
    }

    defs.sort((a, b) => a.startIndex - b.startIndex);
    const scopes = nestScopes<ScopeKind>([...defs.map((node) => ({ node, kind: scopeKindOf(node) })), ...boundaries]);
    const typeByNode = new Map<number, TypeFact>();
    const functionByNode = new Map<number, FunctionFact>();

    for (const d of defs) {
      const scope = scopes.get(d.id);
      // a lambda is transparent to the functions and classes declared in it, but makes properties local
      const inLambda = scope?.parent?.kind === "lambda";
      const parent = ownerScope(scope, THROUGH_LAMBDAS);
      if (parent?.kind === "anonymous") continue;
      const parentType = parent?.kind === "type" ? typeByNode.get(parent.node.id) : undefined;
      const parentFunction = parent?.kind === "function" ? functionByNode.get(parent.node.id) : undefined;
      if (parent && !parentType && !parentFunction) continue; // inside a definition that was itself skipped
      const prefix = parent ? (parentType ?? parentFunction)!.qualifiedName : pkg;
      const local = parentFunction !== undefined;
      const mods = modifiersOf(d);
      const exported = !local && !hidden(mods);

      if (TYPE_NODES.has(d.type)) {
        const nameNode = nameOfType(d);
        const name = nameNode?.text ?? (d.type === "companion_object" ? "Companion" : undefined);
        if (!name) continue;
        const kind = typeKind(d, mods);
        const fact: TypeFact = {
          name,
          qualifiedName: qualify(prefix, name),
          kind,
          startLine: line(d),
          endLine: endLine(d),
          startColumn: column(d),
          exported,
          fieldCount: 0,
          methodCount: 0,
        };
        if (parent && prefix) fact.container = prefix;
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        const supers = d.namedChildren.find((c) => c?.type === "delegation_specifiers");
        if (supers) supertypeLists.push({ list: supers, isInterface: kind === "interface" });
        types.push(fact);
        typeByNode.set(d.id, fact);
        continue;
      }

      if (FUNCTION_NODES.has(d.type)) {
        const ctor = d.type === "secondary_constructor";
        const nameNode = ctor ? undefined : d.childForFieldName("name");
        const name = ctor ? parentType?.name : nameNode?.text;
        if (!name) continue;
        let receiver: Node | undefined;
        let returns: Node | undefined;
        let body: Node | undefined;
        let seenName = false;
        for (const c of d.namedChildren) {
          if (!c || c.type === "constructor_delegation_call") continue;
          if (nameNode && c.id === nameNode.id) seenName = true;
          else if (c.type === "function_body" || c.type === "block") body = c;
          else if (!NOT_A_TYPE.has(c.type)) {
            if (seenName) returns = c;
            else receiver = c;
          }
        }
        const expressionBody = body?.type === "function_body" && body.firstChild?.type === "=";
        let returnCount = 0;
        if (returns) returnCount = returns.text === "Unit" ? 0 : 1;
        else if (expressionBody) returnCount = 1;
        const fact: FunctionFact = {
          name,
          qualifiedName: qualify(prefix, name),
          startLine: line(d),
          endLine: endLine(d),
          startColumn: column(d),
          exported,
          isMethod: parentType !== undefined,
          paramCount: countParams(d),
          returnCount,
          bodyLines: spanLines(body),
          complexity: 1,
          signature: signatureOf(src, d, body),
        };
        if (receiver && !ctor) fact.receiverType = boundedText(src, receiver);
        else if (parentType) fact.receiverType = parentType.name;
        const doc = docStartLine(d, isComment);
        if (doc !== undefined) fact.docStartLine = doc;
        functions.push(fact);
        functionByNode.set(d.id, fact);
        if (parentType) parentType.methodCount++;
        continue;
      }

      if (d.type === "enum_entry") {
        const nameNode = d.namedChildren.find((c) => c?.type === "identifier");
        if (!parentType || !nameNode) continue;
        variables.push(variable(nameNode, d, "enum_member", true, parentType.qualifiedName));
        parentType.fieldCount++;
        continue;
      }

      if (d.type === "class_parameter") {
        // `val` / `var` parameters of a primary constructor are properties of the class
        if (!d.children.some((c) => c?.type === "val" || c?.type === "var")) continue;
        const nameNode = d.namedChildren.find((c) => c?.type === "identifier");
        if (!parentType || !nameNode) continue;
        const v = variable(nameNode, d, "property", exported, parentType.qualifiedName);
        variables.push(v);
        constructorProperties.add(v);
        parentType.fieldCount++;
        continue;
      }

      // property_declaration: only those of a file or a type body are definitions (not locals of functions,
      // lambdas or initialisers)
      if (local || inLambda) continue;
      const constant = mods.words.has("const");
      const kind: VariableFact["kind"] = constant ? "constant" : parentType ? "property" : "variable";
      for (const nameNode of propertyNames(d)) {
        variables.push(variable(nameNode, d, kind, exported, prefix));
        if (parentType) parentType.fieldCount++;
      }
    }

    const classNames = new Set(types.filter((t) => t.kind === "class").map((t) => t.name));
    const supertypes = new Set<number>(); // user types recorded as inherit / implement
    for (const { list, isInterface } of supertypeLists) readSupertypes(list, isInterface, classNames, references, supertypes);

    // a `type` reference for every other user type, unless it names a type parameter or a primitive
    for (const t of userTypes) {
      if (supertypes.has(t.id)) continue;
      const n = userTypeName(t);
      if (!n || (!n.qualifier && (typeParams.has(n.name.text) || PRIMITIVES.has(n.name.text)))) continue;
      references.push(refOf(n.name, "type", n.qualifier));
    }

    attributeComplexity(functions, decisions);
    const kept = dropReadsThroughMembers(references, variables, types).sort(byPosition);
    // A constructor property's span is its line: the rest of the class header is not inside it.
    assignEnclosing(
      kept,
      functions,
      types,
      variables.filter((v) => !constructorProperties.has(v)),
    );
    const out: Extracted = { types, functions, variables, imports, references: kept };
    if (pkg) out.packageName = pkg;
    return out;
  },
};

function variable(nameNode: Node, decl: Node, kind: VariableFact["kind"], exported: boolean, container: string | undefined): VariableFact {
  // an empty container (top level) is left out, as for an absent one
  return variableFact(nameNode, decl, kind, exported, container || undefined);
}

/** The names a property declaration introduces: `val a`, `val (a, b) = pair`. */
function propertyNames(d: Node): Node[] {
  const out: Node[] = [];
  for (const c of d.namedChildren) {
    if (c?.type === "variable_declaration") {
      const id = c.namedChildren.find((x) => x?.type === "identifier");
      if (id) out.push(id);
    } else if (c?.type === "multi_variable_declaration") {
      for (const v of c.namedChildren) {
        const id = v?.type === "variable_declaration" ? v.namedChildren.find((x) => x?.type === "identifier") : undefined;
        if (id) out.push(id);
      }
    }
  }
  return out;
}

function readImport(decl: Node, project: ProjectInfo, imports: ImportFact[], references: ReferenceFact[]): void {
  const path = decl.namedChildren.find((c) => c?.type === "qualified_identifier" || c?.type === "identifier");
  if (!path) return;
  const wildcard = decl.children.some((c) => c?.type === "*");
  const aliasNode = decl.children.some((c) => c?.type === "as") ? decl.lastNamedChild : null;
  const name = path.text.replace(/\s+/g, "");
  const module = wildcard ? name + ".*" : name;
  const last = path.type === "qualified_identifier" ? path.lastNamedChild : path;
  const fact: ImportFact = { module, ...classifyManagedImport(module, project, "kotlin"), symbols: wildcard || !last ? [] : [last.text], ...at(decl) };
  if (aliasNode && aliasNode.id !== path.id) {
    fact.alias = aliasNode.text;
    references.push(refOf(aliasNode, "import"));
  } else if (!wildcard && last) references.push(refOf(last, "import"));
  imports.push(fact);
}

/**
 * The receiver of a navigation. The grammar binds a prefix operator tighter than `.` (`!owner.isEmpty()`
 * parses as `(!owner).isEmpty()`), so the operand of a prefix unary is the real receiver.
 */
function receiverOf(nav: Node): Node | null {
  let head = nav.namedChild(0);
  while (head?.type === "unary_expression") {
    const arg = head.childForFieldName("argument");
    const op = head.childForFieldName("operator");
    if (!arg || !op || op.startIndex > arg.startIndex) break;
    head = arg;
  }
  return head;
}

function readCall(call: Node, src: string, references: ReferenceFact[], callees: Set<number>): void {
  const callee = call.namedChild(0);
  if (!callee) return;
  if (callee.type === "identifier") references.push(refOf(callee, "call"));
  else if (callee.type === "navigation_expression") {
    callees.add(callee.id);
    const name = callee.lastNamedChild;
    const head = receiverOf(callee);
    if (name?.type === "identifier" && head && head.id !== name.id) references.push(refOf(name, "call", boundedText(src, head)));
  }
}

/**
 * Supertypes: with a constructor call → inherit; without → implement, unless the file declares the name
 * as a class; `by` delegation → implement; an interface's supertypes → inherit.
 */
function readSupertypes(list: Node, isInterface: boolean, classNames: Set<string>, references: ReferenceFact[], supertypes: Set<number>): void {
  for (const spec of list.namedChildren) {
    if (spec?.type !== "delegation_specifier") continue;
    for (const c of spec.namedChildren) {
      if (!c || c.type === "annotation") continue;
      let kind: ReferenceFact["kind"];
      let t: Node | undefined;
      if (c.type === "constructor_invocation") {
        kind = "inherit";
        t = baseUserType(c.namedChild(0));
      } else if (c.type === "explicit_delegation") {
        kind = isInterface ? "inherit" : "implement";
        t = baseUserType(c.namedChild(0));
      } else {
        t = baseUserType(c);
        const n = t ? userTypeName(t) : undefined;
        kind = isInterface || (n && classNames.has(n.name.text)) ? "inherit" : "implement";
      }
      const n = t ? userTypeName(t) : undefined;
      if (!t || !n) continue;
      references.push(refOf(n.name, kind, n.qualifier));
      supertypes.add(t.id);
    }
  }
}
