/**
 * search_codebase (codebase-context): ranked files enriched with summary, role, relationships, hints,
 * team-pattern trends and related memories, a judgement of the search's own quality, and for edit /
 * refactor / migrate the preflight card that says whether the evidence is enough to change the code.
 */
import { z } from "zod";
import { existingPaths, indexedLanguages } from "./filters.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { LAYERS, type CodebaseSearchResponse } from "../engines/codebase-search/index.ts";
import { condenseQuery, type QueryCondensed } from "../engines/search/long-query.ts";
import { longQueryField, queryUnread } from "./query-condensed.ts";
import { asCliCall } from "./cli-call.ts";

const input = z
  .object({
    query: longQueryField("What you are looking for or about to change: 'auth middleware', 'where invoices are totalled', 'UserService.login'"),
    intent: z
      .enum(["explore", "edit", "refactor", "migrate"])
      .default("explore")
      .describe("explore (default) to understand; edit, refactor or migrate to get the preflight card (ready, nextAction, impact, patterns)"),
    limit: z.number().int().min(1).max(50).default(5).describe("Files to return (1-50, default 5)"),
    filters: z
      .object({
        language: z.string().min(1).optional().describe("Only this language (go, python, typescript, …)"),
        framework: z
          .string()
          .min(1)
          .optional()
          .describe("Only files importing this framework (React, Django, Gin… as get_codebase_metadata names it) or this module"),
        layer: z
          .enum(LAYERS)
          .optional()
          .describe("Only files of this layer, judged from the path: presentation, application, domain, data, infrastructure, test, docs, config"),
        paths: z.array(z.string().min(1)).optional().describe("Only under these folders or files (root-relative)"),
      })
      .strict()
      .default({})
      .describe("Narrow the search; applied inside it, so `limit` results still come back when they exist"),
    includeSnippets: z.boolean().default(false).describe("Add each result's best-matching code (up to 40 lines) with a scope line such as `// Class.method`"),
  })
  .strict();

/** The text's words for each hint: they are the file's relations, where a symbol shown beside them reads as theirs. */
const HINT_LABELS: Record<string, string> = {
  callers: "files using this file",
  consumers: "files importing this file",
  tests: "tests of this file",
};

