/**
 * The filters the tools share, checked the same way everywhere: an empty answer to a filter that names
 * nothing would look like "nothing matches".
 * - A language filter's value as the index names languages: any case, and the names people write for
 *   them (ts, py, golang, c++); a value that names no indexed language is an error listing the indexed ones.
 * - A path filter's folders and files must exist in a local project.
 * - A tag filter under which nothing is found is checked for tags no chunk carries.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CortexError, isCortexError } from "../core/errors.ts";
import { resolveInsideRoot } from "../core/paths.ts";
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

/**
 * After a search that found nothing under a tag filter: a tag no chunk carries is an error naming it and
 * the tags this index has (`bogus` would otherwise read as "nothing matches"). Checked only then, so that
 * a search that finds something pays nothing.
 */
export async function checkTagsCarried(ctx: ToolContext, tags: readonly string[], field: string): Promise<void> {
  if (tags.length === 0) return;
  const reader = await ctx.session.requireReader();
  const lower = tags.map((t) => t.toLowerCase()); // tags are stored lower-case, and filters compare them so
  const carried = new Set(await reader.chunkTags(lower, lower.length));
  const i = lower.findIndex((t) => !carried.has(t));
  if (i < 0) return;
  const examples = await reader.chunkTags(undefined, 12);
  throw new CortexError(
    "INVALID_INPUT",
    `${field}[${i}]: no indexed chunk carries the tag '${tags[i]}' (tags are languages, code or documentation, folder names and document tags; common here: ${examples.join(", ") || "none"})`,
  );
}

/**
 * Root-relative paths of a path filter (folders or files, no globs), each checked to exist in a local
 * project: a mistyped folder is an error naming it, as grep has it, not an empty answer. A shared store's
 * paths are not on this machine and are taken as given.
 */
export function existingPaths(ctx: ToolContext, paths: readonly string[], field: string): string[] {
  return paths.map((p, i) => {
    let rel: string;
    try {
      rel = resolveInsideRoot(ctx.session.root, p);
    } catch (e) {
      // named by its field, as every other argument's error is
      if (isCortexError(e) && e.code === "PATH_OUTSIDE_ROOT") throw new CortexError("INVALID_INPUT", `${field}[${i}]: ${e.message}`);
      throw e;
    }
    if (ctx.session.sharedStore === undefined && rel !== "" && !existsSync(join(ctx.session.root, rel))) {
      // a name with brackets is a path (pages/[id].tsx); one that does not exist and looks like a glob was meant as one
      if (/[*?[\]{}]/.test(p))
        throw new CortexError("INVALID_INPUT", `${field}[${i}]: a folder or file, not a pattern: ${p} (this filter takes path prefixes)`);
      throw new CortexError("INVALID_INPUT", `${field}[${i}]: no such file or directory: ${p}`);
    }
    return rel;
  });
}
