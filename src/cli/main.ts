#!/usr/bin/env bun
/**
 * The cortex command line. Every MCP tool is a subcommand with the same parameters (generated from the
 * tool registry); a few commands exist only here: index, status, mcp, help.
 */
import { TOOLS, Session, type ToolDefinition } from "../tools/index.ts";
import { parseToolArgs } from "./args.ts";
import { printJson, printText, reportError } from "./output.ts";
import { indexProgressBar } from "./progress.ts";
import { parseInput } from "../tools/validate.ts";
import { CortexError } from "../core/errors.ts";
import { planIndex } from "../indexer/plan.ts";
import { indexStatus } from "../indexer/status.ts";
import { renderIndexPlan, renderIndexReport, renderStatus, helpText, toolHelp } from "./render.ts";
import { VERSION } from "../core/version.ts";

const DEFAULT_DEADLINE_MS = 60_000;

function findCommand(argv: string[]): { tool: ToolDefinition; rest: string[] } | undefined {
  let best: { tool: ToolDefinition; rest: string[] } | undefined;
  for (const tool of TOOLS) {
    const words = tool.cli.command;
    if (words.every((w, i) => argv[i] === w) && (!best || words.length > best.tool.cli.command.length)) {
      best = { tool, rest: argv.slice(words.length) };
    }
  }
  return best;
}

/** Options shared by the CLI-only commands. */
function simpleFlags(argv: string[], allowed: string[]): { flags: Set<string>; values: Map<string, string>; positionals: string[] } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const [name, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (!allowed.includes(name)) throw new CortexError("INVALID_INPUT", `unknown option ${name} (see --help)`);
    if (name === "--root") {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", "--root needs a path");
      values.set(name, v);
    } else flags.add(name);
  }
  return { flags, values, positionals };
}

async function runIndexCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = simpleFlags(argv, ["--dry-run", "--full", "--json", "--help"]);
  if (flags.has("--help")) return printText(helpText("index")), 0;
  if (positionals.length > 1) throw new CortexError("INVALID_INPUT", `unexpected argument: ${positionals.slice(1).join(" ")}`);
  const root = positionals[0] ?? process.cwd();
  const json = flags.has("--json");
  if (flags.has("--dry-run")) {
    const plan = planIndex(root);
    json ? printJson(plan) : printText(renderIndexPlan(plan));
    return 0;
  }
  const bar = indexProgressBar(!json);
  const session = new Session(root, { onIndexProgress: (p) => bar.update(p) });
  try {
    const report = await session.index({ full: flags.has("--full") });
    bar.done();
    json ? printJson(report) : printText(renderIndexReport(report));
    return 0;
  } finally {
    bar.done();
    session.close();
  }
}

async function runStatusCommand(argv: string[]): Promise<number> {
  const { flags, values } = simpleFlags(argv, ["--json", "--root", "--help"]);
  if (flags.has("--help")) return printText(helpText("status")), 0;
  const session = new Session(values.get("--root") ?? process.cwd());
  try {
    const status = indexStatus(session.root, session.location, session.store(), session.config, false);
    flags.has("--json") ? printJson(status) : printText(renderStatus(status));
    return 0;
  } finally {
    session.close();
  }
}

async function runTool(tool: ToolDefinition, rest: string[]): Promise<number> {
  const parsed = parseToolArgs(rest, tool.input.shape as Record<string, any>, tool.cli);
  if (parsed.help) return printText(toolHelp(tool)), 0;
  const input = parseInput(tool.input, parsed.input);
  const bar = indexProgressBar(!parsed.json);
  const session = new Session(parsed.root ?? process.cwd(), { autoIndex: true, onIndexProgress: (p) => bar.update(p) });
  const controller = new AbortController();
  const deadline = Date.now() + DEFAULT_DEADLINE_MS;
  const timer = setTimeout(() => controller.abort(new CortexError("DEADLINE", "the command ran out of time")), DEFAULT_DEADLINE_MS);
  try {
    const result = await tool.handler(input, { session, signal: controller.signal, deadline });
    bar.done();
    const failure = tool.failure?.(result);
    if (failure !== undefined) throw new CortexError("INVALID_INPUT", failure);
    if (parsed.json || !tool.render) printJson(result);
    else printText(tool.render(result));
    return 0;
  } finally {
    clearTimeout(timer);
    bar.done();
    session.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd === undefined || cmd === "help" || cmd === "--help" || cmd === "-h") {
    printText(helpText(argv[1]));
    return 0;
  }
  if (cmd === "--version" || cmd === "version") {
    printText(`cortex ${VERSION}`);
    return 0;
  }
  if (cmd === "index") return runIndexCommand(argv.slice(1));
  if (cmd === "status") return runStatusCommand(argv.slice(1));
  const found = findCommand(argv);
  if (found) return runTool(found.tool, found.rest);
  throw new CortexError("INVALID_INPUT", `unknown command '${cmd}' (see cortex --help)`);
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => process.exit(reportError(e)),
  );
}
