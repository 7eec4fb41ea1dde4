/**
 * cortex_exact: keyword search with boolean queries over the indexed content; results are lines ranked
 * by BM25, then position, with context and the matched terms highlighted.
 */
import { z } from "zod";
import { indexedLanguages } from "./filters.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { PathFilter, type KeywordSearchOutcome } from "../engines/exact/index.ts";

const input = z
  .object({
    query: z
      .string()
      .min(1)
      .max(2000)
      .describe(
        'Terms, "exact phrases", prefix*, AND (implied between terms), OR, NOT or -term, and parentheses; identifiers ' +
          "as typed (sync.RWMutex, handle_login, useState). Case-insensitive; a term matches at word or camelCase/snake_case " +
          "part boundaries (login finds handle_login and LoginForm)",
      ),
    language: z.array(z.string().min(1)).max(20).optional().describe('Only files of these languages, e.g. ["go", "python"]'),
    paths: z
      .array(z.string().min(1))
      .max(50)
      .optional()
      .describe("Only files under these root-relative paths or matching these globs (src/auth, **/*_test.go, *.md)"),
    limit: z.number().int().min(1).max(100).default(15).describe("Lines to return (1-100, default 15)"),
    context_lines: z.number().int().min(0).max(10).default(2).describe("Context lines before and after each line (0-10, default 2)"),
  })
  .strict();

const output = z.object({
  query: z.string().describe("The query as understood"),
  results: z.array(
    z.object({
      file_path: z.string(),
      line_number: z.number().int(),
      line: z.string(),
      before: z.array(z.string()),
      after: z.array(z.string()),
      highlights: z.array(z.object({ column: z.number().int(), length: z.number().int(), term: z.string() })),
      score: z.number(),
      stale: z.literal(true).optional(),
      line_start_column: z
        .number()
        .int()
        .optional()
        .describe("For a line over 1,000 characters: `line` is a window of it around the first highlight, starting at this column"),
    }),
  ),
  total_lines: z.number().int().describe("Matching lines found"),
  files_matched: z.number().int(),
  truncated: z.boolean().describe("More lines matched than were returned"),
  partial: z.boolean().describe("The deadline stopped the search before every candidate file was read"),
  stats: z.object({ candidate_files: z.number().int(), searched_files: z.number().int(), took_ms: z.number() }),
});

export const exactTool = defineTool({
  name: "cortex_exact",
  title: "Keyword search (boolean, ranked lines)",
  description:
    'Find where identifiers, keywords or phrases occur: boolean keyword queries (AND, OR, NOT, "phrases", prefix*, ' +
    "parentheses) over every indexed file, answered from a trigram index. Returns lines (file path, line number, the " +
    "line, context lines, highlighted terms), ranked by BM25 then position; filter by language and path globs. Use it " +
    "for 'where is sync.RWMutex used', 'authentication AND -test'. For regular expressions use search_text_pattern.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  tier: "text",
  cli: {
    command: ["exact"],
    positionals: ["query"],
    short: { "-n": "limit", "-C": "context_lines" },
    flags: { "--lang": "language", "--path": "paths" },
    summary: "keyword search, ranked lines: cortex exact 'sync.RWMutex AND -test'",
  },
  example: { query: "sync.RWMutex AND NOT test", language: ["go"], limit: 15 },
  async handler(args, ctx): Promise<KeywordSearchOutcome> {
    const engine = await ctx.session.exact();
    const languages = await indexedLanguages(ctx, args.language ?? [], "language", true);
    return engine.searchKeywords({
      query: args.query,
      limit: args.limit,
      contextLines: args.context_lines,
      // globs allowed; a plain path must exist in a local project (a shared store's are not on this machine)
      paths: PathFilter.parse(ctx.session.root, args.paths, "paths", ctx.session.sharedStore === undefined),
      languages,
      deadline: ctx.deadline,
      signal: ctx.signal,
    });
  },
  rows: (r) => r.results,
  render(r) {
    const color = process.stdout.isTTY === true;
    const mark = (line: string, highlights: Array<{ column: number; length: number }>, startColumn = 1) => {
      let s = "";
      let at = 0;
      // columns are the whole line's: those of a window are shifted, those outside it left out
      const hl = highlights.map((h) => ({ ...h, column: h.column - startColumn + 1 })).filter((h) => h.column >= 1 && h.column <= line.length);
      for (const h of [...hl].sort((a, b) => a.column - b.column)) {
        const from = Math.max(at, h.column - 1);
        s += line.slice(at, from) + (color ? `\x1b[1;31m${line.slice(from, h.column - 1 + h.length)}\x1b[0m` : line.slice(from, h.column - 1 + h.length));
        at = Math.max(at, h.column - 1 + h.length);
      }
      return s + line.slice(at);
    };
    const out: string[] = [];
    for (const h of r.results) {
      out.push(`${h.file_path}:${h.line_number}  (score ${h.score}${h.stale ? ", stale" : ""})`);
      h.before.forEach((l, i) => out.push(`  ${String(h.line_number - h.before.length + i).padStart(6)}  ${l}`));
      out.push(`> ${String(h.line_number).padStart(6)}  ${h.line_start_column ? "…" : ""}${mark(h.line, h.highlights, h.line_start_column)}`);
      h.after.forEach((l, i) => out.push(`  ${String(h.line_number + 1 + i).padStart(6)}  ${l}`));
      out.push("");
    }
    out.push(
      `${r.results.length} of ${r.total_lines} matching lines in ${r.files_matched} files for ${r.query} (${r.stats.took_ms} ms)` +
        (r.partial ? " [partial: the deadline passed]" : ""),
    );
    return out.join("\n");
  },
});
