/**
 * search_text_pattern: literal or regular-expression search with context lines, exactly as the pattern
 * matching specification describes it (input, defaults, status / matches / match_count / error_message),
 * plus what cortex promises of every tool: a result limit with truncation reported, a deadline with
 * partial results, stale hits marked. Also the `cortex grep` command, printed like ripgrep.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { budgetField, DEFAULT_MAX_TOKENS } from "./budget.ts";
import { loadConfig } from "../core/config.ts";
import { walkProjectInParallel } from "../indexer/walk-parallel.ts";
import { CortexError, isCortexError } from "../core/errors.ts";
import { PathFilter, PLAN_CHARS, normaliseExtensions, type TextMatch } from "../engines/exact/index.ts";

/** Matching lines returned at most; beyond this the result says truncated. */
export const MAX_MATCHES = 500;
/** Characters of matched and context lines returned at most (the max_tokens budget applies below it). */
const MAX_CHARS = 256 * 1024;
/** Characters per token, as the output budget counts them (src/tools/budget.ts). */
const CHARS_PER_TOKEN = 4;
/** Characters of the result besides its matches (status, counts, flags, stats without the plan). */
const ENVELOPE_CHARS = 320;

const input = z
  .object({
    query: z.string().min(1).describe("The literal string or regular expression (JavaScript syntax) to search for"),
    is_regex: z.boolean().default(false).describe("Whether `query` is a regular expression (default false: a literal string)"),
    target_paths: z
      .array(z.string())
      .max(100)
      .optional()
      .describe("Files or directories to search, relative to the project root (globs such as src/**/*.ts allowed); default: the whole project"),
    case_sensitive: z.boolean().default(false).describe("Whether the search is case-sensitive (default false)"),
    context_lines: z.number().int().min(0).max(10).default(2).describe("Lines of context before and after each matching line (0-10, default 2)"),
    file_extensions: z
      .array(z.string())
      .max(100)
      .optional()
      .describe('Only files with these extensions, e.g. [".py", ".js"]; default: every indexed text file'),
    fresh: z
      .boolean()
      .default(false)
      .describe(
        "Search the files as they are on disk now: those changed since indexing, and those added since (slower: the project is walked); by default the indexed text is searched and hits in changed files are marked stale",
      ),
    // declared here so the handler cuts matches itself and match_count stays the number returned
    max_tokens: budgetField,
  })
  .strict();

const matchDetail = z.object({
  text: z.string().describe("The matched text"),
  column: z.number().int().describe("1-based column of the match start (UTF-16 code units)"),
  groups: z.array(z.string().nullable()).optional().describe("Capture groups, in order"),
  named_groups: z.record(z.string(), z.string().nullable()).optional().describe("Named capture groups"),
});

const match = z.object({
  file_path: z.string().describe("Path of the file, relative to the project root"),
  line_number: z.number().int().describe("1-based line number"),
  matched_line: z.string().describe("The matching line (a window around the first match when the line is over 1,000 characters)"),
  context: z.array(z.string()).describe("Context lines before, then after, the matching line"),
  context_start_line: z.number().int().describe("Line number of the first context line"),
  match_details: z.object({ matches: z.array(matchDetail) }).describe("Every match on the line (at most 16): text, column, capture groups"),
  line_truncated: z.literal(true).optional().describe("The line is longer than 1,000 characters"),
  stale: z.literal(true).optional().describe("The file changed on disk since it was indexed; the line is as indexed"),
});

const output = z.object({
  status: z.enum(["success", "no_matches_found", "error"]).describe("success, no_matches_found or error"),
  matches: z.array(match).describe("Matching lines, by path then line; empty on error"),
  match_count: z.number().int().describe("Number of matching lines returned"),
  error_message: z.string().optional().describe("What went wrong, when status is error"),
  truncated: z.boolean().describe(`More lines match than were returned (at most ${MAX_MATCHES} lines, and what fits max_tokens)`),
  partial: z.boolean().describe("The deadline stopped the search: matches are those found so far"),
  stats: z
    .object({
      candidate_files: z.number().int(),
      searched_files: z.number().int(),
      plan: z.string(),
      took_ms: z.number(),
    })
    .optional()
    .describe("Files the trigram index admitted, files searched, the trigram query, time taken"),
});

type Output = z.infer<typeof output>;

