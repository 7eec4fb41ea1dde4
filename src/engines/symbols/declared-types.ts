/**
 * Types read from text where the syntax shows them, by each language's TypePositions (src/lang/resolution.ts):
 * a parameter's in the stored signature, a local's in the nearest declaration above its use, a field's in
 * its class body, a function's return type in its signature. Pure look-ups over text; what the type names
 * is the resolver's business.
 */
import { SELF_QUALIFIERS, rulesOf } from "../../lang/registry.ts";
import type { ResolutionRules, TypePositions } from "../../lang/resolution.ts";

const localCache = new Map<string, RegExp>();
const fieldCache = new Map<string, RegExp>();

/** A language's declaration pattern for a name (TypePositions.local / field), compiled once. */
function declaration(cache: Map<string, RegExp>, language: string, name: string, source: (name: string) => string): RegExp {
  const key = `${language}\u0000${name}`;
  let re = cache.get(key);
  if (!re) cache.set(key, (re = new RegExp(source(name))));
  return re;
}

/** A qualifier that can be a plain variable (`order`, `$order`), not the current object. */
export function isVariableName(q: string): boolean {
  return /^\$?[A-Za-z_]\w*$/.test(q) && !SELF_QUALIFIERS.has(q);
}

/** The type the signature gives parameter `q`: `name: Type`, `Type name`, `Type $name`, by the language's rule. */
export function parameterTypeIn(signature: string, q: string, rules: ResolutionRules): string | undefined {
  const parameter = rules.types?.parameter;
  if (!parameter) return undefined;
  const open = signature.indexOf("(");
  if (open < 0) return undefined;
  return parameter(signature.slice(open + 1), q.replace(/[$]/g, "\\$"));
}

/**
 * The nearest declaration of local `q` at or above line `from` down to line `to` (1-based, `from` >=
 * `to`): its declared type, or else its initializer's text.
 */
export function localDeclarationAbove(
  lines: string[],
  q: string,
  from: number,
  to: number,
  language: string,
  types: Pick<TypePositions, "local"> | undefined,
): { type: string } | { init: string } | undefined {
  if (!types) return undefined;
  const decl = declaration(localCache, language, q.replace(/[$]/g, "\\$"), types.local);
  for (let i = from; i >= to; i--) {
    const text = lines[i - 1];
    if (text === undefined || !text.includes(q)) continue;
    const m = decl.exec(text);
    if (!m) continue;
    const declared = m.groups?.type;
    if (declared && /^[A-Za-z_]/.test(declared) && declared !== "var" && declared !== "val") return { type: declared };
    return { init: (m.groups?.init ?? "").trim() };
  }
  return undefined;
}

/** The declared (or evidently constructed) type of field `name` in lines `from`..`to` of a class body. */
export function fieldTypeIn(lines: string[], name: string, from: number, to: number, language: string, rules: ResolutionRules): string | undefined {
  const types = rules.types;
  if (!types) return undefined;
  const re = declaration(fieldCache, language, name, types.field);
  for (let i = from; i <= to; i++) {
    const text = lines[i - 1];
    if (text === undefined || !text.includes(name)) continue;
    const d = re.exec(text);
    if (!d) continue;
    const declared =
      d.groups?.type ?? d.groups?.type2 ?? (/^new\s+([A-Za-z_][\w.]*)/.exec(d.groups?.init ?? "") ?? /^([A-Z][\w.]*)\s*\(/.exec(d.groups?.init ?? ""))?.[1];
    if (declared && !["var", "val", "let", "const", "return", "new"].includes(declared)) return declared;
  }
  return undefined;
}

/** The named return type a signature declares, by its language's rule: `): Order`, `-> Order`, `Order find(`. */
export function returnTypeOf(signature: string, name: string, language: string): string | undefined {
  return rulesOf(language).types?.returnType?.(signature, name);
}
