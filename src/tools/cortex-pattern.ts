/**
 * cortex_pattern: structural code search with ast-grep patterns and rules over the files as they are on
 * disk, with cortex's ignore rules. Read-only: a `rewrite` is returned as a diff per match and never
 * applied.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import {
  PatternEngine,
  resolveAstGrep,
  ruleSchema,
  LANGUAGE_NAMES,
  STRICTNESS,
  DEFAULT_TIMEOUT_MS,
  type PatternResult,
  type PatternSearch,
} from "../engines/structural/index.ts";

const input = z
  .object({
    pattern: z
      .string()
      .refine((s) => s.trim().length > 0, "must not be empty")
      .optional()
      .describe(
        "AST pattern with metavariables: $X matches one node, $$$ARGS any number (e.g. 'defer $FUNC()', 'useState($INIT)'). Required unless rule is given",
      ),
    rule: ruleSchema
      .optional()
      .describe(
        "An ast-grep rule object instead of a pattern, for what a pattern cannot say: {pattern: {context, selector}}, kind, regex, " +
          "nthChild, inside / has / precedes / follows (with stopBy, field), all, any, not. " +
          'E.g. {"pattern":"$C.lock()","not":{"inside":{"kind":"try_statement","stopBy":"end"}}}',
      ),
    language: z.enum(LANGUAGE_NAMES).describe(`Language of the pattern and of the files searched: ${LANGUAGE_NAMES.slice(0, 29).join(", ")} (and aliases)`),
    file_paths: z
      .array(z.string())
      .max(100)
      .default([])
      .describe("Files, folders or globs relative to the project root ('internal/**/*.go'; '*_test.go' matches at any depth; '!vendor/**' excludes)"),
    context_lines: z.number().int().min(0).max(10).default(3).describe("Lines shown before and after each match (0-10, default 3)"),
    strictness: z
      .enum(STRICTNESS)
      .optional()
      .describe(
        "cst (every node), smart (default: skips unimportant nodes in the code), ast (named nodes only), relaxed (also ignores comments), signature (node kinds only, no text), template (text only)",
      ),
    limit: z.number().int().min(1).max(100).default(50).describe("Matches returned (1-100, default 50); total counts them all"),
    rewrite: z
      .string()
      .optional()
      .describe(
        "A replacement using the metavariables (e.g. 'defer safe($FUNC)'): each match then carries its replacement and a unified diff. No file is changed",
      ),
    timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(DEFAULT_TIMEOUT_MS)
      .describe("Time for the search (default 30000); when it runs out the matches found so far come back marked partial"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.pattern === undefined && v.rule === undefined) ctx.addIssue({ code: "custom", path: ["pattern"], message: "required unless rule is given" });
    if (v.pattern !== undefined && v.rule !== undefined) ctx.addIssue({ code: "custom", path: ["rule"], message: "give either pattern or rule, not both" });
  });

const range = z.number().int();
const output = z.object({
  matches: z.array(
    z.object({
      file_path: z.string(),
      start_line: range,
      end_line: range,
      start_column: range,
      end_column: range,
      match_text: z.string(),
      context: z.string(),
      context_start_line: range,
      metavars: z.record(z.string(), z.string()),
      replacement: z.string().optional(),
      diff: z.string().optional(),
      truncated_fields: z.array(z.string()).optional(),
    }),
  ),
  total: range,
  truncated: z.boolean(),
  partial: z.boolean(),
  warnings: z.array(z.string()),
  metadata: z.object({
    took_ms: z.number(),
    pattern: z.string().optional(),
    rule: ruleSchema.optional(),
    rewrite: z.string().optional(),
    language: z.string(),
    strictness: z.enum(STRICTNESS),
    files: z.object({ in_scope: range, searched: range, skipped_by_literals: range, too_large: range }),
    literals: z.object({ exact: z.array(z.string()), caseless: z.array(z.string()) }),
    ast_grep: z.object({ version: z.string(), source: z.enum(["env", "cache", "download"]) }),
  }),
});

export const patternTool = defineTool({
  name: "cortex_pattern",
  title: "Structural code search (ast-grep patterns and rules)",
  description:
    "Find code by its syntax tree rather than its text: anti-patterns, idioms, risky calls, API uses, e.g. 'defer $FUNC()' (Go), " +
    "'if ($COND) { useState($INIT) }' (TSX, strictness relaxed), 'with $CTX as $VAR: $$$BODY' (Python). $X matches one node " +
    "and $$$X any number; each match comes with its lines of context and the captured metavariables. For what a pattern " +
    "cannot express, pass an ast-grep `rule` (kind, regex, inside, has, not, all, any, pattern with context and selector). " +
    "`rewrite` previews a codemod as diffs without touching files. Searches files as they are now, honouring .gitignore and " +
    ".cortexignore. For words and concepts use cortex_search.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: {
    unavailable:
      "cortex_pattern runs ast-grep over the files of a working tree, and the shared store holds indexes, not working trees: use cortex_exact or search_text_pattern across repositories",
  },
  needsIndex: false,
  cli: {
    command: ["pattern"],
    positionals: ["pattern"],
    flags: { "--lang": "language", "--path": "file_paths" },
    short: { "-l": "language", "-C": "context_lines" },
    fromFile: "rule",
    summary: "structural search: cortex pattern '<pattern>' --lang go [--path 'src/**'] [--strictness relaxed] [--rewrite '<fix>']",
  },
  example: { pattern: "defer $FUNC()", language: "go", file_paths: ["internal/**/*.go"], context_lines: 3, strictness: "smart", limit: 50 },
  async handler(args, ctx): Promise<PatternResult> {
    const config = ctx.session.config;
    const engine = new PatternEngine(ctx.session.root, { maxFileSize: config.index.max_file_size, excludes: config.index.exclude }, () =>
      resolveAstGrep({ onProgress: (received, total) => ctx.progress?.(received, total ?? 0, "downloading ast-grep") }),
    );
    const q: PatternSearch = {
      language: args.language,
      filePaths: args.file_paths,
      contextLines: args.context_lines,
      limit: args.limit,
    };
    if (args.pattern !== undefined) q.pattern = args.pattern;
    if (args.rule !== undefined) q.rule = args.rule;
    if (args.strictness !== undefined) q.strictness = args.strictness;
    if (args.rewrite !== undefined) q.rewrite = args.rewrite;
    return engine.search(q, { deadline: ctx.deadline, timeoutMs: args.timeout_ms, signal: ctx.signal });
  },
  rows: (r) => r.matches,
  render: renderMatches,
});