export const searchTextPatternTool = defineTool({
  name: "search_text_pattern",
  title: "Search text (literal or regex)",
  description:
    "Find every line containing a literal string or matching a regular expression (JavaScript syntax), with context " +
    "lines. Searches the indexed files (fast: a trigram index picks the candidate files); the MCP server reads files its " +
    "watcher saw change from disk until they are re-indexed; other hits in files changed since indexing are marked stale, " +
    "or use fresh: true to read every changed or added file from disk. Case-insensitive by default. Returns " +
    `status, matches (file_path, line_number, matched_line, context, match_details with capture groups) and match_count; ` +
    `at most ${MAX_MATCHES} lines (truncated: true beyond). An invalid regex gives status 'error' with the engine's message (a tool error, isError, over MCP).`,
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["kit"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  tier: "text",
  cli: {
    command: ["grep"],
    positionals: ["query"],
    short: { "-e": "is_regex", "-C": "context_lines", "-i": "case_sensitive=false", "-s": "case_sensitive=true" },
    flags: { "--path": "target_paths", "--ext": "file_extensions", "--regex": "is_regex" },
    summary: "search text like ripgrep: cortex grep <pattern> [-e] [-i|-s] [-C n] [--path p] [--ext .go]",
  },
  example: { query: "api_key", case_sensitive: false, file_extensions: [".py"] },
  async handler(args, ctx): Promise<Output> {
    try {
      const engine = await ctx.session.exact();
      // a shared store's files are not on this machine: its paths are checked by the search, not on disk
      const shared = ctx.session.sharedStore !== undefined;
      if (shared && args.fresh)
        throw new CortexError("INVALID_INPUT", "fresh: reads a working tree from disk, and the shared store holds indexes only; leave it out");
      const paths = PathFilter.parse(ctx.session.root, args.target_paths, "target_paths", !shared);
      const extensions = normaliseExtensions(args.file_extensions, "file_extensions");
      // Whole matches are kept, in order, while the JSON result fits the output budget. The envelope is
      // counted before the search (its stats come after), so that the matches streamed to the CLI's
      // --ndjson as they are found are exactly those the result keeps.
      // The CLI printing every row as it comes (text and --ndjson, no --max-tokens) gets every match, as
      // ripgrep prints them, and the result keeps none: no limit, no budget, memory bounded by a file's hits.
      const everyRow = ctx.everyRow === true && ctx.onRow !== undefined && args.max_tokens === undefined;
      const budget = everyRow ? Number.POSITIVE_INFINITY : (args.max_tokens ?? DEFAULT_MAX_TOKENS) * CHARS_PER_TOKEN;
      // the plan is about twice a short query's length, and cut at PLAN_CHARS: a 29,000-character regex
      // counted as 58,000 left room for one match
      let size = ENVELOPE_CHARS + Math.min(2 * args.query.length, PLAN_CHARS);
      let kept = 0;
      let overBudget = false;
      const r = await engine.searchText({
        query: args.query,
        isRegex: args.is_regex,
        caseSensitive: args.case_sensitive,
        contextLines: args.context_lines,
        paths,
        extensions,
        fresh: args.fresh,
        ...(args.fresh ? { onDisk: await filesOnDisk(ctx.session.root) } : {}),
        ...(ctx.changedOnDisk && ctx.changedOnDisk.length > 0 ? { changedOnDisk: new Set(ctx.changedOnDisk) } : {}),
        maxMatches: everyRow ? Number.POSITIVE_INFINITY : MAX_MATCHES,
        maxChars: everyRow ? Number.POSITIVE_INFINITY : MAX_CHARS,
        handOver: everyRow,
        deadline: ctx.deadline,
        signal: ctx.signal,
        onMatch(m) {
          if (!everyRow) size += JSON.stringify(m).length + 1;
          if (size > budget && kept > 0) {
            overBudget = true;
            return false;
          }
          kept++;
          ctx.onRow?.(m);
          return true;
        },
      });
      return {
        status: kept > 0 ? "success" : "no_matches_found",
        matches: r.matches,
        match_count: kept,
        truncated: r.truncated || overBudget,
        partial: r.partial,
        stats: r.stats,
      };
    } catch (e) {
      // The specification reports bad patterns and inaccessible paths as a result with status "error".
      if (isCortexError(e) && (e.code === "INVALID_INPUT" || e.code === "PATH_OUTSIDE_ROOT" || e.code === "NOT_FOUND")) {
        return { status: "error", matches: [], match_count: 0, error_message: e.message, truncated: false, partial: false };
      }
      throw e;
    }
  },
  failure: (r) => (r.status === "error" ? (r.error_message ?? "search failed") : undefined),
  rows: (r) => r.matches,
  render: renderLikeRipgrep,
  rowPrinter: (args) => new RipgrepLines(args.context_lines > 0),
  notes: grepNotes,
});

/** The project's files on disk now, by the rules the index walks with (a `fresh` search's added files). */
async function filesOnDisk(root: string): Promise<string[]> {
  const config = loadConfig(root);
  const walked = await walkProjectInParallel(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });
  return walked.files.map((f) => f.path);
}

/**
 * ripgrep's output without headings: `path:line:text` for matches, `path-line-text` for context, `--`
 * between groups that are not adjacent; overlapping context is printed once.
 */
export function renderLikeRipgrep(r: Output): string {
  const lines = new RipgrepLines(r.matches.some((m) => m.context.length > 0));
  const out: string[] = [];
  for (const m of r.matches) {
    const text = lines.row(m);
    if (text) out.push(text);
  }
  const rest = lines.end();
  if (rest) out.push(rest);
  return out.join("\n");
}

