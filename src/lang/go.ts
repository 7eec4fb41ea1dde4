/**
 * Go: packages, functions and methods (receiver types), struct / interface / defined types, const and
 * var blocks, imports classified against go.mod modules, and references (calls, type uses, embedding).
 */
import type { Node } from "web-tree-sitter";
import type { Extracted, LanguageModule } from "./module.ts";
import type { FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "./types.ts";
import { at, assignEnclosing, attributeComplexity, column, compactText, docStartLine, endLine, line, qualify, signatureOf, spanLines, unquote } from "./kit.ts";

const QUERY = `
(comment) @comment
[(if_statement) (for_statement) (expression_case) (type_case) (communication_case)] @decision
["&&" "||"] @decision
(call_expression function: (identifier) @call.name)
(call_expression function: (selector_expression operand: (_) @call.qualifier field: (field_identifier) @call.name))
(call_expression function: (index_expression operand: (identifier) @call.name))
(qualified_type package: (package_identifier) @type.qualifier name: (type_identifier) @type.name)
(type_identifier) @type.bare
(selector_expression operand: (identifier) @read.qualifier field: (field_identifier) @read.name)
(argument_list (identifier) @ident)
(expression_list (identifier) @ident)
(literal_element (identifier) @ident)
`;

/** Predeclared types: uses of these are not references to project code. */
const BUILTIN_TYPES = new Set([
  "bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16", "int32", "int64",
  "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any", "comparable",
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
  return t.replace(/^[*\s]+/, "").replace(/\[.*$/, "").trim();
}

function classifyImport(path: string, ctx: { goModules: { module: string }[] }): Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative"> {
  if (path.startsWith("./") || path.startsWith("../")) return { isStandardLib: false, isExternal: false, isRelative: true };
  const internal = ctx.goModules.some((m) => path === m.module || path.startsWith(m.module + "/"));
  if (internal) return { isStandardLib: false, isExternal: false, isRelative: false };
  const first = path.split("/")[0] ?? "";
  const std = !first.includes(".");
  return { isStandardLib: std, isExternal: !std, isRelative: false };
}

export const go: LanguageModule = {
  id: "go",
  extensions: [".go"],
  grammar: "tree-sitter-go.wasm",
  query: QUERY,
  isTestFile: (path) => path.endsWith("_test.go"),

  extract(tree, ctx, matches): Extracted {
    const root = tree.rootNode;
    const src = ctx.source;
    let pkg: string | undefined;
    const types: TypeFact[] = [];
    const functions: FunctionFact[] = [];
    const variables: VariableFact[] = [];
    const imports: ImportFact[] = [];
    const references: ReferenceFact[] = [];
    const typeNameNodes = new Set<number>(); // ids of declaration-name nodes (not references)
    const importAliases = new Set<string>();

    for (const decl of root.namedChildren) {
      if (!decl) continue;
      switch (decl.type) {
        case "package_clause": {
          const id = decl.namedChildren.find((c) => c?.type === "package_identifier");
          if (id) pkg = id.text;
          break;
        }
        case "import_declaration": {
          for (const spec of decl.descendantsOfType("import_spec")) {
            if (!spec) continue;
            const pathNode = spec.childForFieldName("path");
            if (!pathNode) continue;
            const path = unquote(pathNode.text);
            const nameNode = spec.childForFieldName("name");
            const alias = nameNode?.text;
            const local = alias && alias !== "_" && alias !== "." ? alias : path.slice(path.lastIndexOf("/") + 1);
            importAliases.add(local);
            const fact: ImportFact = { module: path, ...classifyImport(path, ctx.project), symbols: [], ...at(spec) };
            if (alias) fact.alias = alias;
            imports.push(fact);
            // the reference sits where the local name is written: the alias, or the last path segment
            if (nameNode && alias !== "_" && alias !== ".") references.push({ name: local, kind: "import", ...at(nameNode) });
            else if (!nameNode) {
              const p = at(pathNode);
              references.push({ name: local, kind: "import", line: p.line, column: p.column + 1 + path.lastIndexOf("/") + 1 });
            }
          }
          break;
        }
        case "function_declaration":
        case "method_declaration": {
          const nameNode = decl.childForFieldName("name");
          if (!nameNode) break;
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
            qualifiedName: qualify(pkg, owner, name),
            startLine: line(decl),
            endLine: endLine(decl),
            startColumn: column(decl),
            exported: isExported(name),
            isMethod: decl.type === "method_declaration",
            paramCount: countParams(decl.childForFieldName("parameters")),
            returnCount: countParams(decl.childForFieldName("result")),
            bodyLines: spanLines(body),
            complexity: 1,
            signature: signatureOf(src, decl, body),
          };
          if (receiverType) fact.receiverType = receiverType;
          const doc = docStartLine(decl, isComment);
          if (doc !== undefined) fact.docStartLine = doc;
          functions.push(fact);
          break;
        }
        case "type_declaration": {
          for (const spec of decl.namedChildren) {
            if (!spec || (spec.type !== "type_spec" && spec.type !== "type_alias")) continue;
            const nameNode = spec.childForFieldName("name");
            const typeNode = spec.childForFieldName("type");
            if (!nameNode) continue;
            typeNameNodes.add(nameNode.id);
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
                    if (n) references.push({ name: n.text, ...(q ? { qualifier: q.text } : {}), kind: "inherit", ...at(n) });
                  } else if (t?.type === "type_identifier") references.push({ name: t.text, kind: "inherit", ...at(t) });
                }
              }
            } else if (spec.type === "type_spec" && typeNode?.type === "interface_type") {
              kind = "interface";
              for (const c of typeNode.namedChildren) {
                if (!c) continue;
                if (c.type === "method_elem") methodCount++;
                else if (c.type === "type_elem") {
                  for (const t of c.namedChildren) {
                    if (t?.type === "type_identifier") references.push({ name: t.text, kind: "inherit", ...at(t) });
                    else if (t?.type === "qualified_type") {
                      const q = t.childForFieldName("package");
                      const n = t.childForFieldName("name");
                      if (n) references.push({ name: n.text, ...(q ? { qualifier: q.text } : {}), kind: "inherit", ...at(n) });
                    }
                  }
                }
              }
            }
            const fact: TypeFact = {
              name,
              qualifiedName: qualify(pkg, name),
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
            types.push(fact);
          }
          break;
        }
        case "const_declaration":
        case "var_declaration": {
          const kind = decl.type === "const_declaration" ? "constant" : "variable";
          for (const spec of decl.descendantsOfType(kind === "constant" ? "const_spec" : "var_spec")) {
            if (!spec) continue;
            for (const n of spec.childrenForFieldName("name")) {
              if (!n || n.type !== "identifier" || n.text === "_") continue;
              variables.push({
                name: n.text,
                qualifiedName: qualify(pkg, n.text),
                kind,
                startLine: line(spec),
                endLine: endLine(spec),
                startColumn: column(n),
                exported: isExported(n.text),
              });
            }
          }
          break;
        }
      }
    }

    // Methods declared in this file count toward their receiver type.
    const byName = new Map(types.map((t) => [t.name, t]));
    for (const f of functions) {
      if (!f.receiverType) continue;
      const t = byName.get(baseTypeName(f.receiverType));
      if (t && t.kind !== "interface") t.methodCount++;
    }

    const topLevelValues = new Set<string>([...variables.map((v) => v.name), ...functions.filter((f) => !f.isMethod).map((f) => f.name)]);
    const decisions: Node[] = [];
    for (const m of matches) {
      if (m.decision) {
        decisions.push(m.decision);
        continue;
      }
      const callName = m["call.name"];
      if (callName) {
        const ref: ReferenceFact = { name: callName.text, kind: "call", ...at(callName) };
        const q = m["call.qualifier"];
        if (q) ref.qualifier = compactText(q);
        references.push(ref);
        continue;
      }
      const typeName = m["type.name"];
      if (typeName) {
        const q = m["type.qualifier"];
        typeNameNodes.add(typeName.id);
        const qt = typeName.parent;
        const holder = qt?.parent?.type === "pointer_type" ? qt.parent.parent : qt?.parent;
        if (holder?.type === "type_elem" || (holder?.type === "field_declaration" && !holder.childForFieldName("name"))) continue; // recorded as "inherit"
        references.push({ name: typeName.text, ...(q ? { qualifier: q.text } : {}), kind: "type", ...at(typeName) });
        continue;
      }
      const bare = m["type.bare"];
      if (bare) {
        if (typeNameNodes.has(bare.id) || BUILTIN_TYPES.has(bare.text)) continue;
        const p = bare.parent;
        if (!p || p.type === "qualified_type") continue;
        // embedded fields and interface embeddings were recorded as "inherit" above
        if (p.type === "field_declaration" && !p.childForFieldName("name")) continue;
        if (p.type === "type_elem") continue;
        references.push({ name: bare.text, kind: "type", ...at(bare) });
        continue;
      }
      const readName = m["read.name"];
      if (readName) {
        const q = m["read.qualifier"];
        const sel = readName.parent;
        if (!q || !importAliases.has(q.text) || !sel) continue;
        if (sel.parent?.type === "call_expression" && sel.parent.childForFieldName("function")?.id === sel.id) continue; // a call
        references.push({ name: readName.text, qualifier: q.text, kind: "read", ...at(readName) });
        continue;
      }
      const ident = m.ident;
      if (ident && topLevelValues.has(ident.text)) {
        const p = ident.parent;
        if (!p) continue;
        if (p.type === "call_expression" && p.childForFieldName("function")?.id === ident.id) continue; // a call
        if ((p.type === "const_spec" || p.type === "var_spec") && p.childrenForFieldName("name").some((c) => c?.id === ident.id)) continue;
        if (p.type === "function_declaration" || p.type === "parameter_declaration") continue;
        if (p.type === "selector_expression" && p.childForFieldName("field")?.id === ident.id) continue;
        references.push({ name: ident.text, kind: "read", ...at(ident) });
      }
    }
    attributeComplexity(functions, decisions);
    assignEnclosing(references, functions, types, variables);
    const out: Extracted = { types, functions, variables, imports, references };
    if (pkg) out.packageName = pkg;
    return out;
  },
};