/** grep-like terminal output: each match with numbered context lines, match lines marked with '>'. */
export function renderMatches(r: PatternResult): string {
  const out: string[] = [];
  for (const m of r.matches) {
    out.push(`${m.file_path}:${m.start_line}:${m.start_column}`);
    m.context.split("\n").forEach((text, i) => {
      const n = m.context_start_line + i;
      const mark = n >= m.start_line && n <= m.end_line ? ">" : " ";
      out.push(`${mark}${String(n).padStart(6)}  ${text}`);
    });
    const vars = Object.entries(m.metavars);
    if (vars.length > 0) out.push(`        ${vars.map(([k, v]) => `$${k} = ${v.length > 60 ? v.slice(0, 59) + "…" : v}`.replace(/\n/g, "⏎")).join("   ")}`);
    if (m.diff)
      out.push(
        m.diff
          .trimEnd()
          .split("\n")
          .map((l) => "        " + l)
          .join("\n"),
      );
    out.push("");
  }
  const f = r.metadata.files;
  const shown = r.truncated ? `${r.matches.length} of ${r.total} matches` : `${r.total} match${r.total === 1 ? "" : "es"}`;
  out.push(
    `${shown}${r.partial ? " so far (stopped: out of time)" : ""}; searched ${f.searched} of ${f.in_scope} ${r.metadata.language} files` +
      `${f.too_large ? ` (${f.too_large} over the size limit skipped)` : ""} in ${r.metadata.took_ms} ms`,
  );
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join("\n");
}
