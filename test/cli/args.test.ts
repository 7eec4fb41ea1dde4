/**
 * The CLI's flags as the tools' schemas define them: a camelCase field has its kebab-case flag, a flag for
 * an array inside an object (search-codebase --path for filters.paths) repeats, and --help lists the
 * command's own flags with what they set.
 */
import { expect, test } from "bun:test";
import { parseToolArgs } from "../../src/cli/args.ts";
import { toolHelp } from "../../src/cli/render.ts";
import { findTool } from "../../src/tools/index.ts";
import { exposedInput } from "../../src/tools/invoke.ts";

const tool = findTool("search_codebase")!;
const shape = exposedInput(tool).shape as Parameters<typeof parseToolArgs>[1];

test("search-codebase: --path repeats into filters.paths, --include-snippets sets includeSnippets, and the schema accepts the result", () => {
  const parsed = parseToolArgs(["login", "--path", "src/auth", "--lang", "go", "--path=lib", "--include-snippets"], shape, tool.cli);
  expect(parsed.input).toEqual({ query: "login", filters: { paths: ["src/auth", "lib"], language: "go" }, includeSnippets: true });
  expect(tool.input.safeParse(parsed.input).success).toBe(true);
  // the field's own spelling still works, and a scalar filter given twice is refused
  expect(parseToolArgs(["x", "--includeSnippets"], shape, tool.cli).input).toEqual({ query: "x", includeSnippets: true });
  expect(() => parseToolArgs(["x", "--lang", "go", "--lang", "rust"], shape, tool.cli)).toThrow("--lang given twice");
});

test("--help lists a command's flags for fields inside an object, with the field each sets", () => {
  const help = toolHelp(tool);
  expect(help).toContain("--include-snippets");
  expect(help).toMatch(/--lang, --language <string> +Only this language .*same as filters\.language/);
  expect(help).toMatch(/--path <string> +Only under these folders or files .*\(repeat for more\); same as filters\.paths/);
});

test("grep: a short flag's value may be attached, as ripgrep takes it (-C0); a flag without a value is not split", () => {
  const grep = findTool("search_text_pattern")!;
  const shape = exposedInput(grep).shape as Parameters<typeof parseToolArgs>[1];
  expect(parseToolArgs(["TODO", "-C0"], shape, grep.cli).input).toEqual({ query: "TODO", context_lines: 0 });
  expect(parseToolArgs(["TODO", "-C", "3"], shape, grep.cli).input).toEqual({ query: "TODO", context_lines: 3 });
  expect(() => parseToolArgs(["TODO", "-ex"], shape, grep.cli)).toThrow("unknown option -ex");
});
