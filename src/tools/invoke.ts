/**
 * Running a tool the same way from both surfaces: validate the raw arguments with the tool's schema,
 * call the handler, apply the output budget. The MCP server and the CLI both come through here.
 */
import { z } from "zod";
import type { ToolDefinition } from "./define.ts";
import type { ToolContext } from "./context.ts";
import { parseInput } from "../core/zod-issues.ts";
import { applyBudget, budgetField } from "./budget.ts";

/** The input schema a surface exposes: the tool's own plus `max_tokens`. */
export function exposedInput(tool: ToolDefinition): z.ZodObject {
  if ("max_tokens" in tool.input.shape) return tool.input;
  return tool.input.extend({ max_tokens: budgetField });
}

const indexIncomplete = z
  .object({
    tier: z.literal("parse"),
    parsed_files: z.number().int().describe("Files whose symbols, references, chunks and statistics are written"),
    total_files: z.number().int(),
    message: z.string(),
  })
  .describe("Present while the index's parse tier is being built: the answer covers only the files parsed so far");

/** The output schema a surface exposes: the tool's own plus the truncation and completeness marks. */
export function exposedOutput(tool: ToolDefinition): z.ZodType | undefined {
  const out = tool.output;
  if (!out || !(out instanceof z.ZodObject)) return out;
  return out.extend({ truncated: z.boolean().optional(), truncated_note: z.string().optional(), index_incomplete: indexIncomplete.optional() });
}

export async function invokeTool(tool: ToolDefinition, rawArgs: unknown, ctx: ToolContext): Promise<unknown> {
  const parsed = parseInput(exposedInput(tool), rawArgs ?? {}) as Record<string, unknown>;
  const { max_tokens, ...input } = parsed;
  const result = await tool.handler("max_tokens" in tool.input.shape ? parsed : input, ctx);
  return applyBudget(await noteIncompleteIndex(tool, result, ctx), typeof max_tokens === "number" ? max_tokens : undefined);
}

/**
 * A tool answering from the parse tier while it is still being built says how far it is: nothing is
 * silently incomplete. Exact and regex search (the text tier) are complete as soon as the index exists.
 */
async function noteIncompleteIndex(tool: ToolDefinition, result: unknown, ctx: ToolContext): Promise<unknown> {
  if (!tool.needsIndex || tool.tier === "text" || !result || typeof result !== "object" || Array.isArray(result)) return result;
  const state = await ctx.session.parseTierState();
  if (!state) return result;
  const message = state.finishing
    ? `every file is parsed; the keyword index and reference resolution are still being built (${state.total} files), so search ranks and references may be incomplete`
    : `the parse tier is being built: ${state.parsed} of ${state.total} files parsed; symbols, references, graphs, search chunks and statistics cover those files only (exact and regex search cover every file)`;
  return { ...(result as Record<string, unknown>), index_incomplete: { tier: "parse", parsed_files: state.parsed, total_files: state.total, message } };
}