/**
 * ripgrep's lines, match by match (the CLI prints each file's lines as the search finds them). Matches
 * come in file order and line order; a context line after a match is held back until the next match of
 * the file is known, since that match may be the same line (printed with `:`) or within its context.
 */
export class RipgrepLines {
  private file: string | undefined;
  /**
   * The current file's lines not printed yet (the last match's context after it), in ascending line order:
   * a match's context before it that is not printed or held lies beyond every held line, which all follow
   * the previous match. An array, not a Map: a broad search holds and prints a line per match, and a Map's
   * entries deleted one by one cost a third of printing go-src's 51,095 `func\s+\w+` lines.
   */
  private pending: Array<{ n: number; text: string; match: boolean }> = [];
  private lastFile: string | undefined;
  private lastLine = 0;
  private readonly stale = new Set<string>();

  /** withContext: context lines were asked for, so groups that are not adjacent are parted by `--`. */
  constructor(private readonly withContext: boolean) {}

  /** The lines this match makes final (without a trailing newline), or "" when none is. */
  row(row: unknown): string {
    const m = row as TextMatch;
    if (m.stale) this.stale.add(m.file_path);
    let before = "";
    if (m.file_path !== this.file) {
      before = this.flush(Number.POSITIVE_INFINITY);
      this.file = m.file_path;
    }
    let lines: string;
    if (m.context.length === 0 && this.pending.length === 0) {
      // nothing held back and no context: the match's line is final now (every row of a search without context)
      lines = this.line(m.line_number, m.matched_line, true);
    } else {
      // the lines in order, the match among its context (the order flush relies on)
      const printed = this.lastPrinted();
      let i = 0; // context[i] is line context_start_line + i, skipping the match
      for (let k = 0; k <= m.context.length; k++) {
        const n = m.context_start_line + k;
        if (n === m.line_number) this.hold(n, m.matched_line, true);
        else {
          const text = m.context[i++]!;
          if (n > printed) this.hold(n, text, false);
        }
      }
      // lines up to this match can change no more: a later match is further down, its context only context
      lines = this.flush(m.line_number);
    }
    return before === "" ? lines : lines === "" ? before : `${before}\n${lines}`;
  }

  /** The last file's held-back lines. */
  end(): string {
    return this.flush(Number.POSITIVE_INFINITY);
  }

  /** What the rows seen showed that ripgrep-like lines cannot say: hits in files changed since indexing. */
  notes(): string[] {
    const note = staleNote([...this.stale]);
    return note ? [note] : [];
  }

  private lastPrinted(): number {
    return this.lastFile === this.file ? this.lastLine : 0;
  }

  /** Holds line n: a match replaces the context line it is; a context line already held stays as it is. */
  private hold(n: number, text: string, match: boolean): void {
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.n > n) i--;
    const at = this.pending[i - 1];
    if (at !== undefined && at.n === n) {
      if (match) {
        at.text = text;
        at.match = true;
      }
      return;
    }
    if (i === this.pending.length) this.pending.push({ n, text, match });
    else this.pending.splice(i, 0, { n, text, match });
  }

  /** The held lines up to `through`, printed: one string, lines parted by newlines. */
  private flush(through: number): string {
    let k = 0;
    let out = "";
    for (; k < this.pending.length; k++) {
      const l = this.pending[k]!;
      if (l.n > through) break;
      out = k === 0 ? this.line(l.n, l.text, l.match) : `${out}\n${this.line(l.n, l.text, l.match)}`;
    }
    if (k === this.pending.length) this.pending.length = 0;
    else if (k > 0) this.pending.splice(0, k);
    return out;
  }

  private line(n: number, text: string, match: boolean): string {
    const parted = this.withContext && this.lastFile !== undefined && (this.lastFile !== this.file || n > this.lastLine + 1);
    this.lastFile = this.file;
    this.lastLine = n;
    const line = match ? `${this.file}:${n}:${text}` : `${this.file}-${n}-${text}`;
    return parted ? `--\n${line}` : line;
  }
}

/** What ripgrep-like lines cannot say (stderr): a cut or partial result, hits in files changed since indexing. */
function grepNotes(r: Output): string[] {
  const notes: string[] = [];
  if (r.truncated)
    notes.push(`stopped after ${r.match_count} matching lines (at most ${MAX_MATCHES}, and what fits --max-tokens); narrow the search with --path or --ext`);
  if (r.partial) notes.push("the deadline passed; these are the matches found so far");
  const stale = staleNote([...new Set(r.matches.filter((m) => (m as { stale?: boolean }).stale).map((m) => m.file_path))]);
  if (stale) notes.push(stale);
  return notes;
}

function staleNote(files: string[]): string | undefined {
  if (files.length === 0) return undefined;
  return `STALE: ${files.length} file${files.length === 1 ? "" : "s"} changed since indexing (${files.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""}); the lines are as indexed: run cortex index, or add --fresh`;
}
