/**
 * A language filter's value as the index names languages: any case, and the names people write for them
 * (ts, py, golang, c++). A value that names no indexed language is an error listing the indexed ones, in
 * every tool that filters by language: an empty answer would look like "nothing matches".
 */
import { CortexError } from "../core/errors.ts";
import type { ToolContext } from "./context.ts";

const ALIASES: Record<string, string> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  rb: "ruby",
  rs: "rust",
  golang: "go",
  "c++": "cpp",
  cxx: "cpp",
  cc: "cpp",
  hpp: "cpp",
  "c#": "csharp",
  cs: "csharp",
  kt: "kotlin",
  kts: "kotlin",
  md: "markdown",
  yml: "yaml",
};

/**
 * The indexed language each value names, in order; throws INVALID_INPUT naming the field (`field[i]` for a
 * list) and the indexed languages.
 */
export async function indexedLanguages(ctx: ToolContext, values: readonly string[], field: string, list: boolean): Promise<string[]> {
  if (values.length === 0) return [];
  const known = await (await ctx.session.exact()).languages();
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  return values.map((value, i) => {
    const lower = value.trim().toLowerCase();
    const found = byLower.get(lower) ?? byLower.get(ALIASES[lower] ?? "");
    if (found === undefined) {
      const where = list ? `${field}[${i}]` : field;
      throw new CortexError("INVALID_INPUT", `${where}: no indexed file has language '${value}' (indexed: ${[...known].sort().join(", ")})`);
    }
    return found;
  });
}