export const searchCodebaseTool = defineTool({
  name: "search_codebase",
  title: "Search with evidence and an edit preflight",
  description:
    "Search the codebase and get, per file: a one-line summary, its role (componentType:layer), how many files import " +
    "and use it, whether tests cover it, up to 3 callers / consumers / tests to read next, and whether it follows a " +
    "team pattern that is rising or declining; plus related team memories and searchQuality (low_confidence with a " +
    "hint when the query's terms are not in the results). With intent edit, refactor or migrate it adds a preflight " +
    "card: ready (true only when one file clearly leads, or the task names code that only it defines, and its callers are in the results; false with blockers " +
    "such as callers-missing, close-runner-up, weak-top, pattern-conflict, stale-memory), nextAction naming the file " +
    "or caller missing, warnings, patterns to follow and avoid, the best example file, impact ('3/5 callers in " +
    "results', code callers; tests that use the target named apart, to run), changedTogether (files the project's git history says usually change with the top file, when they are " +
    "not in the results; two or more: not ready until read), pastChanges (of the past commits whose subjects read like " +
    "the task, how many changed only the card's files, and the files the others also changed), whatWouldHelp (the next searches and calls) and the signals it decided " +
    "from (the runner-up and near ties from the first 5 results whatever the limit; callers and tests from the results shown). Use it before changing code.",
  input,
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: {
    command: ["search-codebase"],
    positionals: ["query"],
    flags: {
      "--lang": "filters.language",
      "--language": "filters.language",
      "--framework": "filters.framework",
      "--layer": "filters.layer",
      "--path": "filters.paths",
    },
    summary:
      'search with evidence and preflight: cortex search-codebase "<query>" [--intent edit] [--limit n] [--lang l] [--framework f] [--layer l]  (also: cortex search --query <q> --intent <i>)',
  },
  example: { query: "where are users authenticated", intent: "edit", limit: 3 },
  async handler(args, ctx): Promise<CodebaseSearchResponse & { query_condensed?: QueryCondensed; query_unread?: string }> {
    const engine = await ctx.session.codebaseSearch();
    const f = args.filters;
    const { query, condensed } = condenseQuery(args.query);
    const response = await engine.run({
      query,
      intent: args.intent,
      limit: args.limit,
      filters: {
        ...(f.language ? { language: (await indexedLanguages(ctx, [f.language], "filters.language", false))[0]! } : {}),
        ...(f.framework ? { framework: f.framework } : {}),
        ...(f.layer ? { layer: f.layer } : {}),
        ...(f.paths ? { paths: existingPaths(ctx, f.paths, "filters.paths") } : {}),
      },
      includeSnippets: args.includeSnippets,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    // a condensed question is not echoed whole (it would take the output budget from the results): its
    // opening, and what was kept and dropped
    // the card's next calls name only tools this caller has (a codebase-context server serves no cortex_exact)
    const served = ctx.servedTools;
    if (served && response.preflight?.whatWouldHelp) {
      // (the registry imports this module: read lazily, as render does)
      const { findTool } = require("./index.ts") as typeof import("./index.ts");
      const callable = (w: string) => {
        const tool = /^([a-z_]+)\b/.exec(w)?.[1];
        return tool === undefined || findTool(tool) === undefined || served.has(tool);
      };
      const help = response.preflight.whatWouldHelp.filter(callable);
      if (help.length) response.preflight.whatWouldHelp = help;
      else delete response.preflight.whatWouldHelp;
    }
    const unread = queryUnread(query);
    const said = unread ? { ...response, query_unread: unread } : response;
    return condensed ? { ...said, query: `${args.query.slice(0, 200)} …`, query_condensed: condensed } : said;
  },
  render(r) {
    const q = r.searchQuality;
    const lines = [
      `${r.totalResults} result${r.totalResults === 1 ? "" : "s"} for "${r.query}" (${r.intent}; search quality ${q.status} ${q.confidence}; embeddings ${r.embeddings}; ${r.took_ms} ms)`,
    ];
    if (q.hint) lines.push(`  hint: ${q.hint}`);
    if (r.query_condensed) lines.push(`  ${r.query_condensed.note}`);
    if (r.query_unread) lines.push(`  ${r.query_unread}`);
    for (const x of r.results) {
      lines.push(
        "",
        `${x.file}:${x.startLine}-${x.endLine}  [${x.type}]${x.symbol ? ` ${x.symbol}` : ""}  (${x.score})${x.trend ? `  ${x.trend}` : ""}${x.stale ? "  STALE" : ""}`,
      );
      lines.push(`    ${x.summary}`);
      lines.push(
        `    imported by ${x.relationships.importedByCount}, used by ${x.relationships.usedByCount}, ${x.relationships.hasTests ? "has tests" : "no tests found"}`,
      );
      if (x.patternWarning) lines.push(`    warning: ${x.patternWarning}`);
      // hints are the file's (codebase-context's callers: files using anything it defines), not the symbol's
      for (const [k, v] of Object.entries(x.hints ?? {})) lines.push(`    ${HINT_LABELS[k] ?? k}: ${v.join(", ")}`);
      if (x.snippet) lines.push(...x.snippet.split("\n").map((l) => "      " + l));
    }
    if (r.relatedMemories.length)
      lines.push(
        "",
        "Related memories:",
        ...r.relatedMemories.map((m) => `  [${m.type}] ${m.memory} (${Math.round(m.confidence * 100)}%${m.stale ? ", stale" : ""})`),
      );
    const p = r.preflight;
    if (p) {
      lines.push("", `Preflight: ${p.ready ? "READY" : `NOT READY (${(p.blockers ?? []).join(", ")})`} (evidence ${p.evidence.score}/100, risk ${p.risk})`);
      if (p.nextAction) lines.push(`  next: ${p.nextAction}`);
      for (const w of p.warnings ?? []) lines.push(`  warning: ${w}`);
      for (const d of p.patterns?.do ?? []) lines.push(`  do: ${d}`);
      for (const a of p.patterns?.avoid ?? []) lines.push(`  avoid: ${a}`);
      if (p.bestExample) lines.push(`  best example: ${p.bestExample}`);
      if (p.impact) lines.push(`  impact of ${p.impact.target}: ${p.impact.coverage}${p.impact.files.length ? `; also ${p.impact.files.join(", ")}` : ""}`);
      for (const c of p.changedTogether ?? []) lines.push(`  usually changed together: ${c.file} (${c.commits} commits)`);
      if (p.pastChanges)
        lines.push(
          `  similar past commits: ${p.pastChanges.within} of ${p.pastChanges.commits} changed only these files${p.pastChanges.outside.length ? `; others also changed ${p.pastChanges.outside.map((o) => `${o.file} (${o.commits})`).join(", ")}` : ""}`,
        );
      // the next steps as commands a terminal runs (the JSON keeps the tool calls an agent makes); the
      // registry is read when printing: it imports this tool
      const { findTool } = require("./index.ts") as typeof import("./index.ts");
      for (const w of p.whatWouldHelp ?? []) lines.push(`  would help: ${asCliCall(w, findTool)}`);
    }
    return lines.join("\n");
  },
});
