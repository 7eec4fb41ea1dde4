/**
 * cortex_graph: the call graph, the import graph and the type graph from resolved references —
 * callers, callees, dependencies, dependents, type_usages, implementations, path and impact — at any
 * depth from 1 to 10, with a result limit, edges marked with the site that makes them and, on request,
 * the source lines around each site. `cortex graph <operation> <target> [--depth n]` on the command line.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { GRAPH_OPERATIONS, type GraphOperation, type GraphResult } from "../engines/graph/index.ts";

/** Depth when none is given: one level, except where the question is about reach. */
const DEFAULT_DEPTH: Record<GraphOperation, number> = {
  callers: 1,
  callees: 1,
  dependencies: 1,
  dependents: 1,
  type_usages: 1,
  implementations: 1,
  path: 10,
  impact: 3,
};

const input = z
  .object({
    operation: z
      .enum(GRAPH_OPERATIONS)
      .describe(
        "callers / callees (the call graph), dependencies / dependents (the import graph), type_usages (where a type is named), " +
          "implementations (types extending or implementing it; Go by method sets), path (shortest call or import path from target to `to`), " +
          "impact (everything that transitively depends on a symbol or file)",
      ),
    target: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe("A symbol (partial or qualified name: `Login`, `auth.Handler.ServeHTTP`) or a root-relative file or folder path"),
    to: z.string().trim().min(1).max(500).optional().describe("path: where the path should end (a symbol, or a file for an import path)"),
    depth: z.number().int().min(1).max(10).optional().describe("Levels to follow (1-10; default 1, path 10, impact 3)"),
    max_results: z.number().int().min(1).max(500).default(100).describe("Edges returned at most (1-500, default 100); beyond it the result says truncated"),
    level: z.enum(["file", "module"]).default("file").describe("dependencies / dependents of a folder: between files, or between modules (folders)"),
    include_context: z.boolean().default(false).describe("Add the source lines around each edge's site"),
    context_lines: z.number().int().min(0).max(20).default(2).describe("Lines before and after each site with include_context (0-20, default 2)"),
  })
  .strict();

const node = z.object({
  kind: z.enum(["symbol", "file", "module", "unresolved"]),
  name: z.string(),
  symbol_kind: z.string().optional(),
  file_path: z.string().optional(),
  line: z.number().int().optional(),
});

const output = z.object({
  operation: z.enum(GRAPH_OPERATIONS),
  targets: z.array(node).describe("What the target named (every definition matching a partial name)"),
  edges: z
    .array(
      z.object({
        depth: z.number().int(),
        from: node,
        to: node,
        relation: z.string().describe("call, type, inherit, implement, read, import, or method-set (Go's implicit implementation)"),
        site: z.object({ file_path: z.string(), line: z.number().int(), column: z.number().int(), resolution: z.string().optional() }).optional(),
        context: z.object({ start_line: z.number().int(), lines: z.array(z.string()) }).optional(),
        stale: z.literal(true).optional(),
      }),
    )
    .describe("Edges in breadth-first order: depth 1 first"),
  count: z.number().int(),
  truncated: z.boolean().describe("max_results was reached before the traversal ended"),
  partial: z.boolean().describe("The deadline stopped the traversal"),
  found: z.boolean().optional().describe("path: whether a path exists within the depth"),
  affected_files: z.array(z.string()).optional().describe("impact: the files reached"),
  took_ms: z.number(),
});

export const graphTool = defineTool({
  name: "cortex_graph",
  title: "Call, import and type graph",
  description:
    "Navigate the code graph built from resolved references: who calls a function (callers) and what it calls (callees), " +
    "which files a file or folder imports (dependencies) and which import it (dependents, file or module level), where a " +
    "type is used (type_usages), which types implement or extend it (implementations; Go interfaces by method sets), the " +
    "shortest call or import path between two symbols or files (path), and everything that transitively depends on a " +
    "symbol or file (impact). depth 1-10; each edge names the site (file, line, column) that makes it and how the " +
    "reference was resolved; include_context adds the surrounding lines.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: {
    command: ["graph"],
    positionals: ["operation", "target"],
    flags: { "--limit": "max_results", "--context": "include_context" },
    summary: "call / import / type graph: cortex graph <operation> <target> [--depth n] [--to t] [--level module]",
  },
  example: { operation: "callers", target: "auth.Login", depth: 2 },
  async handler(args, ctx): Promise<GraphResult> {
    const engine = await ctx.session.graph();
    return engine.run({
      operation: args.operation,
      target: args.target,
      ...(args.to ? { to: args.to } : {}),
      depth: args.depth ?? DEFAULT_DEPTH[args.operation],
      maxResults: args.max_results,
      level: args.level,
      includeContext: args.include_context,
      contextLines: args.context_lines,
      deadline: ctx.deadline,
    });
  },
  render(r) {
    const name = (n: GraphResult["edges"][number]["from"]) => (n.kind === "symbol" ? `${n.name} (${n.file_path}:${n.line})` : n.name);
    const out = [
      `${r.operation} of ${r.targets.map((t) => t.name).join(", ")}: ${r.count} edge${r.count === 1 ? "" : "s"}${r.truncated ? " (truncated)" : ""}${r.partial ? " (partial: deadline)" : ""}${r.found === false ? " — no path found" : ""}`,
    ];
    for (const e of r.edges) {
      out.push(
        `${"  ".repeat(e.depth - 1)}[${e.depth}] ${name(e.from)} -${e.relation}-> ${name(e.to)}${e.site ? `  @ ${e.site.file_path}:${e.site.line}${e.site.column ? `:${e.site.column}` : ""}` : ""}${e.stale ? "  STALE" : ""}`,
      );
      if (e.context) e.context.lines.forEach((l, i) => out.push(`${"  ".repeat(e.depth)}${String(e.context!.start_line + i).padStart(5)} | ${l}`));
    }
    return out.join("\n");
  },
});
