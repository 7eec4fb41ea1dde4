/**
 * A card's next steps in a terminal: the tool calls it suggests (the MCP form an agent runs) as the CLI
 * commands that make the same calls, each run for real through the CLI's own argument parser.
 */
import { expect, test } from "bun:test";
import { asCliCall } from "../../src/tools/cli-call.ts";
import { findTool } from "../../src/tools/index.ts";
import { exposedInput } from "../../src/tools/invoke.ts";
import { parseToolArgs } from "../../src/cli/args.ts";

/** The shell words of a command line of plain and single-quoted words. */
function shellWords(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return out;
}

test("each suggested call becomes the CLI command that parses back to the same input", () => {
  const steps = [
    'cortex_graph {"operation":"callers","target":"Context.text"} lists every caller',
    'find_symbol_occurrences {"symbol_name":"redirect"} finds where redirect is defined',
    'cortex_exact {"query":"RequestContext"} lists every file to change',
    'search_codebase {"query":"change the default status code\'s value","intent":"edit","filters":{"paths":["src/a","src/b"]}}',
    'refresh_index {"incremental":true} reads the changed files',
    'get_team_patterns {"category":"testing"} shows the trend of each',
  ];
  for (const step of steps) {
    const line = asCliCall(step, findTool);
    expect(line).toStartWith("cortex ");
    const [code, comment] = line.split("  # ");
    expect(comment).toBe(step.replace(/^[a-z_]+ \{.*?\}(?= |$) ?/, "") || undefined);
    const words = shellWords(code!).slice(1);
    const name = /^([a-z_]+) /.exec(step)![1]!;
    const tool = findTool(name)!;
    const argv = words.slice(tool.cli.command.length);
    expect(words.slice(0, tool.cli.command.length)).toEqual(tool.cli.command);
    const parsed = parseToolArgs(argv, exposedInput(tool).shape as Record<string, any>, tool.cli);
    expect(parsed.input).toEqual(JSON.parse(/\{.*?\}(?= |$)/.exec(step)![0]));
  }
  expect(asCliCall('cortex_graph {"operation":"callers","target":"Context.text"} lists every caller', findTool)).toBe(
    "cortex graph callers Context.text  # lists every caller",
  );
});

test("text that is no tool call stays as it is", () => {
  for (const step of ["read src/a.ts (uses parse)", 'nosuchtool {"a":1} x', "search again naming the function"]) expect(asCliCall(step, findTool)).toBe(step);
});
