/**
 * cortex_search: hybrid (keyword + semantic) search over code and documentation chunks, with the
 * structural ranking signals of the search engine. Answers with keyword ranking while embeddings are
 * unavailable or incomplete, and says so in `embeddings`.
 */
import { z } from "zod";
import { checkTagsCarried, existingPaths, indexedLanguages } from "./filters.ts";
import { CortexError } from "../core/errors.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import type { SearchResponse } from "../engines/search/index.ts";
import { condenseQuery, type QueryCondensed } from "../engines/search/long-query.ts";
import { longQueryField, queryCondensedSchema, queryUnread, queryUnreadSchema } from "./query-condensed.ts";

export const CHUNK_TYPES = ["symbols", "definitions", "data", "documentation"] as const;

const input = z
  .object({
    query: longQueryField("What to find, in words or code: 'how are sessions expired', 'UserService.login', an error message"),
    limit: z.number().int().min(1).max(100).default(15).describe("Maximum results (1-100, default 15)"),
    tags: z.array(z.string().min(1)).optional().describe("Only chunks carrying ALL these tags (language, code/documentation, path folders, document tags)"),
    chunk_types: z
      .array(z.enum(CHUNK_TYPES))
      .optional()
      .describe("Only these chunk types: symbols (file overviews), definitions (functions, types), data (constants, config), documentation"),
    language: z.string().min(1).optional().describe("Only this language (go, python, typescript, markdown, …)"),
    paths: z.array(z.string().min(1)).optional().describe("Only under these folders or files (root-relative)"),
    intent: z.enum(["explore", "edit", "refactor", "migrate"]).optional().describe("Why you search: shifts weight between overviews, definitions and docs"),
    one_per_file: z
      .boolean()
      .default(false)
      .describe(
        "Rank whole files (one result per file, shown by its best chunk): 'which files to look at or edit'; in a git work tree also by the subject lines of past commits that changed each file (not with an edit, refactor or migrate intent)",
      ),
    mode: z.enum(["hybrid", "keyword", "vector"]).default("hybrid").describe("Ranking: hybrid (default), keyword only, or vector only"),
  })
  .strict();

const chunkSchema = z.object({
  id: z.string(),
  chunk_type: z.string(),
  title: z.string(),
  text: z.string(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});

const output = z.object({
  results: z.array(z.object({ chunk: chunkSchema, combined_score: z.number(), stale: z.boolean().optional() })),
  total: z.number().int(),
  mode: z.enum(["hybrid", "keyword", "vector"]),
  embeddings: z.string(),
  rerank: z.string().optional(),
  took_ms: z.number(),
  query_condensed: queryCondensedSchema.optional(),
  query_unread: queryUnreadSchema.optional(),
});

export const searchTool = defineTool({
  name: "cortex_search",
  title: "Search code and docs by meaning",
  description:
    "Find the code and documentation relevant to a question or concept: ranked chunks (file overviews, " +
    "function/type definitions with bodies, constants/config, documentation sections) with file path, lines and " +
    "text; a function or type hit names its qualified_name and whole span (definition_lines), also when the chunk " +
    "is one part of a long definition. Hybrid keyword + semantic ranking; a definition of a symbol you name comes first; the function that " +
    "answers leads its file's overview and its class; tests rank lower " +
    "unless you ask about tests. Filter by chunk_types, tags (all must match), language and paths. Use " +
    "cortex_exact for exact strings, cortex_pattern for code structure.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: {
    command: ["search"],
    positionals: ["query"],
    flags: { "--type": "chunk_types", "--tag": "tags", "--lang": "language", "--path": "paths" },
    summary: 'hybrid search: cortex search "<query>" [--limit n] [--type t] [--tag t] [--lang l] [--path p] [--intent i]',
  },
  example: { query: "where are users authenticated", limit: 5 },
  async handler(args, ctx): Promise<SearchResponse & { query_condensed?: QueryCondensed; query_unread?: string }> {
    const { query, condensed } = condenseQuery(args.query);
    const engine = await ctx.session.search();
    const filters = {
      ...(args.chunk_types ? { chunkTypes: [...args.chunk_types] } : {}),
      ...(args.tags ? { tags: args.tags.map((t) => t.toLowerCase()) } : {}),
      ...(args.language ? { languages: await indexedLanguages(ctx, [args.language], "language", false) } : {}),
      ...(args.paths ? { pathPrefixes: existingPaths(ctx, args.paths, "paths") } : {}),
    };
    const response = await engine.search({
      query,
      limit: args.limit,
      filters,
      onePerFile: args.one_per_file,
      mode: args.mode,
      signal: ctx.signal,
      ...(args.intent ? { intent: args.intent } : {}),
    });
    // vectors alone, and none to search: an empty list would read as "nothing matches"
    if (args.mode === "vector" && response.results.length === 0 && response.embeddings !== "ready")
      throw new CortexError(
        "EMBEDDINGS_UNAVAILABLE",
        `mode vector: no embeddings to search (embeddings: ${response.embeddings}); use mode hybrid or keyword, or compute them first (cortex index --embed; cortex doctor says what is missing)`,
      );
    if (response.results.length === 0 && args.tags) await checkTagsCarried(ctx, args.tags, "tags");
    const unread = queryUnread(query);
    return { ...response, ...(condensed ? { query_condensed: condensed } : {}), ...(unread ? { query_unread: unread } : {}) };
  },
  render(r) {
    const lines = [
      `${r.results.length < r.total ? `${r.results.length} of ` : ""}${r.total} result${r.total === 1 ? "" : "s"} (${r.mode}; embeddings ${r.embeddings}${r.rerank ? `; rerank ${r.rerank}` : ""}; ${r.took_ms} ms)`,
    ];
    if (r.query_condensed) lines.push(r.query_condensed.note);
    if (r.query_unread) lines.push(r.query_unread);
    for (const h of r.results) {
      const m = h.chunk.metadata;
      const whole = m.definition_lines as { start_line: number; end_line: number } | undefined;
      // one window of a long definition: say where the whole of it is
      const span = whole && typeof m.parts === "number" && m.parts > 1 ? `  (part ${m.part} of ${m.parts}; whole: ${whole.start_line}-${whole.end_line})` : "";
      lines.push(
        "",
        `${m.file_path}:${m.start_line}-${m.end_line}  [${h.chunk.chunk_type}] ${h.chunk.title}${span}  (${h.combined_score.toFixed(4)})${h.stale ? "  STALE" : ""}`,
      );
      const body = h.chunk.text.split("\n").slice(1, 7);
      for (const l of body) lines.push("    " + l.slice(0, 160));
    }
    return lines.join("\n");
  },
});
