/**
 * Which definitions a reference of each kind can name: the small table reference resolution and the
 * symbol and graph queries share. It knows kinds of definitions, no language: what a language means
 * (families, implicit `this`, core members…) is in its module's ResolutionRules (src/lang/resolution.ts).
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
