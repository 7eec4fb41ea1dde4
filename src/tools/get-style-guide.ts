/** get_style_guide (codebase-context): the project's style rules with their sources. */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { STYLE_CATEGORIES, type StyleGuide } from "../engines/style/index.ts";

export const styleTool = defineTool({
  name: "get_style_guide",
  title: "The project's style rules",
  description:
    "The project's own conventions, before you write code: rules from its documents (CONTRIBUTING, STYLE, " +
    "CONVENTIONS, docs/ pages, architecture decision records) and from its tool configs (.editorconfig, Prettier, " +
    "ESLint (eslintrc and flat config), Biome, tsconfig strictness, Ruff, Black, flake8, golangci-lint, rustfmt, clang-format, Checkstyle, " +
    "RuboCop, PHP_CodeSniffer), each with its source file and line. Filter by category or by query words.",
  input: z
    .object({
      query: z.string().trim().min(1).optional().describe("Words to match, e.g. 'error handling', 'naming tests'"),
      category: z.enum(STYLE_CATEGORIES).optional().describe("Only rules of this category"),
      limit: z.number().int().min(1).max(500).default(100).describe("Maximum rules (1-500, default 100)"),
    })
    .strict(),
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  cli: { command: ["style-guide"], summary: "the project's style rules: cortex style-guide [--query q] [--category c]" },
  example: { category: "formatting" },
  async handler(args, ctx): Promise<StyleGuide> {
    return (await ctx.session.style()).guide({
      limit: args.limit,
      ...(args.query ? { query: args.query } : {}),
      ...(args.category ? { category: args.category } : {}),
    });
  },
  render(g) {
    if (g.rules.length === 0)
      return g.project_rules
        ? `no style rule matches (the project has ${g.project_rules}: leave out --query or --category to see them)`
        : "no style rules found (looked in CONTRIBUTING/STYLE/docs/ADRs and tool configs)";
    return [
      `${g.total} rule${g.total === 1 ? "" : "s"} from ${g.sources.length} source${g.sources.length === 1 ? "" : "s"}`,
      ...g.rules.map((r) => `  [${r.category}] ${r.rule}  (${r.source.file}:${r.source.line})`),
    ].join("\n");
  },
});
