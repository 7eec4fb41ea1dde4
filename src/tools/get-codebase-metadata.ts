/** get_codebase_metadata (codebase-context): languages, frameworks, dependencies and project statistics. */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import type { CodebaseMetadata } from "../engines/metadata/index.ts";
import { moduleFor } from "../lang/registry.ts";

export const metadataTool = defineTool({
  name: "get_codebase_metadata",
  title: "Project overview: languages, frameworks, dependencies",
  description:
    "Describe the project as a whole: languages with file and line counts, frameworks and libraries (detected from " +
    "manifests — package.json, go.mod, pyproject.toml, requirements*.txt, setup.cfg, Cargo.toml, pom.xml, " +
    "build.gradle, Gemfile, composer.json, *.csproj — and from what the code imports), dependencies with versions, " +
    "and statistics (files, lines, types, functions, modules, tests). Read it first in an unfamiliar codebase.",
  input: z.object({}).strict(),
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  cli: { command: ["metadata"], summary: "project overview: languages, frameworks, dependencies, statistics" },
  example: {},
  async handler(_args, ctx): Promise<CodebaseMetadata> {
    const m = await (await ctx.session.metadata()).metadata();
    // over a shared store the folder the server runs in is not what is described: the repositories are
    const shared = ctx.session.sharedStore;
    return shared ? { ...m, name: (await shared.repos()).map((r) => r.name).join(", "), root: shared.url } : m;
  },
  render(m) {
    // the headline counts the languages cortex parses as code: immer's 63,176 "lines of code" were 13,700
    // of TypeScript and JavaScript beside a 27,002-line JSON fixture and 15,292 lines of yarn.lock
    const code = m.languages.filter((l) => moduleFor(l.language) !== undefined).reduce((a, l) => a + l.code_lines, 0);
    const other = m.statistics.code_lines - code;
    const lines = [
      `${m.name} (${m.root})`,
      `  ${m.statistics.files} files, ${code} lines of code${other > 0 ? ` (and ${other} of data, configuration and documentation)` : ""}, ${m.statistics.functions} functions, ${m.statistics.types} types, ${m.statistics.test_files} test files`,
    ];
    lines.push("", "Languages:");
    for (const l of m.languages.slice(0, 10))
      lines.push(
        `  ${l.language.padEnd(16)} ${String(l.files).padStart(6)} files ${String(l.code_lines).padStart(9)} code lines  ${(l.share * 100).toFixed(1)}%`,
      );
    if (m.languages.length > 10) lines.push(`  … and ${m.languages.length - 10} more (--json lists them all)`);
    if (m.frameworks.length) {
      lines.push("", "Frameworks and libraries:");
      for (const f of m.frameworks)
        lines.push(
          `  ${f.name}${f.version ? ` ${f.version}` : ""} (${f.category}${f.auxiliary ? "; only in examples, benchmarks, tests or docs" : ""}): ${f.evidence.join(", ")}`,
        );
    }
    if (m.manifests.length) {
      lines.push("", "Manifests:");
      for (const x of m.manifests) lines.push(`  ${x.path} (${x.ecosystem}): ${x.dependencies} dependencies, ${x.dev_dependencies} dev`);
    }
    return lines.join("\n");
  },
});
