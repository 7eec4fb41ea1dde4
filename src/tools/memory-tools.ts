/**
 * Team memory tools (codebase-context): remember a convention, decision, gotcha or failure, and recall
 * memories with their decayed confidence. Stored in .cortex/memory.json, which the team may commit.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { MEMORY_TYPES, type RecalledMemory } from "../engines/memory/index.ts";

const rememberInput = z
  .object({
    type: z
      .enum(MEMORY_TYPES)
      .describe("convention (how we do things; never decays), decision (why; 180-day half-life), gotcha (trap; 90 days), failure (what went wrong; 90 days)"),
    category: z.string().trim().min(1).max(80).describe("Area it applies to: auth, testing, database, build, …"),
    memory: z.string().trim().min(3).max(4000).describe("The thing to remember, stated so a newcomer can act on it"),
    reason: z.string().trim().max(4000).default("").describe("Why it holds: the incident, the trade-off, the source"),
  })
  .strict();

const entryOut = z.object({
  id: z.string(),
  type: z.enum(MEMORY_TYPES),
  category: z.string(),
  memory: z.string(),
  reason: z.string(),
  created_at: z.string(),
  source: z.enum(["user", "git"]),
  commit: z.string().optional(),
  author: z.string().optional(),
});

export const rememberTool = defineTool({
  name: "remember",
  title: "Remember a team convention, decision, gotcha or failure",
  description:
    "Record something the team learned so future work follows it: a convention, a decision with its reason, a " +
    "gotcha, or a failure. Saved in .cortex/memory.json (committable); the same memory twice is kept once. " +
    "Memories surface in get_memory and in search_codebase results.",
  input: rememberInput,
  output: z.object({ status: z.enum(["created", "exists"]), memory: entryOut }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  profiles: ["codebase-context"],
  sharedStore: { unavailable: "remember writes a project's .cortex/memory.json in its working tree, and the shared store holds no working trees" },
  needsIndex: false,
  cli: { command: ["memory", "add"], summary: "remember: cortex memory add --type gotcha --category auth --memory '…' --reason '…'" },
  example: { type: "convention", category: "testing", memory: "Integration tests use a real SQLite file, never mocks", reason: "mocks hid a migration bug" },
  async handler(args, ctx) {
    const { entry, created } = await ctx.session.memory().remember(args);
    return { status: created ? ("created" as const) : ("exists" as const), memory: entry };
  },
  render: (r) => `${r.status === "created" ? "remembered" : "already remembered"}: [${r.memory.id}] ${r.memory.type}/${r.memory.category}: ${r.memory.memory}`,
});

const getInput = z
  .object({
    category: z.string().trim().min(1).optional().describe("Only this category"),
    type: z.enum(MEMORY_TYPES).optional().describe("Only this type"),
    query: z.string().trim().min(1).optional().describe("Words to match against category, memory and reason"),
    limit: z.number().int().min(1).max(200).default(20).describe("Maximum memories (1-200, default 20)"),
  })
  .strict();

export const getMemoryTool = defineTool({
  name: "get_memory",
  title: "Recall team memories",
  description:
    "Recall the team's recorded conventions, decisions, gotchas and failures (from remember and from conventional " +
    "commits), most relevant and most confident first. Confidence decays: conventions never, decisions over 180 " +
    "days, gotchas and failures over 90; memories under 30% are marked stale.",
  input: getInput,
  output: z.object({
    memories: z.array(entryOut.extend({ confidence: z.number(), stale: z.boolean() })),
    total: z.number().int(),
    skipped: z.array(z.string()).optional().describe("Malformed entries of .cortex/memory.json left out, each with what is wrong"),
  }),
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: { unavailable: "team memories live in each project's .cortex/memory.json, which the shared store does not hold" },
  needsIndex: false,
  cli: { command: ["memory", "list"], summary: "recall memories: cortex memory list [--category c] [--type t] [--query q]" },
  example: { category: "testing", limit: 5 },
  async handler(args, ctx): Promise<{ memories: RecalledMemory[]; total: number; skipped?: string[] }> {
    return ctx.session.memory().recall({
      limit: args.limit,
      ...(args.category ? { category: args.category } : {}),
      ...(args.type ? { type: args.type } : {}),
      ...(args.query ? { query: args.query } : {}),
    });
  },
  render(r) {
    const skipped = (r.skipped ?? []).map((s) => `skipped a malformed entry: ${s}`);
    if (r.memories.length === 0) return [...skipped, "no memories"].join("\n");
    return [
      ...skipped,
      ...r.memories.map(
        (m) =>
          `[${m.id}] ${m.type}/${m.category} (${Math.round(m.confidence * 100)}%${m.stale ? ", stale" : ""}): ${m.memory}${m.reason ? `\n    why: ${m.reason}` : ""}`,
      ),
    ].join("\n");
  },
});
