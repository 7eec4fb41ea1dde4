/**
 * The codebase://context resource: a compact overview an agent can read first (languages, size, the
 * biggest modules, index state, which tool answers what). Built from the index; cheap to produce.
 */
import type { Session } from "../tools/session.ts";
import { FilesEngine } from "../engines/files/index.ts";

export const CONTEXT_URI = "codebase://context";

export async function contextResource(session: Session, served: ReadonlySet<string>, progress?: { done: number; total: number }): Promise<string> {
  const shared = session.sharedStore;
  const name = session.root.split("/").pop() ?? session.root;
  const lines = shared
    ? [`# Shared store ${shared.url}`, "", `Repositories: ${(await shared.repos()).map((r) => `${r.name} (generation ${r.generation})`).join(", ")}`]
    : [`# ${name}`, "", `Root: ${session.root}`];
  const store = session.reader();
  if (!store) {
    lines.push("", progress ? `The index is being built: ${progress.done}/${progress.total} files.` : "No index yet: it is being built.");
    return lines.join("\n");
  }
  const files = new FilesEngine(store);
  const langs = await files.query({
    from: "files",
    groupBy: ["language"],
    aggregations: [
      { function: "COUNT", alias: "files" },
      { function: "SUM", field: "lines_code", alias: "code" },
    ],
    orderBy: [{ field: "code", direction: "DESC" }],
    limit: 12,
  });
  const total = await files.query({
    from: "files",
    aggregations: [
      { function: "COUNT", alias: "files" },
      { function: "SUM", field: "lines_code", alias: "code" },
      { function: "SUM", field: "function_count", alias: "functions" },
      { function: "SUM", field: "type_count", alias: "types" },
    ],
  });
  const [nFiles, code, fns, types] = total.rows[0] as number[];
  lines.push(`Size: ${nFiles} files, ${code ?? 0} lines of code, ${fns ?? 0} functions, ${types ?? 0} types.`);
  if (!shared) {
    const lastRun = await store.meta("last_run");
    const branch = await store.meta("branch");
    lines.push(`Index: built ${lastRun ?? "?"}${branch ? ` on branch ${branch}` : ""}; kept current as files change.`);
  }
  lines.push("", "## Languages", "", "| language | files | code lines |", "|---|---:|---:|");
  for (const [lang, n, c] of langs.rows as Array<[string, number, number]>) lines.push(`| ${lang} | ${n} | ${c ?? 0} |`);
  const mods = await files.query({
    from: "modules",
    fields: ["module_path", "file_count", "code_lines", "function_count"],
    where: { field: "module_path", operator: "!=", value: "." },
    orderBy: [{ field: "code_lines", direction: "DESC" }],
    limit: 12,
  });
  if (mods.rows.length > 0) {
    lines.push("", "## Largest modules", "", "| module | files | code lines | functions |", "|---|---:|---:|---:|");
    for (const [m, f, c, fn] of mods.rows as Array<[string, number, number, number]>) lines.push(`| ${m} | ${f} | ${c} | ${fn} |`);
  }
  // the served tools only, by what they answer
  const jobs: Array<[string, string]> = [
    ["cortex_search", "find code by meaning"],
    ["search_semantic_concept", "find code by meaning"],
    ["cortex_exact", "identifiers and keywords (boolean queries)"],
    ["search_text_pattern", "literal text and regular expressions"],
    ["cortex_pattern", "structural (AST) patterns"],
    ["find_symbol_occurrences", "definitions and references"],
    ["cortex_graph", "callers, imports, impact"],
    ["cortex_files", "counts, sizes and rankings over files, types, functions, imports and modules"],
    ["search_codebase", "search with evidence; with intent edit, whether the evidence for a change is complete"],
  ];
  lines.push("", "## Tools", "", ...jobs.filter(([name]) => served.has(name)).map(([name, job]) => `- ${name}: ${job}`));
  return lines.join("\n");
}
