/**
 * One tool call for the CLI, shared by the full command path (commands.ts) and grep's fast path
 * (fast-grep.ts): the command's deadline, the call through invokeTool, a failure the tool reports in its
 * own shape (an error: exit 2 with its message), and the result printed as JSON, as NDJSON rows or
 * rendered. Exit codes follow grep and ripgrep: 0 rows found, 1 none found (for tools that return rows),
 * 2 an error (thrown, and reported by main.ts).
 */
import type { ToolDefinition } from "../tools/define.ts";
import type { ToolContext } from "../tools/context.ts";
import { invokeTool } from "../tools/invoke.ts";
import { LinePrinter, printJson, printText } from "./output.ts";
import { CortexError } from "../core/errors.ts";

const DEFAULT_DEADLINE_MS = 60_000;

/** How the result is printed: rendered for people, the tool's JSON result, or one JSON row a line. */
export type OutputMode = "text" | "json" | "ndjson";

/** Exit code of a command that found what it looked for (or returns no rows), and of one that found nothing. */
export const EXIT_FOUND = 0;
export const EXIT_NOTHING_FOUND = 1;

/** `beforePrint` runs once the result is in, before anything is printed (the progress bar clears its line). */
export async function runToolForCli(
  tool: ToolDefinition,
  input: unknown,
  mode: OutputMode,
  /** The session the tool runs on, or how to run it (a shared store's scopes: RepoScopes.invoke). */
  target: ToolContext["session"] | ((ctx: Omit<ToolContext, "session">) => Promise<unknown>),
  beforePrint?: () => void,
): Promise<number> {
  if (mode === "ndjson" && !tool.rows) {
    throw new CortexError("INVALID_INPUT", `--ndjson: 'cortex ${tool.cli.command.join(" ")}' returns one result, not rows; use --json`);
  }
  const controller = new AbortController();
  const deadline = Date.now() + DEFAULT_DEADLINE_MS;
  const timer = setTimeout(() => controller.abort(new CortexError("DEADLINE", "the command ran out of time")), DEFAULT_DEADLINE_MS);
  // rows a tool streams while it searches are printed at once; the rest when the result is in
  let streamed = 0;
  const ctx: Omit<ToolContext, "session"> = { signal: controller.signal, deadline };
  // text a tool prints row by row (grep's lines): every row, as it comes, none kept (ripgrep prints all)
  const printer = mode === "text" && tool.rowPrinter ? tool.rowPrinter(input as never) : undefined;
  const lines = new LinePrinter();
  if (mode === "ndjson" || printer) {
    ctx.everyRow = true;
    ctx.onRow = (row) => {
      if (streamed === 0) beforePrint?.();
      lines.print(printer ? printer.row(row) : JSON.stringify(row));
      streamed++;
    };
  }
  try {
    let result: unknown;
    try {
      result = typeof target === "function" ? await target(ctx) : await invokeTool(tool, input, { ...ctx, session: target });
    } finally {
      lines.flush(); // what was found before an error too
    }
    beforePrint?.();
    const failure = tool.failure?.(result);
    if (failure !== undefined) throw new CortexError("INVALID_INPUT", failure);
    const rows = tool.rows?.(result);
    // the rows not streamed yet: a tool that took every row (ctx.everyRow) streamed them all and keeps none
    const unstreamed = rows?.slice(streamed);
    if (mode === "ndjson") {
      for (const row of unstreamed!) lines.print(JSON.stringify(row));
      lines.flush();
      noteIncomplete(result, streamed + unstreamed!.length);
      noteIncompleteIndex(result);
    } else if (mode === "json" || !tool.render) printJson(result);
    else {
      if (printer) {
        for (const row of unstreamed ?? []) lines.print(printer.row(row));
        lines.print(printer.end());
        lines.flush();
      } else printText(tool.render(result));
      // a result that kept its rows (a budget asked for) says what the printer saw too: each note once
      for (const note of new Set([...(tool.notes?.(result) ?? []), ...(printer?.notes() ?? [])])) process.stderr.write(`cortex: ${note}\n`);
      noteBudgetCut(result);
      noteIncompleteIndex(result);
    }
    return rows !== undefined && streamed + unstreamed!.length === 0 ? EXIT_NOTHING_FOUND : EXIT_FOUND;
  } finally {
    clearTimeout(timer);
  }
}

/** Text leaves out the result's `truncated_note`: a result cut to fit the output budget says so, with how to see the rest. */
function noteBudgetCut(result: unknown): void {
  const note = (result as { truncated_note?: unknown } | null)?.truncated_note;
  if (typeof note === "string") process.stderr.write(`cortex: ${note} (--max-tokens raises the budget; --json shows the same cut)\n`);
}

/** Text and NDJSON leave out the result's `index_incomplete`: a reader still learns the answer covers part of the project. */
function noteIncompleteIndex(result: unknown): void {
  const note = (result as { index_incomplete?: { message?: unknown } } | null)?.index_incomplete;
  if (typeof note?.message === "string") process.stderr.write(`cortex: ${note.message}\n`);
}

/** NDJSON carries rows only: a cut or partial result says so on stderr, where a pipeline's reader still sees it. */
function noteIncomplete(result: unknown, rows: number): void {
  const r = (result ?? {}) as { truncated?: unknown; partial?: unknown };
  if (r.truncated === true) process.stderr.write(`cortex: ${rows} rows printed; more matched (the result's limit or output budget was reached)\n`);
  if (r.partial === true) process.stderr.write("cortex: the deadline passed; these are the rows found so far\n");
}
