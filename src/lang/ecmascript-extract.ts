/**
 * Reads FileFacts of a TypeScript / JavaScript file from the matches of src/lang/ecmascript-query.ts (the
 * rules are listed in src/lang/ecmascript.ts). Containment is computed from offsets: definitions are swept
 * in source order with a stack of open scopes, and `enclosing`, complexity and `return` attribution use
 * OffsetIndex look-ups, so no step climbs the tree (each climb costs O(depth) in tree-sitter). Imports and
 * use sites are collected by src/lang/ecmascript-references.ts.
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, ExtractContext, QueryMatch } from "./module.ts";
import type { FunctionFact, TypeFact, TypeKind, VariableFact } from "./types.ts";
import { at, endLine, qualify, spanLines, unquote } from "./kit.ts";
import { OffsetIndex } from "./offset-index.ts";
import { EcmaReferences, type TypeRole } from "./ecmascript-references.ts";
import {
  FUNCTION_VALUES,
  annotatedReturns,
  boundNames,
  countParams,
  firstNamed,
  isExportsObject,
  isImportValue,
  isModuleExports,
  isPublic,
  memberName,
  startAfterDecorators,
  textOf,
  unwrap,
} from "./ecmascript-nodes.ts";

const FUNCTION_DEFS = new Set([
  "def.function",
  "def.generator",
  "def.expression",
  "def.generator_expression",
  "def.method",
  "def.signature",
  "def.abstract_method",
  "def.method_signature",
]);
const TYPE_DEFS: Record<string, TypeKind> = {
  "def.class": "class",
  "def.class_expression": "class",
  "def.interface": "interface",
  "def.enum": "enum",
  "def.type_alias": "type_alias",
  "def.namespace": "namespace",
  "def.module": "module",
};
const CLASS_MEMBERS = new Set(["def.method", "def.abstract_method", "def.method_signature"]);

/** What binds a function, class or object literal to a name (from the query's `bind.*` captures). */
interface Binding {
  kind: "variable" | "pair" | "assignment" | "default" | "field";
  /** The name (`bind.variable`, `bind.key`, `bind.field`) or left side (`bind.left`). */
  target: Node;
  /** The declaration statement (variable), field definition (field) or export statement (default). */
  holder?: Node;
}

interface Def {
  node: Node;
  kind: string;
  end: number;
}

interface Scope {
  end: number;
  kind: "function" | "class" | "type" | "namespace" | "object" | "global";
  /** Qualified name nested definitions are prefixed with (inherited through anonymous functions and objects). */
  qn: string | undefined;
  /** For types: the name nested types give as their container. */
  typeName?: string;
  /** Classes and interfaces: the receiver of their methods, and where the previous member ended (decorators in between are the next member's). */
  cls?: { name: string | undefined; exported: boolean; lastMemberEnd: number };
  /** Namespaces: whether members are exported without `export` (ambient), and whether the namespace itself is. */
  ns?: { exported: boolean; ambient: boolean };
  /** Objects: the names that lead to the object (`api`, `api.nested`) and whether it is exported. */
  path?: ObjectPath;
  exported?: boolean;
}

/** A path of names as a linked list: nested objects share their parent's path instead of copying it. */
interface ObjectPath {
  key: string;
  parent?: ObjectPath;
}

function pathNames(p: ObjectPath | undefined): string[] {
  const out: string[] = [];
  for (let q = p; q; q = q.parent) out.push(q.key);
  return out.reverse();
}

interface PendingFunction {
  fact: FunctionFact;
  fn: Node;
  end: number;
  signatureOnly: boolean;
  /** True when `return <expression>` statements decide the return count (no annotation, a block body). */
  byReturns: boolean;
}

interface Anchor {
  /** Offset and row where the declaration and its decorators / `export` / `declare` begin. */
  start: number;
  row: number;
}

export class EcmaExtraction {
  private readonly src: string;
  private readonly types: TypeFact[] = [];
  private readonly functions: PendingFunction[] = [];
  private readonly variables: VariableFact[] = [];
  /** Definition spans for `enclosing`. */
  private readonly spans: Array<{ start: number; end: number; item: string }> = [];
  /** Imports and use sites. */
  private readonly uses: EcmaReferences;

