/**
 * One tool call for the CLI, shared by the full command path (commands.ts) and grep's fast path
 * (fast-grep.ts): the command's deadline, the call through invokeTool, a failure the tool reports in its
 * own shape (exit 1 with its message), and the result printed as JSON or rendered.
 */
import type { ToolDefinition } from "../tools/define.ts";
import type { ToolContext } from "../tools/context.ts";
import { invokeTool } from "../tools/invoke.ts";
import { printJson, printText } from "./output.ts";
import { CortexError } from "../core/errors.ts";

const DEFAULT_DEADLINE_MS = 60_000;

/** `beforePrint` runs once the result is in, before anything is printed (the progress bar clears its line). */
export async function runToolForCli(tool: ToolDefinition, input: unknown, json: boolean, session: ToolContext["session"], beforePrint?: () => void): Promise<number> {
  const controller = new AbortController();
  const deadline = Date.now() + DEFAULT_DEADLINE_MS;
  const timer = setTimeout(() => controller.abort(new CortexError("DEADLINE", "the command ran out of time")), DEFAULT_DEADLINE_MS);
  try {
    const result = await invokeTool(tool, input, { session, signal: controller.signal, deadline });
    beforePrint?.();
    const failure = tool.failure?.(result);
    if (failure !== undefined) throw new CortexError("INVALID_INPUT", failure);
    if (json || !tool.render) printJson(result);
    else printText(tool.render(result));
    return 0;
  } finally {
    clearTimeout(timer);
  }
}
