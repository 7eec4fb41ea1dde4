/**
 * Which definitions a reference of each kind can name, and which languages see each other's names
 * (TypeScript and JavaScript, C and C++, Java and Kotlin): the small tables reference resolution and the
 * symbol queries share.
 */

export const TYPE_KINDS = new Set(["struct", "interface", "class", "enum", "type_alias", "trait", "union", "record", "object", "module", "namespace"]);
const CALLABLE = new Set(["function", "method", "class", "struct", "record"]);
const VALUE = new Set(["constant", "variable", "enum_member", "field", "property", "function", "method", ...TYPE_KINDS]);

const FITS: Record<string, Set<string>> = { call: CALLABLE, type: TYPE_KINDS, inherit: TYPE_KINDS, implement: TYPE_KINDS, read: VALUE };

/** Whether a definition of `symbolKind` can be what a reference of `refKind` names. */
export function kindFits(refKind: string, symbolKind: string): boolean {
  const set = FITS[refKind];
  return set === undefined || set.has(symbolKind);
}

const FAMILY: Record<string, string> = {
  typescript: "js", tsx: "js", javascript: "js", jsx: "js", c: "c", cpp: "c", java: "jvm", kotlin: "jvm",
};

/** Languages whose names can refer to each other's definitions share a family. */
export function family(language: string): string {
  return FAMILY[language] ?? language;
}

/** Languages where an unqualified name inside a class body or method may be a member (implicit `this`). */
export const IMPLICIT_THIS = new Set(["java", "kotlin", "c_sharp", "cpp", "ruby"]);

/**
 * Languages whose module systems make every outside name come through an import (or a qualifier): an
 * unqualified name there is never resolved to some other file's definition by name alone.
 */
export const STRICT_MODULES = new Set(["go", "python", "js", "rust"]);

/** Qualifiers that name the current object or class. */
export const SELF_QUALIFIERS = new Set(["this", "self", "$this", "static", "Self", "cls", "this@"]);
/** Qualifiers that name the base class. */
export const SUPER_QUALIFIERS = new Set(["super", "super()", "parent", "base"]);

/**
 * Methods of each language's core collection, string and object types. A call like `x.get()` on a
 * receiver of unknown type names one of these far more often than a project method of the same name, so
 * such a call is never resolved by its name alone.
 */
const CORE_MEMBERS: Record<string, string[]> = {
  js: ["get", "set", "has", "delete", "clear", "add", "push", "pop", "shift", "unshift", "slice", "splice", "map", "filter", "reduce", "forEach", "find", "findIndex", "includes", "indexOf", "join", "split", "replace", "trim", "keys", "values", "entries", "then", "catch", "finally", "toString", "valueOf", "concat", "sort", "some", "every", "emit", "on", "once", "call", "apply", "bind"],
  python: ["get", "items", "keys", "values", "update", "pop", "append", "extend", "insert", "remove", "add", "discard", "clear", "copy", "sort", "join", "split", "strip", "replace", "format", "startswith", "endswith", "lower", "upper", "encode", "decode", "setdefault", "count", "index", "read", "write", "close"],
  ruby: ["each", "map", "select", "reject", "find", "include?", "push", "pop", "shift", "first", "last", "join", "split", "keys", "values", "fetch", "merge", "to_s", "to_h", "to_a", "size", "length", "empty?", "nil?", "new", "call", "send", "inject", "reduce", "sum", "min", "max", "sort", "uniq", "compact", "flatten", "<<"],
  jvm: ["get", "put", "set", "add", "remove", "contains", "containsKey", "size", "isEmpty", "equals", "hashCode", "toString", "stream", "map", "filter", "forEach", "collect", "append", "length", "substring", "trim", "split", "format", "of", "let", "apply", "also", "run"],
  c_sharp: ["Add", "Remove", "Contains", "ContainsKey", "TryGetValue", "Get", "Set", "ToString", "Equals", "GetHashCode", "Select", "Where", "First", "FirstOrDefault", "Any", "All", "ToList", "Count", "Format", "Split", "Trim"],
};
const CORE_MEMBER_SETS = new Map(Object.entries(CORE_MEMBERS).map(([k, v]) => [k, new Set(v)]));

/** Whether a member name belongs to the family's core library types (see CORE_MEMBERS). */
export function isCoreMember(fam: string, name: string): boolean {
  return CORE_MEMBER_SETS.get(fam)?.has(name) ?? false;
}
