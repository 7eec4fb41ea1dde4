/**
 * Small readers of ECMAScript syntax nodes shared by the extractor: literal values, member names, bound
 * names of patterns, CommonJS export objects, parameter and return rules. Each looks only downwards
 * (children, fields): climbing to a parent costs O(depth) in tree-sitter.
 */
import type { Node } from "web-tree-sitter";
import { unquote } from "./kit.ts";

/** Expression wrappers between a value and what binds it: `(…)`, `… as T`, `… satisfies T`, `…!`. */
const WRAPPERS = new Set(["parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"]);

export const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "generator_function"]);

/** At most `max` characters of a node's text, whitespace collapsed (never reads a huge node whole). */
export function textOf(src: string, n: Node, max = 120): string {
  const end = Math.min(n.endIndex, n.startIndex + max * 2);
  const t = src.slice(n.startIndex, end).replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max) : t;
}

export function firstNamed(n: Node): Node | null {
  for (const c of n.namedChildren) if (c && c.type !== "comment") return c;
  return null;
}

/** The value of a string or substitution-free template literal, or undefined. */
export function literalString(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === "string") return unquote(n.text);
  if (n.type === "template_string" && !n.namedChildren.some((c) => c?.type === "template_substitution")) return unquote(n.text);
  return undefined;
}

/** A member or key name as written: `foo`, `#foo`, `"foo"` → foo, `[Symbol.iterator]`. */
export function memberName(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case "property_identifier":
    case "private_property_identifier":
    case "identifier":
    case "type_identifier":
    case "number":
      return n.text;
    case "string":
      return unquote(n.text);
    case "computed_property_name":
      return n.text.replace(/\s+/g, " ");
    default:
      return undefined;
  }
}

/** The value inside expression wrappers: `(f)` → `f`, `x as T` → `x`. */
export function unwrap(n: Node | null): Node | null {
  let v = n;
  while (v && WRAPPERS.has(v.type)) v = firstNamed(v);
  return v;
}

/** `module.exports`. */
export function isModuleExports(n: Node | null): boolean {
  return !!n && n.type === "member_expression" && n.childForFieldName("object")?.text === "module" && n.childForFieldName("property")?.text === "exports";
}

/** `exports` or `module.exports`: the CommonJS export object. */
export function isExportsObject(n: Node | null): boolean {
  return !!n && ((n.type === "identifier" && n.text === "exports") || isModuleExports(n));
}

/** A `require("x")` or `await import("x")` value: such a declarator binds an import, not a variable. */
export function isImportValue(v: Node | null): boolean {
  let n = unwrap(v);
  if (n?.type === "await_expression") n = firstNamed(n);
  if (n?.type === "member_expression") n = n.childForFieldName("object");
  if (n?.type !== "call_expression") return false;
  const fn = n.childForFieldName("function");
  return fn?.type === "import" || (fn?.type === "identifier" && fn.text === "require");
}

/** Names bound by a declarator's name pattern: `a`, `{ a, b: c, ...d }`, `[a, , b = 1]`. */
export function boundNames(pattern: Node, out: Node[] = []): Node[] {
  switch (pattern.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      out.push(pattern);
      break;
    case "object_pattern":
    case "array_pattern":
    case "rest_pattern":
      for (const c of pattern.namedChildren) if (c) boundNames(c, out);
      break;
    case "pair_pattern": {
      const v = pattern.childForFieldName("value");
      if (v) boundNames(v, out);
      break;
    }
    case "assignment_pattern":
    case "object_assignment_pattern": {
      const l = pattern.childForFieldName("left");
      if (l) boundNames(l, out);
      break;
    }
  }
  return out;
}

/** Public by TypeScript's rule: no `private` / `protected` modifier and not a `#private` name. */
export function isPublic(member: Node): boolean {
  for (const c of member.children) {
    if (!c) continue;
    if (c.type === "accessibility_modifier") return c.text === "public";
    if (c.type === "private_property_identifier") return false;
  }
  return true;
}

/** Parameters as written, without TypeScript's `this` parameter (a type annotation, not an argument). */
export function countParams(fn: Node): number {
  if (fn.childForFieldName("parameter")) return 1; // `x => …`
  const list = fn.childForFieldName("parameters");
  if (!list) return 0;
  let n = 0;
  for (const p of list.namedChildren) {
    if (!p || p.type === "comment") continue;
    if (p.type === "required_parameter" && p.text.startsWith("this") && p.childForFieldName("pattern")?.type === "this") continue;
    n++;
  }
  return n;
}

const NO_VALUE_TYPES = /^(void|never|undefined|(Promise|PromiseLike)<(void|never|undefined)>)$/;

/** Return count from a TypeScript return annotation (see src/lang/ecmascript.ts), undefined without one. */
export function annotatedReturns(fn: Node, src: string): number | undefined {
  const rt = fn.childForFieldName("return_type");
  if (!rt) return undefined;
  if (rt.type === "asserts_annotation") return 0;
  if (rt.type === "type_predicate_annotation") return 1;
  const t = rt.type === "type_annotation" ? firstNamed(rt) : rt;
  if (!t) return 1;
  return NO_VALUE_TYPES.test(textOf(src, t, 80).replace(/\s+/g, "")) ? 0 : 1;
}

/** Where a declaration's keyword is, after its own decorators (`@dec class A`, JavaScript's `@dec m() {}`). */
export function startAfterDecorators(n: Node): Node {
  const first = n.firstChild;
  if (first?.type !== "decorator") return n;
  for (const c of n.children) if (c && c.type !== "decorator" && c.type !== "comment") return c;
  return n;
}
