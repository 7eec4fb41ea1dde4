/**
 * Reference clean-up shared by Java, Kotlin and C#, whose modules read a static member access
 * (`Color.RED`, `Limits.MAX`) as a `read` when the name before the dot is capitalised, the naming
 * convention of types in all three languages.
 */
import type { ReferenceFact, TypeFact, VariableFact } from "./types.ts";

/** References in the order they are written (the query yields an outer call before the inner one it starts with). */
export const byPosition = (a: ReferenceFact, b: ReferenceFact): number => a.line - b.line || a.column - b.column;

/**
 * Drops the reads whose capitalised qualifier is a field or property this file declares (C# capitalises
 * properties: `Items.Count` reads through a property, not a type), unless the file also declares a type of
 * that name (C#'s `public Color Color` makes `Color.Red` the type's member).
 */
export function dropReadsThroughMembers(references: ReferenceFact[], variables: VariableFact[], types: TypeFact[]): ReferenceFact[] {
  const members = new Set<string>();
  for (const v of variables) if (v.kind !== "enum_member") members.add(v.name);
  if (members.size === 0) return references;
  const typeNames = new Set(types.map((t) => t.name));
  return references.filter((r) => r.kind !== "read" || !r.qualifier || !members.has(r.qualifier) || typeNames.has(r.qualifier));
}
