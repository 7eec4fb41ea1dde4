/**
 * The shape every tool has. A tool is defined once (name, description written for an agent choosing a
 * tool, zod input schema, handler) and both surfaces are generated from the registry: the MCP server
 * registers it, the CLI turns its input schema into a subcommand with the same parameters.
 */
import type { z } from "zod";
import type { ToolContext } from "./context.ts";

export type Profile = "cortex" | "kit" | "codebase-context";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A field's flag: snake_case and camelCase both become kebab-case (include_snippets, includeSnippets → --include-snippets). */
export const toFlag = (field: string) =>
  field
    .replace(/_/g, "-")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();

export interface CliSpec {
  /** Subcommand words, e.g. ["files"] or ["memory", "add"]. */
  command: string[];
  /** Input fields filled from positional arguments, in order. */
  positionals?: string[];
  /** Short flags: "-e" → "is_regex"; "field=value" sets a fixed value ("-i" → "case_sensitive=false"). */
  short?: Record<string, string>;
  /** Flag spellings that differ from the field name (beyond the automatic snake/kebab forms): "--lang" → "language". */
  flags?: Record<string, string>;
  /** A field whose JSON may come from a file: `--file query.json`. */
  fromFile?: string;
  /** One line for --help. */
  summary: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O = unknown> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** Output schema for tools whose result has a fixed shape (sent as structuredContent). */
  output?: z.ZodType<O>;
  annotations: ToolAnnotations;
  profiles: Profile[];
  cli: CliSpec;
  /** An input the schema accepts, used by the registry tests and docs/tools.md. */
  example: z.input<I>;
  /**
   * What the tool does over a shared store (PostgreSQL, many repositories): "reads" when it answers from
   * the store's index (it takes `repo`, and with several repositories every path is `<repo>/<path>`; a
   * reader of several names symbol ids reader-wide and resolves imports across repositories); otherwise
   * why it cannot work there (it writes, or reads a working tree the store does not have), which a
   * shared-store server and a `--repo` command answer with.
   */
  sharedStore: "reads" | { unavailable: string };
  /** Whether the handler needs the index (the server answers with indexing progress while it builds). */
  needsIndex: boolean;
  /**
   * The index tier the answers rest on (for tools that need the index): "text" (content and trigrams,
   * written first) or "parse" (symbols, references, chunks, statistics; the default). While the parse
   * tier is incomplete, a "parse" tool's result says so (`index_incomplete`).
   */
  tier?: "text" | "parse";
  /**
   * Answers that may take tens of milliseconds or more (searches, regexes, references, graphs, a pass over
   * every file): a long-lived server runs them on its reader thread (reader-thread.ts), so light calls
   * (statistics, status, memory) are not held up behind them.
   */
  heavy?: boolean;
  handler(input: z.output<I>, ctx: ToolContext): Promise<O> | O;
  /** Human output for the CLI without --json; JSON when absent. */
  render?(result: O): string;
  /**
   * What the human output says about itself (cut short, stale hits), printed on stderr so that stdout
   * holds the answer alone (grep's lines, counted by `wc -l`).
   */
  notes?(result: O): string[];
  /**
   * For tools whose result reports a failure in its own shape (search_text_pattern's status "error"): the
   * message the CLI prints on stderr, exiting with 1, or undefined when the result is a success.
   */
  failure?(result: O): string | undefined;
  /**
   * For tools that answer with many rows (matches, lines, occurrences, table rows): the rows, each one JSON
   * object. The CLI prints one a line with --ndjson, and exits with 1 when there are none (grep's
   * convention: 0 found, 1 nothing found, 2 error).
   */
  rows?(result: O): unknown[];
  /**
   * For tools that stream their rows (ctx.onRow): the CLI's text output, row by row, so that a command
   * printing every row (ctx.everyRow) prints each as it comes and keeps none. `row` returns the lines a
   * row makes final ("" for none yet), `end` the rest; `notes` what the rows showed that `notes` of a
   * result without them cannot (stale files).
   */
  rowPrinter?(input: z.output<I>): { row(row: unknown): string; end(): string; notes(): string[] };
}

export function defineTool<I extends z.ZodObject, O>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
