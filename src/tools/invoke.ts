/**
 * Running a tool the same way from both surfaces: validate the raw arguments with the tool's schema,
 * call the handler, apply the output budget. The MCP server and the CLI both come through here.
 */
import { z } from "zod";
import type { ToolDefinition } from "./define.ts";
import type { ToolContext } from "./context.ts";
import { parseInput } from "../core/zod-issues.ts";
import { CortexError, isCortexError } from "../core/errors.ts";
import { applyBudget, budgetField } from "./budget.ts";

/** The input schema a surface exposes: the tool's own plus `max_tokens`. */
export function exposedInput(tool: ToolDefinition): z.ZodObject {
  if ("max_tokens" in tool.input.shape) return tool.input;
  return tool.input.extend({ max_tokens: budgetField });
}

const indexIncomplete = z
  .object({
    tier: z.literal("parse"),
    state: z
      .enum(["building", "interrupted"])
      .describe("building: an index run is writing it now; interrupted: the last run stopped short, 'cortex index' finishes it"),
    parsed_files: z.number().int().describe("Files whose symbols, references, chunks and statistics are written"),
    total_files: z.number().int(),
    message: z.string(),
  })
  .describe("Present while the index's parse tier is incomplete: the answer covers only the files parsed so far");

/** The output schema a surface exposes: the tool's own plus the truncation and completeness marks. */
export function exposedOutput(tool: ToolDefinition): z.ZodType | undefined {
  const out = tool.output;
  if (!out || !(out instanceof z.ZodObject)) return out;
  return out.extend({ truncated: z.boolean().optional(), truncated_note: z.string().optional(), index_incomplete: indexIncomplete.optional() });
}

export async function invokeTool(tool: ToolDefinition, rawArgs: unknown, ctx: ToolContext): Promise<unknown> {
  const parsed = parseInput(exposedInput(tool), rawArgs ?? {}) as Record<string, unknown>;
  const { max_tokens, ...input } = parsed;
  let result: unknown;
  try {
    result = await tool.handler("max_tokens" in tool.input.shape ? parsed : input, ctx);
  } catch (e) {
    throw await incompleteIndexError(tool, e, ctx);
  }
  return applyBudget(await noteIncompleteIndex(tool, result, ctx), typeof max_tokens === "number" ? max_tokens : undefined);
}

/**
 * "No definition named X", "no indexed file Y" while the parse tier is still being built may only mean
 * that X's file is not parsed yet: the error says so, with how far the parse tier is.
 */
async function incompleteIndexError(tool: ToolDefinition, e: unknown, ctx: ToolContext): Promise<unknown> {
  if (!isCortexError(e) || e.code !== "NOT_FOUND" || !tool.needsIndex || tool.tier === "text") return e;
  let state: Awaited<ReturnType<ToolContext["session"]["parseTierState"]>>;
  try {
    state = await ctx.session.parseTierState();
  } catch {
    return e;
  }
  if (!state) return e;
  const how = state.finishing
    ? `every file is parsed, but reference resolution is ${ctx.session.indexRunActive ? "still running" : "not done"}`
    : `${state.parsed} of ${state.total} files are parsed${ctx.session.indexRunActive ? " so far" : " (the last index run stopped: run 'cortex index' to finish)"}`;
  return new CortexError("NOT_FOUND", `${e.message} (the index is incomplete: ${how}; it may be in a file not parsed yet)`, {
    cause: e,
    data: { ...(typeof e.data === "object" && e.data ? e.data : {}), index_incomplete: { parsed_files: state.parsed, total_files: state.total } },
  });
}

/**
 * A tool answering from the parse tier while it is still being built says how far it is: nothing is
 * silently incomplete. Exact and regex search (the text tier) are complete as soon as the index exists.
 */
async function noteIncompleteIndex(tool: ToolDefinition, result: unknown, ctx: ToolContext): Promise<unknown> {
  if (!tool.needsIndex || tool.tier === "text" || !result || typeof result !== "object" || Array.isArray(result)) return result;
  const state = await ctx.session.parseTierState();
  if (!state) return result;
  // no run building it: the last one stopped short (killed, or its disk filled) and only a new run finishes it
  const building = ctx.session.indexRunActive;
  const stopped = building ? "" : " The last index run stopped before finishing it: run 'cortex index' (or refresh_index) to finish.";
  const message =
    (state.finishing
      ? `every file is parsed; the keyword index and reference resolution are ${building ? "still being built" : "not built"} (${state.total} files), so search ranks and references may be incomplete.`
      : state.keywordsPending
        ? // a first build loads the keyword index after its last file: search had "those files" and found none
          `the parse tier is ${building ? "being built" : "incomplete"}: ${state.parsed} of ${state.total} files parsed; symbols, references, graphs and statistics cover those files only, and search ranks nothing until the keyword index is loaded after the last file (exact and regex search cover every file now).`
        : `the parse tier is ${building ? "being built" : "incomplete"}: ${state.parsed} of ${state.total} files parsed; symbols, references, graphs, search chunks and statistics cover those files only (exact and regex search cover every file).`) +
    stopped;
  const out: Record<string, unknown> = {
    ...(result as Record<string, unknown>),
    index_incomplete: { tier: "parse", state: building ? "building" : "interrupted", parsed_files: state.parsed, total_files: state.total, message },
  };
  // a result that says whether it is complete (get_symbol_references' isComplete) cannot be while the files are not all read
  if (out.isComplete === true) out.isComplete = false;
  return out;
}
