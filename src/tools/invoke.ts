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

/** The output schema a surface exposes: the tool's own plus the truncation marks. */
export function exposedOutput(tool: ToolDefinition): z.ZodType | undefined {
  const out = tool.output;
  if (!out || !(out instanceof z.ZodObject)) return out;
  return out.extend({ truncated: z.boolean().optional(), truncated_note: z.string().optional() });
}

export async function invokeTool(tool: ToolDefinition, rawArgs: unknown, ctx: ToolContext): Promise<unknown> {
  const parsed = parseInput(exposedInput(tool), rawArgs ?? {}) as Record<string, unknown>;
  const { max_tokens, ...input } = parsed;
  const result = await tool.handler("max_tokens" in tool.input.shape ? parsed : input, ctx);
  return applyBudget(result, typeof max_tokens === "number" ? max_tokens : undefined);
}
