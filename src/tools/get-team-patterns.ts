/** get_team_patterns (codebase-context): measured team patterns with trends, conflicts and golden files. */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { PATTERN_CATEGORIES, type TeamPatterns } from "../engines/team-patterns/index.ts";

export const patternsTool = defineTool({
  name: "get_team_patterns",
  title: "How the team does things (measured)",
  description:
    "Measure the team's patterns from the code itself: per group of alternatives (test framework, mocking, HTTP " +
    "client, dependency injection style, state management, error wrapping, async style, logging) how many files use " +
    "each, its share, and its trend (rising / declining / stable: share among files changed in the last 90 days of " +
    "commits against the share overall). Reports conflicts (two patterns of a group each above 20%) and golden files " +
    "(the files that best show the preferred patterns). Follow the preferred, rising patterns when you write code.",
  input: z
    .object({
      category: z
        .enum(["all", ...PATTERN_CATEGORIES])
        .default("all")
        .describe("all, di, state, testing, libraries, errors, async or logging"),
    })
    .strict(),
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: { command: ["patterns"], summary: "team patterns with trends: cortex patterns [--category testing]" },
  example: { category: "testing" },
  async handler(args, ctx): Promise<TeamPatterns> {
    return (await ctx.session.patterns()).analyze(args.category === "all" ? {} : { category: args.category });
  },
  render(t) {
    const lines: string[] = [
      `${t.analyzed_files} code files analysed; ${"unavailable" in t.history ? `no history (${t.history.unavailable})` : `${t.history.recent_files} files changed in the last ${t.history.window_days} days`}`,
    ];
    for (const g of t.groups) {
      lines.push("", `${g.title} [${g.category}]${g.conflict ? "  CONFLICT" : ""}`);
      // a trend is measured on the group's recently changed files (recent_share); without enough of them the
      // specification's default "stable" is no finding, and the text says so
      for (const p of g.patterns)
        lines.push(
          `  ${p.name.padEnd(34)} ${String(p.files).padStart(5)} files  ${(p.share * 100).toFixed(0).padStart(3)}%  ${p.recent_share === undefined ? "trend unknown (too few recent changes)" : p.trend}`,
        );
    }
    if (t.golden_files.length) lines.push("", "Golden files:", ...t.golden_files.map((g) => `  ${g.file} (${g.patterns.join("; ")})`));
    return lines.join("\n");
  },
});
