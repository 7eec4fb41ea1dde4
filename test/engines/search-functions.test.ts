/**
 * Function-level answers end to end: a project indexed by the real pipeline, searched as an agent asks,
 * and each definition hit naming its function and the function's whole span.
 */
import { describe, expect, test } from "bun:test";
import { indexedForSearch } from "../helpers/search-project.ts";

/** A long function: its body alone is past the chunker's 80-line window, so it is split in parts. */
const longBody = Array.from({ length: 100 }, (_, i) => `        total += weights[${i}] * values[${i}]`).join("\n");

const files = {
  "cli/parser.py": `"""Command line parsing."""


class OptionParser:
    """Parses command line options and arguments for a command."""

    def __init__(self, prog):
        self.prog = prog
        self.options = {}
        self.arguments = []

    def add_option(self, name, dest, action="store"):
        self.options[name] = (dest, action)

    def add_argument(self, dest, nargs=1):
        self.arguments.append((dest, nargs))

    def parse_args(self, args):
        values = {}
        for a in args:
            if a in self.options:
                values[self.options[a][0]] = True
        return values


def weighted_total(weights, values):
    total = 0
${longBody}
    return total
`,
  "cli/help.py": `"""Help text for commands."""


def format_usage(prog, options):
    return "usage: " + prog + " " + " ".join(options)


def format_help(prog, options, text):
    return format_usage(prog, options) + "\\n\\n" + text
`,
};

const project = indexedForSearch(files);

describe("function-level answers", () => {
  test("the method a question describes leads its class and the file overview", async () => {
    const r = await project.engine.search({ query: "adds an option with its destination to the parser", limit: 5, mode: "keyword" });
    const first = r.results[0]!.chunk;
    expect(first.chunk_type).toBe("definitions");
    expect(first.metadata.symbol_path).toBe("OptionParser.add_option");
    const titles = r.results.map((h) => h.chunk.title);
    const classAt = titles.indexOf("OptionParser (class)");
    if (classAt >= 0) expect(classAt).toBeGreaterThan(0);
  });

  test("a definition hit names its qualified name and its whole span", async () => {
    const r = await project.engine.search({ query: "add_option", limit: 3, mode: "keyword" });
    const hit = r.results.find((h) => h.chunk.metadata.symbol_path === "OptionParser.add_option")!;
    expect(hit.chunk.metadata).toMatchObject({
      qualified_name: "cli.parser.OptionParser.add_option",
      definition_lines: { start_line: 12, end_line: 13 },
      kind: "method",
      name: "add_option",
    });
  });

  test("a hit on one part of a long function names the whole function", async () => {
    const r = await project.engine.search({ query: "weighted_total", limit: 10, mode: "keyword" });
    const parts = r.results.filter((h) => h.chunk.metadata.symbol_path === "weighted_total");
    expect(parts.length).toBeGreaterThan(0);
    for (const h of parts) {
      expect(h.chunk.metadata.parts).toBeGreaterThan(1);
      expect(h.chunk.metadata.definition_lines).toEqual({ start_line: 26, end_line: 128 });
      expect(h.chunk.metadata.end_line - h.chunk.metadata.start_line).toBeLessThan(103);
    }
  });

  test("overviews, documentation and data hits carry no definition span", async () => {
    const r = await project.engine.search({ query: "command line parsing help text", limit: 20, mode: "keyword", filters: { chunkTypes: ["symbols"] } });
    expect(r.results.length).toBeGreaterThan(0);
    for (const h of r.results) {
      expect(h.chunk.metadata).not.toHaveProperty("definition_lines");
      expect(h.chunk.metadata).not.toHaveProperty("qualified_name");
    }
  });
});