  private readonly buckets: Record<string, Node[]> = {};
  private readonly defs: Def[] = [];
  private readonly bindings = new Map<number, Binding>();
  /** Declarations written as `export <declaration>` → the export statement. */
  private readonly exportOf = new Map<number, Node>();
  /** Declarations written as `declare <declaration>` → the ambient declaration. */
  private readonly ambientOf = new Map<number, Node>();
  private readonly generatorMethods = new Set<number>();
  private readonly setters = new Set<number>();
  private readonly memberDecorators: Node[] = [];
  private readonly members: Array<[Node, Node, Node]> = [];
  private readonly typeRoles = new Map<number, TypeRole>();
  /** Comments that begin their line, by the row they end on (for doc comments). */
  private readonly commentsByEndRow = new Map<number, number>();

  /** Names exported by lists, `export default x`, `export = x` and CommonJS assignments. */
  private readonly exportedNames = new Set<string>();
  /** Top-level definitions already seen and whether each is exported (for `X.prototype.m = …`). */
  private readonly topLevelExported = new Map<string, boolean>();
  private readonly isDts: boolean;
  private readonly globalScript: boolean;

  constructor(
    readonly ctx: ExtractContext,
    matches: QueryMatch[],
    private readonly root: Node,
  ) {
    this.src = ctx.source;
    this.uses = new EcmaReferences(ctx.source, ctx.project);
    for (const m of matches) this.sort(m);
    this.isDts = /\.d\.[cm]?ts$/.test(ctx.path);
    // A declaration file without import or export is a global script: what it declares is visible everywhere.
    this.globalScript = this.isDts && this.bucket("module_syntax").length === 0;
  }

  /** Files each match under what the extractor needs from it. */
  private sort(m: QueryMatch): void {
    const value = m["bind.value"];
    if (value) {
      let b: Binding | undefined;
      if (m["bind.variable"]) b = { kind: "variable", target: m["bind.variable"], holder: m["bind.statement"]! };
      else if (m["bind.key"]) b = { kind: "pair", target: m["bind.key"] };
      else if (m["bind.field"]) b = { kind: "field", target: m["bind.field"], holder: m["bind.member"]! };
      else if (m["bind.left"]) b = { kind: "assignment", target: m["bind.left"] };
      else if (m["bind.default"]) b = { kind: "default", target: value, holder: m["bind.default"] };
      if (b) this.bindings.set(value.id, b);
      return;
    }
    const exported = m["export.declaration"];
    if (exported) {
      this.exportOf.set(exported.id, m["export.statement"]!);
      return;
    }
    const ambient = m["ambient.declaration"];
    if (ambient) {
      this.ambientOf.set(ambient.id, m["ambient.statement"]!);
      return;
    }
    const memberObject = m["member.object"];
    if (memberObject) {
      this.members.push([memberObject, m["member.property"]!, m.member!]);
      return;
    }
    const nested = m["type.nested"];
    if (nested) {
      this.typeRoles.set(nested.id, m["type.module"]!);
      return;
    }
    if (m["method.generator"]) return void this.generatorMethods.add(m["method.generator"].id);
    if (m["method.setter"]) return void this.setters.add(m["method.setter"].id);
    for (const key in m) {
      const n = m[key];
      if (!n) continue;
      if (key.startsWith("def.")) this.defs.push({ node: n, kind: key, end: n.endIndex });
      else if (key === "type.parameter") this.typeRoles.set(n.id, "parameter");
      else if (key === "type.declared") this.typeRoles.set(n.id, "declared");
      else if (key === "member.decorator") this.memberDecorators.push(n);
      else if (key === "jsx.closing")
        this.uses.consumed.add(n.id); // `</ui.Panel>` repeats the opening tag
      else if (key === "doc") this.noteComment(n);
      else (this.buckets[key] ??= []).push(n);
    }
  }

  private bucket(name: string): Node[] {
    return this.buckets[name] ?? [];
  }

