/**
 * detect_circular_dependencies (codebase-context's tool): import cycles between files, found as strongly
 * connected components of the import graph; each is reported as the chain of files of its shortest
 * cycle and the import statements that close it. `cortex cycles [scope]` / `cortex cycles --scope <path>`.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import type { CyclesResult } from "../engines/graph/index.ts";

const input = z
  .object({
    scope: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .describe("Only files under this root-relative path prefix (e.g. 'src/features'); default: the whole project"),
    limit: z.number().int().min(1).max(500).default(100).describe("Cycles returned at most (1-500, default 100), largest components first"),
  })
  .strict();

const output = z.object({
  status: z.enum(["success", "warning"]).describe("success: no cycle; warning: cycles found"),
  message: z.string(),
  scope: z.string().optional(),
  cycles: z
    .array(
      z.object({
        files: z.array(z.string()).describe("The cycle as a chain of files, ending with the file it starts from"),
        length: z.number().int().describe("Files in the cycle"),
        severity: z.enum(["high", "medium", "low"]).describe("high for 2 files, medium for 3, low beyond"),
        component_size: z.number().int().describe("Files in the whole strongly connected component"),
        component: z.array(z.string()).optional().describe("Every file of the component, when it is larger than the cycle shown"),
        imports: z
          .array(
            z.object({
              file_path: z.string(),
              line: z.number().int(),
              column: z.number().int(),
              imports: z.string(),
              statement: z.string(),
              target: z.string(),
            }),
          )
          .describe("The import statement of each step: in file_path at line, importing `imports`, which resolves to target"),
        stale_files: z.array(z.string()).optional().describe("Files of the cycle changed or deleted since indexing: the cycle is as indexed"),
      }),
    )
    .describe("One entry per strongly connected component"),
  count: z.number().int(),
  truncated: z.boolean().describe("More components exist than limit"),
  graphStats: z.object({ files: z.number().int(), edges: z.number().int() }).describe("Files and file-to-file import edges in scope"),
  advice: z.string().optional(),
  took_ms: z.number(),
});

export const cyclesTool = defineTool({
  name: "detect_circular_dependencies",
  title: "Import cycles",
  description:
    "Find circular dependencies in the file import graph (strongly connected components), optionally under a path prefix. " +
    "Each cycle comes as the chain of files and the import statements (file, line, text) that close it, with a severity " +
    "(2-file cycles are the most harmful) and the size of its whole component. Imports are resolved to project files per " +
    "language (relative paths, packages, modules, namespaces); standard-library and external imports are not edges.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: { command: ["cycles"], positionals: ["scope"], summary: "import cycles: cortex cycles [scope] (also: --scope <path>)" },
  example: { limit: 20 },
  async handler(args, ctx): Promise<CyclesResult> {
    const engine = await ctx.session.graph();
    return engine.cycles({ ...(args.scope !== undefined ? { scope: args.scope } : {}), limit: args.limit, deadline: ctx.deadline });
  },
  render(r) {
    const out = [r.message];
    for (const c of r.cycles) {
      out.push("", `[${c.severity}] ${c.files.join(" -> ")}${c.component_size > c.length ? `  (component of ${c.component_size} files)` : ""}`);
      for (const i of c.imports) out.push(`    ${i.file_path}:${i.line}  ${i.statement}`);
      if (c.stale_files) out.push(`    STALE: ${c.stale_files.join(", ")} changed since indexing (run cortex index)`);
    }
    return out.join("\n");
  },
});
