/**
 * The CLI's flags as the tools' schemas define them: a camelCase field has its kebab-case flag, a flag for
 * an array inside an object (search-codebase --path for filters.paths) repeats, and --help lists the
 * command's own flags with what they set.
 */
import { expect, test } from "bun:test";
import { checkToolInput, closest, editDistance, parseToolArgs, positionalLabels } from "../../src/cli/args.ts";
import { columns, toolHelp } from "../../src/cli/render.ts";
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

test("edit distance counts a swap of two letters as one edit; a suggestion is near enough for the word's length", () => {
  expect(editDistance("wirte", "write")).toBe(1);
  expect(editDistance("serch", "search")).toBe(1);
  expect(editDistance("verison", "version")).toBe(1);
  expect(editDistance("abc", "abc")).toBe(0);
  expect(closest("--wirte", ["--write", "--root", "--json"])).toBe("--write");
  expect(closest("--verison", ["--help", "--version"])).toBe("--version");
  // a flag suggests flags and a word words; two letters are too short to guess from; far words get nothing
  expect(closest("-write", ["write"])).toBeUndefined();
  expect(closest("-x", ["-v", "-h"])).toBeUndefined();
  expect(closest("frobnicate", ["search", "files", "doctor"])).toBeUndefined();
  expect(closest("saerch", ["search"])).toBe("search");
  // one edit up to five letters, two beyond
  expect(closest("lsti", ["list"])).toBeUndefined();
  expect(closest("dcotr", ["doctor"])).toBeUndefined();
  expect(closest("doctro", ["doctor"])).toBe("doctor");
  // a prefix of three letters or more that begins one candidate only
  expect(closest("mem", ["memory", "metadata"])).toBe("memory");
  expect(closest("me", ["memory"])).toBeUndefined();
  expect(closest("pat", ["pattern", "patterns"])).toBeUndefined();
});

test("unknown options name the command's help and the nearest flag", () => {
  const grep = findTool("search_text_pattern")!;
  const shape = exposedInput(grep).shape as Parameters<typeof parseToolArgs>[1];
  expect(() => parseToolArgs(["foo", "--pth", "src"], shape, grep.cli)).toThrow("unknown option --pth: did you mean '--path'? (see cortex grep --help)");
  expect(() => parseToolArgs(["foo", "--bogus"], shape, grep.cli)).toThrow(/^unknown option --bogus \(see cortex grep --help\)$/);
  expect(() => parseToolArgs(["foo", "--max-tokns", "9"], shape, grep.cli)).toThrow("did you mean '--max-tokens'?");
  // a prefix of one flag spelt two ways (--max-tokens, --max_tokens) names its kebab-case form
  expect(() => parseToolArgs(["foo", "--max", "9"], shape, grep.cli)).toThrow("did you mean '--max-tokens'?");
});

test("a missing positional is named as the command's summary writes it, with the usage", () => {
  const grep = findTool("search_text_pattern")!;
  expect(positionalLabels(grep.cli)).toEqual(["pattern"]);
  expect(positionalLabels(findTool("cortex_graph")!.cli)).toEqual(["operation", "target"]);
  // exact's summary shows an example, not a placeholder: the field's name
  expect(positionalLabels(findTool("cortex_exact")!.cli)).toEqual(["query"]);
  expect(() => checkToolInput(exposedInput(grep), {}, grep.cli)).toThrow(
    "cortex grep needs <pattern>: cortex grep <pattern> [options] (see cortex grep --help)",
  );
  // a value given but wrong keeps the schema's message
  expect(() => checkToolInput(exposedInput(grep), { query: "x", context_lines: 99 }, grep.cli)).toThrow(/^context_lines: must be at most 10$/);
});

test("--help shows a field's own spellings with its long form, and long entries never run into their text", () => {
  const search = findTool("cortex_search")!;
  const help = toolHelp(search);
  expect(help).toMatch(/\n {2}--type, --chunk-types <string> {2,}Only these chunk types/);
  expect(help).toMatch(/\n {2}--tag, --tags <string> {2,}Only chunks carrying ALL these tags.*\(repeat for more\)/);
  expect(
    columns(
      [
        ["  short", "a"],
        ["  a-very-long-entry-past-the-column", "b"],
      ],
      12,
    ),
  ).toEqual(["  short     a", "  a-very-long-entry-past-the-column", "            b"]);
  expect(columns([["  index --repo <name> [path]", "x"]], 40)).toEqual(["  index --repo <name> [path]  x"]);
});