  run(): Extracted {
    for (const s of this.bucket("export")) this.collectExportList(s);
    for (const a of this.bucket("cjs")) this.collectCommonJsExports(a);
    for (const s of this.bucket("import")) this.uses.importStatement(s);
    for (const s of this.bucket("export")) this.uses.reExport(s);
    this.definitions();
    this.collectVariables();
    this.commonJsVariables();
    this.complexityAndReturns();
    this.uses.collect({
      bucket: (c) => this.bucket(c),
      members: this.members,
      typeRoles: this.typeRoles,
      values: this.moduleLevelValues(),
      declaredTypes: new Set(this.types.map((t) => t.name)),
      root: this.root,
    });

    const index = new OffsetIndex(this.spans);
    for (const r of this.uses.refs) {
      const enclosing = index.find(r.offset);
      if (enclosing) r.ref.enclosing = enclosing;
    }
    const byPosition = <T extends { startLine: number; startColumn: number }>(a: T, b: T) => a.startLine - b.startLine || a.startColumn - b.startColumn;
    return {
      types: this.types.sort(byPosition),
      functions: this.functions.map((p) => p.fact).sort(byPosition),
      variables: this.variables.sort(byPosition),
      imports: this.uses.imports.sort((a, b) => a.line - b.line || a.column - b.column),
      references: this.uses.refs.map((r) => r.ref).sort((a, b) => a.line - b.line || a.column - b.column),
    };
  }

  // ---- comments ------------------------------------------------------------------------------------

  private noteComment(c: Node): void {
    const start = c.startIndex;
    const lineStart = this.src.lastIndexOf("\n", start - 1) + 1;
    if (this.src.slice(lineStart, start).trim() !== "") return; // a trailing comment documents nothing below it
    const row = c.endPosition.row;
    const startRow = c.startPosition.row;
    const prev = this.commentsByEndRow.get(row);
    if (prev === undefined || startRow < prev) this.commentsByEndRow.set(row, startRow);
  }

  /** First line (1-based) of the run of comments ending on the line above `row`, each on its own lines. */
  private docLine(row: number): number | undefined {
    let start: number | undefined;
    let r = row - 1;
    for (;;) {
      const s = this.commentsByEndRow.get(r);
      if (s === undefined) break;
      start = s;
      r = s - 1;
    }
    return start === undefined ? undefined : start + 1;
  }

  // ---- exports -------------------------------------------------------------------------------------

  private collectExportList(stmt: Node): void {
    if (stmt.childForFieldName("source") || stmt.childForFieldName("declaration")) return;
    for (const c of stmt.namedChildren) {
      if (!c) continue;
      if (c.type === "export_clause") {
        for (const spec of c.namedChildren) {
          const name = spec?.type === "export_specifier" ? spec.childForFieldName("name") : null;
          if (name?.type === "identifier") this.exportedNames.add(name.text);
        }
      } else if (c.type === "identifier") this.exportedNames.add(c.text); // export default x; export = x
    }
  }

  private collectCommonJsExports(assign: Node): void {
    const left = assign.childForFieldName("left");
    const right = unwrap(assign.childForFieldName("right"));
    if (!left || !right) return;
    if (isModuleExports(left)) {
      if (right.type === "identifier") this.exportedNames.add(right.text);
      else if (right.type === "object") {
        for (const c of right.namedChildren) {
          if (c?.type === "shorthand_property_identifier") this.exportedNames.add(c.text);
          else if (c?.type === "pair") {
            const v = c.childForFieldName("value");
            if (v?.type === "identifier") this.exportedNames.add(v.text);
          }
        }
      }
    } else if (left.type === "member_expression" && isExportsObject(left.childForFieldName("object")) && right.type === "identifier") {
      this.exportedNames.add(right.text);
    }
  }

  /** `export <decl>` or `export declare <decl>`. */
  private hasExportKeyword(decl: Node): boolean {
    if (this.exportOf.has(decl.id)) return true;
    const ambient = this.ambientOf.get(decl.id);
    return !!ambient && this.exportOf.has(ambient.id);
  }

  /** Where a declaration begins with its `declare` and `export` keywords. */
  private anchorOf(decl: Node): Anchor {
    let n = decl;
    const ambient = this.ambientOf.get(n.id);
    if (ambient) n = ambient;
    const exp = this.exportOf.get(n.id) ?? this.exportOf.get(decl.id);
    if (exp) n = exp;
    return { start: n.startIndex, row: n.startPosition.row };
  }

  /** Whether a declaration is exported, by where it sits (see src/lang/ecmascript.ts). */
  private exportedIn(decl: Node, name: string | undefined, scope: Scope | undefined): boolean {
    const keyword = this.hasExportKeyword(decl);
    if (!scope) return keyword || (name !== undefined && this.exportedNames.has(name)) || this.globalScript;
    if (scope.kind === "global") return true;
    if (scope.kind === "namespace" && scope.ns) return scope.ns.exported && (keyword || scope.ns.ambient);
    return false;
  }

  // ---- definitions ---------------------------------------------------------------------------------

  /** Sweeps definitions in source order; the open scopes on the stack are exactly the ones around each. */
  private definitions(): void {
    const defs = this.defs.sort((a, b) => a.node.startIndex - b.node.startIndex || b.end - a.end);
    this.memberDecorators.sort((a, b) => a.startIndex - b.startIndex);
    const stack: Scope[] = [];
    for (const d of defs) {
      const start = d.node.startIndex;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= start) stack.pop();
      stack.push(this.definition(d, stack[stack.length - 1]));
    }
    // Overload signatures: keep the implementation, or else the first signature.
    const seen = new Map<string, number>();
    const keep: PendingFunction[] = [];
    for (const p of this.functions) {
      const at = seen.get(p.fact.qualifiedName);
      const prev = at === undefined ? undefined : keep[at];
      if (prev && (p.signatureOnly || prev.signatureOnly)) {
        if (prev.signatureOnly && !p.signatureOnly) keep[at!] = p;
        continue;
      }
      seen.set(p.fact.qualifiedName, keep.length);
      keep.push(p);
    }
    this.functions.splice(0, this.functions.length, ...keep);
  }

  private definition(d: Def, scope: Scope | undefined): Scope {
    const inherited: Scope = { end: d.end, kind: "function", qn: scope?.qn };
    if (FUNCTION_DEFS.has(d.kind)) return this.functionDefinition(d, scope) ?? inherited;
    if (d.kind === "def.object") return this.objectScope(d, scope);
    if (d.kind === "def.global") {
      const s: Scope = { end: d.end, kind: "global", qn: scope?.qn };
      this.blockVariables(d.node, s);
      return s;
    }
    const kind = TYPE_DEFS[d.kind];
    if (kind) return this.typeDefinition(d, kind, scope) ?? inherited;
    return inherited;
  }

  /** An object literal's scope: the path of names its members are qualified with. */
  private objectScope(d: Def, scope: Scope | undefined): Scope {
    const s: Scope = { end: d.end, kind: "object", qn: scope?.qn, exported: false };
    const b = this.bindings.get(d.node.id);
    if (!b) return s;
    switch (b.kind) {
      case "variable":
        s.path = { key: b.target.text };
        s.exported = this.exportedIn(b.holder!, b.target.text, scope);
        break;
      case "pair": {
        const key = memberName(b.target);
        if (key && scope?.kind === "object") {
          s.path = scope.path ? { key, parent: scope.path } : { key };
          s.exported = scope.exported;
        } else if (key) s.path = { key };
        break;
      }
      case "field": {
        const key = memberName(b.target);
        if (key) s.path = { key };
        s.exported = !!scope?.cls?.exported && isPublic(b.holder!);
        break;
      }
      case "assignment": {
        const left = b.target;
        if (isModuleExports(left)) s.exported = true;
        else if (left.type === "member_expression" && isExportsObject(left.childForFieldName("object"))) {
          s.path = { key: left.childForFieldName("property")?.text ?? "" };
          s.exported = true;
        } else if (/^[A-Za-z_$][\w$.]*$/.test(textOf(this.src, left))) s.path = { key: textOf(this.src, left) };
        break;
      }
      case "default":
        s.path = { key: "default" };
        s.exported = true;
        break;
    }
    return s;
  }

  private functionDefinition(d: Def, scope: Scope | undefined): Scope | undefined {
    const fn = d.node;
    let name: string | undefined;
    let qn: string;
    let factStart: Node = fn; // where the fact's lines start
    let anchor: Anchor | undefined; // where doc comments and the enclosing span start
    let exported = false;
    let isMethod = false;
    let receiverType: string | undefined;
    let memberOf: TypeFact | undefined;

    if (d.kind === "def.function" || d.kind === "def.generator" || d.kind === "def.signature") {
      name = fn.childForFieldName("name")?.text;
      if (!name) return undefined;
      qn = qualify(scope?.qn, name);
      exported = this.exportedIn(fn, name, scope);
      anchor = this.anchorOf(fn);
    } else if (CLASS_MEMBERS.has(d.kind)) {
      name = memberName(fn.childForFieldName("name"));
      if (!name || !scope) return undefined;
      isMethod = true;
      if (scope.kind === "object") {
        const path = pathNames(scope.path);
        qn = qualify(scope.qn, ...path, name);
        if (path.length > 0) receiverType = path.join(".");
        exported = !!scope.exported;
      } else if (scope.cls) {
        qn = qualify(scope.qn, name);
        receiverType = scope.cls.name;
        exported = scope.cls.exported && isPublic(fn);
        anchor = this.memberAnchor(fn, scope);
      } else return undefined;
      factStart = startAfterDecorators(fn);
    } else {
      // function and arrow expressions: named by what binds them
      const b = this.bindings.get(fn.id);
      if (!b) return undefined;
      switch (b.kind) {
        case "variable":
          name = b.target.text;
          qn = qualify(scope?.qn, name);
          exported = this.exportedIn(b.holder!, name, scope);
          factStart = b.holder!;
          anchor = this.anchorOf(b.holder!);
          break;
        case "pair": {
          name = memberName(b.target);
          if (!name || scope?.kind !== "object") return undefined;
          const path = pathNames(scope.path);
          qn = qualify(scope.qn, ...path, name);
          isMethod = true;
          if (path.length > 0) receiverType = path.join(".");
          exported = !!scope.exported;
          factStart = b.target;
          break;
        }
        case "field":
          name = memberName(b.target);
          if (!name || !scope?.cls) return undefined;
          qn = qualify(scope.qn, name);
          isMethod = true;
          receiverType = scope.cls.name;
          exported = scope.cls.exported && isPublic(b.holder!);
          factStart = startAfterDecorators(b.holder!);
          break;
        case "assignment": {
          const bound = this.assignmentBinding(b.target, fn, scope);
          if (!bound) return undefined;
          ({ name, qn, exported, isMethod } = bound);
          receiverType = bound.receiverType;
          if (receiverType) memberOf = this.types.find((t) => t.name === receiverType && t.kind === "class");
          factStart = b.target;
          break;
        }
        case "default":
          name = fn.childForFieldName("name")?.text ?? "default";
          qn = qualify(scope?.qn, name);
          exported = true;
          anchor = { start: b.holder!.startIndex, row: b.holder!.startPosition.row };
          break;
      }
    }

    const body = fn.childForFieldName("body");
    const start = factStart.startPosition;
    anchor ??= { start: factStart.startIndex, row: start.row };
    const fact: FunctionFact = {
      name,
      qualifiedName: qn,
      startLine: start.row + 1,
      endLine: endLine(fn),
      startColumn: start.column + 1,
      exported,
      isMethod,
      paramCount: countParams(fn),
      returnCount: 0,
      bodyLines: spanLines(body),
      complexity: 1,
      signature: this.signature(factStart.startIndex, body ? body.startIndex : d.end),
    };
    if (receiverType) fact.receiverType = receiverType;
    const doc = this.docLine(anchor.row);
    if (doc !== undefined) fact.docStartLine = doc;

    let byReturns = false;
    const annotated = annotatedReturns(fn, this.src);
    if (annotated !== undefined) fact.returnCount = annotated;
    else if ((name === "constructor" && isMethod) || this.setters.has(fn.id)) fact.returnCount = 0;
    else if (d.kind === "def.generator" || d.kind === "def.generator_expression" || this.generatorMethods.has(fn.id)) fact.returnCount = 1;
    else if (body && body.type !== "statement_block") fact.returnCount = 1;
    else if (body) byReturns = true;
    if (memberOf) memberOf.methodCount++;

    this.functions.push({ fact, fn, end: d.end, signatureOnly: !body, byReturns });
    this.spans.push({ start: anchor.start, end: d.end, item: qn });
    if (!scope && !isMethod && !qn.includes(".")) this.topLevelExported.set(name, exported);
    return { end: d.end, kind: "function", qn };
  }

  /** A class member's anchor: the first of the decorators written between the previous member and it. */
  private memberAnchor(member: Node, scope: Scope): Anchor {
    const cls = scope.cls!;
    const start = member.startIndex;
    let anchor: Anchor = { start, row: member.startPosition.row };
    const decorators = this.memberDecorators;
    let lo = 0;
    let hi = decorators.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (decorators[mid]!.startIndex < cls.lastMemberEnd) lo = mid + 1;
      else hi = mid;
    }
    const first = decorators[lo];
    if (first && first.startIndex < start) anchor = { start: first.startIndex, row: first.startPosition.row };
    cls.lastMemberEnd = member.endIndex;
    return anchor;
  }

  /** `x.y = function …`: who the function belongs to, by the left side (see src/lang/ecmascript.ts). */
  private assignmentBinding(
    left: Node,
    fn: Node,
    scope: Scope | undefined,
  ): { name: string; qn: string; exported: boolean; isMethod: boolean; receiverType?: string } | undefined {
    const ownName = fn.childForFieldName("name")?.text;
    if (left.type === "identifier")
      return { name: left.text, qn: qualify(scope?.qn, left.text), exported: !scope && this.exportedNames.has(left.text), isMethod: false };
    if (isModuleExports(left)) {
      const name = ownName ?? "default";
      return { name, qn: qualify(scope?.qn, name), exported: true, isMethod: false };
    }
    if (left.type !== "member_expression") return undefined;
    const prop = left.childForFieldName("property");
    const obj = left.childForFieldName("object");
    if (!prop || !obj || prop.type !== "property_identifier") return undefined;
    const name = prop.text;
    if (isExportsObject(obj)) return { name, qn: qualify(scope?.qn, name), exported: true, isMethod: false };
    let owner = obj;
    if (owner.type === "member_expression" && owner.childForFieldName("property")?.text === "prototype") owner = owner.childForFieldName("object")!;
    const ownerText = textOf(this.src, owner);
    if (ownerText === "this" || !/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(ownerText)) return undefined; // `this.x = …`, computed owners
    const root = ownerText.split(".")[0]!;
    const exported = this.exportedNames.has(root) || this.topLevelExported.get(root) === true;
    return { name, qn: qualify(scope?.qn, ownerText, name), exported, isMethod: true, receiverType: ownerText };
  }

  private typeDefinition(d: Def, kind: TypeKind, scope: Scope | undefined): Scope | undefined {
    const node = d.node;
    const nameNode = node.childForFieldName("name");
    let name: string | undefined;
    let fullName: string | undefined; // `A.B` for `namespace A.B`
    let factStart: Node = node;
    let anchor: Anchor;
    let exported: boolean;
    const anonymousClass = (): Scope => ({
      end: d.end,
      kind: "class",
      qn: scope?.qn,
      cls: { name: undefined, exported: false, lastMemberEnd: node.startIndex },
    });
    if (d.kind === "def.class_expression") {
      const b = this.bindings.get(node.id);
      if (b?.kind === "variable") {
        name = b.target.text;
        exported = this.exportedIn(b.holder!, name, scope);
        factStart = b.holder!;
        anchor = this.anchorOf(b.holder!);
      } else if (b?.kind === "default") {
        name = nameNode?.text ?? "default";
        exported = true;
        anchor = { start: b.holder!.startIndex, row: b.holder!.startPosition.row };
      } else if (
        b?.kind === "assignment" &&
        (isModuleExports(b.target) || (b.target.type === "member_expression" && isExportsObject(b.target.childForFieldName("object"))))
      ) {
        name = isModuleExports(b.target) ? (nameNode?.text ?? "default") : b.target.childForFieldName("property")?.text;
        exported = true;
        factStart = b.target;
        anchor = { start: b.target.startIndex, row: b.target.startPosition.row };
      } else return anonymousClass();
      if (!name) return anonymousClass();
    } else {
      if (!nameNode) return undefined;
      if (d.kind === "def.module" && nameNode.type === "string") {
        name = unquote(nameNode.text);
        exported = true; // an ambient module declaration describes a module anyone may import
      } else {
        fullName = nameNode.text.replace(/\s+/g, "");
        name = fullName.slice(fullName.lastIndexOf(".") + 1);
        exported = this.exportedIn(node, fullName.split(".")[0], scope);
        if (d.kind === "def.module") kind = "namespace"; // `module Foo {}` is the old spelling of namespace
      }
      anchor = this.anchorOf(node);
      if (d.kind === "def.class") factStart = startAfterDecorators(node);
    }
    const qn = qualify(scope?.qn, fullName ?? name);
    const start = factStart.startPosition;
    const fact: TypeFact = {
      name,
      qualifiedName: qn,
      kind,
      startLine: start.row + 1,
      endLine: endLine(node),
      startColumn: start.column + 1,
      exported,
      fieldCount: 0,
      methodCount: 0,
    };
    if (scope?.typeName) fact.container = scope.typeName;
    const doc = this.docLine(anchor.row);
    if (doc !== undefined) fact.docStartLine = doc;
    this.types.push(fact);
    this.spans.push({ start: anchor.start, end: d.end, item: qn });
    if (!scope) this.topLevelExported.set(name, exported);

    const body = node.childForFieldName("body");
    if (kind === "class") {
      if (body) this.countClassMembers(body, fact);
      return { end: d.end, kind: "class", qn, typeName: name, cls: { name, exported, lastMemberEnd: node.startIndex } };
    }
    if (kind === "interface" && body) {
      this.countSignatureMembers(body, fact);
      // its method signatures are its methods (`Store.get`, no body), as Go's and Java's interface methods are
      return { end: d.end, kind: "type", qn, typeName: name, cls: { name, exported, lastMemberEnd: node.startIndex } };
    } else if (kind === "type_alias") {
      const value = node.childForFieldName("value");
      if (value?.type === "object_type") this.countSignatureMembers(value, fact);
    } else if (kind === "enum" && body) this.enumMembers(body, fact);
    else if (kind === "namespace" || kind === "module") {
      const ambient = this.isDts || this.ambientOf.has(node.id) || !!scope?.ns?.ambient || scope?.kind === "global";
      const s: Scope = { end: d.end, kind: "namespace", qn, typeName: name, ns: { exported, ambient } };
      if (body) this.blockVariables(body, s);
      return s;
    }
    return { end: d.end, kind: "type", qn, typeName: name };
  }

  private countClassMembers(body: Node, fact: TypeFact): void {
    const fields = new Set<string>();
    const methods = new Set<string>();
    for (const m of body.namedChildren) {
      if (!m) continue;
      switch (m.type) {
        case "method_definition":
        case "method_signature":
        case "abstract_method_signature": {
          const name = memberName(m.childForFieldName("name"));
          if (!name) break;
          if (name !== "constructor") {
            methods.add(name);
            break;
          }
          for (const p of m.childForFieldName("parameters")?.namedChildren ?? []) {
            // parameter properties: `constructor(private readonly db: Db)`
            if (
              p &&
              (p.type === "required_parameter" || p.type === "optional_parameter") &&
              p.children.some((c) => c?.type === "accessibility_modifier" || c?.type === "readonly" || c?.type === "override_modifier")
            ) {
              const id = p.childForFieldName("pattern");
              if (id) fields.add(id.text);
            }
          }
          break;
        }
        case "public_field_definition":
        case "field_definition": {
          const name = memberName(m.childForFieldName("name") ?? m.childForFieldName("property"));
          if (!name) break;
          const v = unwrap(m.childForFieldName("value"));
          if (v && FUNCTION_VALUES.has(v.type)) methods.add(name);
          else fields.add(name);
          break;
        }
      }
    }
    fact.fieldCount = fields.size;
    fact.methodCount = methods.size;
  }

  private countSignatureMembers(body: Node, fact: TypeFact): void {
    const fields = new Set<string>();
    const methods = new Set<string>();
    for (const m of body.namedChildren) {
      if (!m || (m.type !== "property_signature" && m.type !== "method_signature")) continue;
      const name = memberName(m.childForFieldName("name"));
      if (!name) continue;
      (m.type === "property_signature" ? fields : methods).add(name);
    }
    fact.fieldCount = fields.size;
    fact.methodCount = methods.size;
  }

  private enumMembers(body: Node, fact: TypeFact): void {
    for (const m of body.namedChildren) {
      if (!m || m.type === "comment") continue;
      const nameNode = m.type === "enum_assignment" ? m.childForFieldName("name") : m;
      const name = memberName(nameNode);
      if (!nameNode || !name) continue;
      fact.fieldCount++;
      const p = at(nameNode);
      this.variables.push({
        name,
        qualifiedName: qualify(fact.qualifiedName, name),
        kind: "enum_member",
        startLine: p.line,
        endLine: endLine(m),
        startColumn: p.column,
        exported: fact.exported,
        container: fact.name,
      });
    }
  }

  private signature(start: number, end: number): string {
    const text = this.src
      .slice(start, Math.min(end, start + 800))
      .replace(/\s+/g, " ")
      .trim()
      .replace(/\s*;$/, "");
    return text.length > 400 ? text.slice(0, 399) + "…" : text;
  }

  // ---- variables -----------------------------------------------------------------------------------

  /** Module-level bindings that hold neither a function, a class nor an import. */
  private collectVariables(): void {
    for (const stmt of this.bucket("variables.top")) this.declarationVariables(stmt, undefined);
  }

  /** The declarations of a namespace body or `declare global` block, through `export` and `declare`. */
  private blockVariables(block: Node, scope: Scope): void {
    for (const child of block.namedChildren) {
      let stmt: Node | null = child;
      while (stmt && (stmt.type === "export_statement" || stmt.type === "ambient_declaration")) {
        stmt = stmt.type === "export_statement" ? stmt.childForFieldName("declaration") : firstNamed(stmt);
      }
      if (stmt && (stmt.type === "lexical_declaration" || stmt.type === "variable_declaration")) this.declarationVariables(stmt, scope);
    }
  }

  private declarationVariables(stmt: Node, ns: Scope | undefined): void {
    const kind = stmt.childForFieldName("kind")?.text === "const" ? "constant" : "variable";
    for (const d of stmt.namedChildren) {
      if (d?.type !== "variable_declarator") continue;
      const value = unwrap(d.childForFieldName("value"));
      if (value && (FUNCTION_VALUES.has(value.type) || value.type === "class")) continue; // a function or class
      if (isImportValue(value)) continue;
      const pattern = d.childForFieldName("name");
      if (!pattern) continue;
      for (const id of boundNames(pattern)) {
        const name = id.text;
        const fact: VariableFact = {
          name,
          qualifiedName: qualify(ns?.qn, name),
          kind,
          startLine: d.startPosition.row + 1,
          endLine: endLine(d),
          startColumn: id.startPosition.column + 1,
          exported: this.exportedIn(stmt, name, ns),
        };
        if (ns?.typeName) fact.container = ns.typeName;
        this.variables.push(fact);
        this.spans.push({ start: d.startIndex, end: d.endIndex, item: fact.qualifiedName });
      }
    }
  }

  /** `exports.x = <value>` (not a function, class, name or require): an exported module-level variable. */
  private commonJsVariables(): void {
    for (const assign of this.bucket("cjs")) {
      const left = assign.childForFieldName("left");
      const right = unwrap(assign.childForFieldName("right"));
      if (left?.type !== "member_expression" || !right || !isExportsObject(left.childForFieldName("object"))) continue;
      if (FUNCTION_VALUES.has(right.type) || right.type === "class" || right.type === "identifier" || isImportValue(right)) continue;
      const prop = left.childForFieldName("property");
      if (prop?.type !== "property_identifier") continue;
      const p = at(prop);
      this.variables.push({
        name: prop.text,
        qualifiedName: prop.text,
        kind: "variable",
        startLine: p.line,
        endLine: endLine(assign),
        startColumn: p.column,
        exported: true,
      });
      this.spans.push({ start: assign.startIndex, end: assign.endIndex, item: prop.text });
    }
  }

  // ---- complexity and returns ----------------------------------------------------------------------

  private complexityAndReturns(): void {
    // Every function node, named or not, so a `return` inside a callback is the callback's.
    const byNode = new Map<number, PendingFunction>(this.functions.map((p) => [p.fn.id, p]));
    const allFunctions = new OffsetIndex(
      this.defs.filter((d) => FUNCTION_DEFS.has(d.kind)).map((d) => ({ start: d.node.startIndex, end: d.end, item: d.node.id })),
    );
    for (const r of this.bucket("return")) {
      const fnId = allFunctions.find(r.startIndex);
      const p = fnId === undefined ? undefined : byNode.get(fnId);
      if (p?.byReturns) p.fact.returnCount = 1;
    }
    const named = new OffsetIndex(this.functions.map((p) => ({ start: p.fn.startIndex, end: p.end, item: p.fact })));
    for (const d of this.bucket("decision")) {
      const f = named.find(d.startIndex);
      if (f) f.complexity++;
    }
  }

  // ---- reads ---------------------------------------------------------------------------------------

  /** Names whose reads are worth recording: module-level variables, functions, classes, enums and imports. */
  private moduleLevelValues(): Set<string> {
    const values = new Set<string>(this.uses.importLocals);
    for (const v of this.variables) if (v.qualifiedName === v.name) values.add(v.name);
    for (const p of this.functions) if (p.fact.qualifiedName === p.fact.name && !p.fact.isMethod) values.add(p.fact.name);
    for (const t of this.types) if (t.qualifiedName === t.name && (t.kind === "class" || t.kind === "enum")) values.add(t.name);
    return values;
  }
}
