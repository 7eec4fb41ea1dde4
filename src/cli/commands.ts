/**
 * The cortex command line's commands (main.ts loads this module for all but the fast path). Every MCP
 * tool is a subcommand with the same parameters (generated from the tool registry); a few commands exist
 * only here: index, stats, mcp, memory remove, setup, doctor, help.
 */
import { checkProjectRoot } from "../core/paths.ts";
import { TOOLS, Session, type ToolDefinition } from "../tools/index.ts";
import { exposedInput } from "../tools/invoke.ts";
import { runToolForCli } from "./run-tool.ts";
import { checkToolInput, closest, didYouMean, knownFlags, outputMode, parseToolArgs } from "./args.ts";
import { printJson, printText, EXIT_ERROR } from "./output.ts";
import { indexProgressBar } from "./progress.ts";
import { CortexError } from "../core/errors.ts";
import { planIndex } from "../indexer/plan.ts";
import { renderIndexPlan, renderIndexReport, helpText, helpTopics, toolHelp, topicHelp } from "./render.ts";
import { VERSION } from "../core/version.ts";
import { exportStats, MemoryStats } from "../store/stats-ndjson.ts";
import { FilesEngine } from "../engines/files/index.ts";
import { isAbsolute, join, relative, resolve } from "node:path";
import { runMcp, type McpRunOptions } from "../mcp/run.ts";

/**
 * codebase-context's CLI spells its search `search --query <q> [--intent i] [--framework f] [--layer l]`;
 * cortex's own is `search "<q>"` (cortex_search). The flags only codebase-context has pick search_codebase.
 */
const CODEBASE_SEARCH_FLAGS = ["--query", "--framework", "--layer", "--include-snippets"];

function findCommand(argv: string[]): { tool: ToolDefinition; rest: string[] } | undefined {
  if (argv[0] === "search" && argv.slice(1).some((a) => CODEBASE_SEARCH_FLAGS.includes(a.split("=")[0]!))) {
    const tool = TOOLS.find((t) => t.name === "search_codebase");
    if (tool) return { tool, rest: argv.slice(1) };
  }
  let best: { tool: ToolDefinition; rest: string[] } | undefined;
  for (const tool of TOOLS) {
    const words = tool.cli.command;
    if (words.every((w, i) => argv[i] === w) && (!best || words.length > best.tool.cli.command.length)) {
      best = { tool, rest: argv.slice(words.length) };
    }
  }
  return best;
}

/**
 * An unknown option of a CLI-only command: names the flag, the one it most likely meant, and the
 * command's own help (a bare "see --help" left the reader to guess which help).
 */
function unknownOption(flag: string, allowed: string[], command: string): CortexError {
  return new CortexError("INVALID_INPUT", `unknown option ${flag}${didYouMean(flag, allowed)} (see cortex ${command} --help)`);
}

/** Options shared by the CLI-only commands. */
function simpleFlags(argv: string[], allowed: string[], command: string): { flags: Set<string>; values: Map<string, string>; positionals: string[] } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-h") {
      flags.add("--help");
      continue;
    }
    // a single-dash word is a mistyped flag, not a path to index
    if (!a.startsWith("-") || a === "-") {
      positionals.push(a);
      continue;
    }
    const [name, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (!allowed.includes(name)) throw unknownOption(name, allowed, command);
    if (name === "--root") {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", "--root needs a path");
      values.set(name, v);
    } else flags.add(name);
  }
  return { flags, values, positionals };
}

async function runIndexCommand(argv: string[]): Promise<number> {
  const { flags, values, positionals } = simpleFlags(argv, ["--dry-run", "--full", "--embed", "--root", "--json", "--help"], "index");
  if (flags.has("--help")) {
    printText(helpText("index"));
    return 0;
  }
  if (positionals.length > 1)
    throw new CortexError("INVALID_INPUT", `unexpected argument: ${positionals.slice(1).join(" ")} (cortex index takes one [path]; see cortex index --help)`);
  // --root, which every other command working on a project takes (the general help lists it), or the path
  if (positionals.length > 0 && values.has("--root")) throw new CortexError("INVALID_INPUT", "give the project as [path] or as --root <path>, not both");
  const root = values.get("--root") ?? positionals[0] ?? process.cwd();
  checkProjectRoot(root);
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
    if (flags.has("--embed")) {
      const tty = !json && process.stderr.isTTY;
      const embeddings = await session.embedAll((s) => {
        if (tty) process.stderr.write(`\r\x1b[2Kcortex: embeddings ${s}`);
      });
      if (tty) process.stderr.write("\r\x1b[2K");
      json ? printJson({ ...report, embeddings }) : printText(`${renderIndexReport(report)}\n  embeddings: ${embeddings}`);
      return embeddings.startsWith("unavailable") ? EXIT_ERROR : 0;
    }
    json ? printJson(report) : printText(renderIndexReport(report));
    return 0;
  } finally {
    bar.done();
    session.close();
  }
}

/** How to query an imported statistics file: --stats-file reads files inside the project it runs in. */
function statsQueryHint(abs: string): string {
  const inside = relative(process.cwd(), abs);
  if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) return `query it with: cortex files --stats-file ${inside} '<json>'`;
  return `to query it, run from the project folder that holds it: cortex files --stats-file <its path there> '<json>' (--stats-file reads files inside the project only)`;
}

async function runStatsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "export") {
    let output: string | undefined;
    let root: string | undefined;
    let json = false;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i]!;
      if (a === "--output" || a === "-o") output = rest[++i];
      else if (a === "--root") root = rest[++i];
      else if (a === "--json") json = true;
      else if (a === "--help" || a === "-h") {
        printText(helpText("stats"));
        return 0;
      } else throw unknownOption(a, ["--output", "-o", "--root", "--json", "--help"], "stats");
    }
    const session = new Session(root ?? process.cwd(), { autoIndex: true });
    try {
      const store = await session.requireStore();
      const target = output ? resolve(output) : join(session.root, ".cortex", "stats.ndjson");
      const count = exportStats(store, target);
      json ? printJson({ path: target, files: count }) : printText(`wrote ${count} files' statistics to ${target}`);
      return 0;
    } finally {
      session.close();
    }
  }
  if (sub === "import") {
    if (rest.includes("--help") || rest.includes("-h")) {
      printText(helpText("stats"));
      return 0;
    }
    const json = rest.includes("--json");
    const files = rest.filter((a) => a !== "--json");
    const flag = files.find((a) => a.startsWith("-") && a !== "-");
    if (flag) throw unknownOption(flag, ["--json", "--help"], "stats");
    if (files.length !== 1) throw new CortexError("INVALID_INPUT", "usage: cortex stats import <file.ndjson> [--json]");
    const stats = MemoryStats.fromFile(resolve(files[0]!), files[0]!);
    try {
      const engine = new FilesEngine(stats);
      const summary = await engine.query({
        from: "files",
        aggregations: [
          { function: "COUNT", alias: "files" },
          { function: "SUM", field: "type_count", alias: "types" },
          { function: "SUM", field: "function_count", alias: "functions" },
          { function: "SUM", field: "import_count", alias: "imports" },
        ],
      });
      const [filesN, types, functions, imports] = summary.rows[0] as number[];
      const result = { path: resolve(files[0]!), valid: true, files: filesN, types: types ?? 0, functions: functions ?? 0, imports: imports ?? 0 };
      json
        ? printJson(result)
        : printText(
            `${files[0]}: valid, ${result.files} files, ${result.types} types, ${result.functions} functions, ${result.imports} imports (${statsQueryHint(resolve(files[0]!))})`,
          );
      return 0;
    } finally {
      stats.close();
    }
  }
  if (sub === "--help" || sub === "-h") {
    printText(helpText("stats"));
    return 0;
  }
  if (sub === undefined) throw new CortexError("INVALID_INPUT", "cortex stats needs a command: export or import (see cortex stats --help)");
  throw new CortexError(
    "INVALID_INPUT",
    `unknown stats command '${sub}': use export or import${didYouMean(sub, ["export", "import"], ";")} (see cortex stats --help)`,
  );
}

async function runMcpCommand(argv: string[]): Promise<number> {
  const opts: McpRunOptions = { root: process.cwd() };
  const origins: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", `${a} needs a value`);
      return v;
    };
    if (a === "--root") opts.root = value();
    else if (a === "--tools") opts.tools = value();
    else if (a === "--http") opts.http = value();
    else if (a === "--allow-origin") origins.push(value());
    else if (a === "--no-watch") opts.watch = false;
    else if (a === "--store") opts.store = value();
    else if (a === "--repo") opts.repo = value();
    else if (a === "--help" || a === "-h") {
      printText(helpText("mcp"));
      return 0;
    } else throw unknownOption(a, ["--root", "--tools", "--http", "--allow-origin", "--no-watch", "--store", "--repo", "--help"], "mcp");
  }
  if (origins.length) opts.allowedOrigins = origins;
  await runMcp(opts);
  // the server runs until the client disconnects or a signal arrives
  return new Promise<number>(() => {});
}

async function runMemoryRemove(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  let root = process.cwd();
  const ids: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") continue;
    if (a === "--help" || a === "-h") {
      printText(helpText("memory remove"));
      return 0;
    }
    if (a === "--root") {
      const v = argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", "--root needs a path");
      root = v;
    } else if (a.startsWith("-")) throw unknownOption(a, ["--root", "--json", "--help"], "memory remove");
    else ids.push(a);
  }
  if (ids.length !== 1) throw new CortexError("INVALID_INPUT", "usage: cortex memory remove <id> [--root <path>] [--json]");
  const session = new Session(root);
  const removed = await session.memory().forget(ids[0]!);
  json ? printJson({ removed }) : printText(`removed [${removed.id}] ${removed.type}/${removed.category}: ${removed.memory}`);
  return 0;
}

async function runTool(tool: ToolDefinition, rest: string[]): Promise<number> {
  if (rest.some((a) => /^--(repo|store)(=|$)/.test(a))) return (await import("./shared-store.ts")).runToolOnSharedStore(tool, rest);
  const parsed = parseToolArgs(rest, exposedInput(tool).shape as Record<string, any>, tool.cli);
  if (parsed.help) {
    printText(toolHelp(tool));
    return 0;
  }
  // validate before touching the project, so a typo never starts an index build
  checkToolInput(exposedInput(tool), parsed.input, tool.cli);
  const bar = indexProgressBar(!parsed.json && !parsed.ndjson);
  const session = new Session(parsed.root ?? process.cwd(), { autoIndex: true, oneShot: true, onIndexProgress: (p) => bar.update(p) });
  // a first index run can take minutes: the command's deadline starts once the index is there
  if (tool.needsIndex) {
    try {
      await session.requireReader();
    } catch (e) {
      bar.done();
      session.close();
      throw e;
    }
  }
  try {
    return await runToolForCli(tool, parsed.input, outputMode(parsed), session, () => bar.done());
  } finally {
    bar.done();
    session.close();
  }
}

/** The command words of cortex: the CLI-only commands and every tool command's first word. */
const CLI_ONLY_COMMANDS = ["index", "repos", "stats", "mcp", "memory", "setup", "doctor", "help", "version"];
const commandWords = () => [...new Set([...CLI_ONLY_COMMANDS, ...TOOLS.map((t) => t.cli.command[0]!)])];

/** Options cortex takes with no command; -v and -V are --version, as most command lines spell it. */
const VERSION_FLAGS = ["--version", "-v", "-V"];
const GLOBAL_FLAGS = ["--help", "-h", ...VERSION_FLAGS];

/**
 * Which commands take each flag, for a flag given where a command belongs (`cortex --wirte` meant
 * `cortex setup --write`): the tools' flags from their schemas, the other commands' from their help texts.
 */
async function flagOwners(): Promise<Map<string, string[]>> {
  const owners = new Map<string, string[]>();
  const add = (flag: string, command: string) => {
    const list = owners.get(flag) ?? [];
    if (!list.includes(command)) owners.set(flag, [...list, command]);
  };
  for (const t of TOOLS) for (const f of knownFlags(exposedInput(t).shape as Record<string, any>, t.cli)) add(f, t.cli.command.join(" "));
  const { SETUP_HELP } = await import("./setup/command.ts");
  const { DOCTOR_HELP } = await import("./doctor/command.ts");
  const texts: [string, string][] = [
    ["index", helpText("index")],
    ["repos", helpText("repos")],
    ["mcp", helpText("mcp")],
    ["stats export", helpText("stats")],
    ["setup", SETUP_HELP],
    ["doctor", DOCTOR_HELP],
  ];
  for (const [command, text] of texts) for (const m of text.matchAll(/--[a-z][a-z-]*[a-z]/g)) add(m[0], command);
  return owners;
}

/** The error for a first argument that is a flag cortex does not take on its own. */
async function unknownGlobalFlag(flag: string): Promise<CortexError> {
  const name = flag.split("=")[0]!;
  const global = didYouMean(name, GLOBAL_FLAGS);
  if (global) return new CortexError("INVALID_INPUT", `unknown option ${name}${global} (see cortex --help)`);
  const owners = await flagOwners();
  const meant = owners.has(name) ? name : undefined;
  const near = meant ?? closest(name, owners.keys());
  if (!near) return new CortexError("INVALID_INPUT", `unknown option ${name} (see cortex --help)`);
  const commands = owners.get(near)!;
  // an option of one command names the command; one that many commands take goes after any of them
  const help = commands.length === 1 ? `see cortex ${commands[0]} --help` : "see cortex --help";
  if (meant) {
    const where =
      commands.length === 1 ? `an option of cortex ${commands[0]}: cortex ${commands[0]} ${near}` : `an option of a command: cortex <command> ${near}`;
    return new CortexError("INVALID_INPUT", `${name} is ${where} (${help})`);
  }
  const where = commands.length === 1 ? `cortex ${commands[0]} ${near}` : `cortex <command> ${near}`;
  return new CortexError("INVALID_INPUT", `unknown option ${name}: did you mean '${where}'? (${help})`);
}

/** `cortex help [<command>]`: the general help, a command's or a group's; a topic cortex lacks is an error. */
async function runHelp(words: string[]): Promise<number> {
  if (words.length === 0) {
    printText(helpText());
    return 0;
  }
  const topic = words.join(" ");
  if (topic === "setup" || topic === "doctor") return runCommand([topic, "--help"]);
  const text = topicHelp(topic);
  // the general help with exit 0 for a misspelt command read as if the command had no help of its own
  if (text === undefined) throw new CortexError("INVALID_INPUT", `unknown command '${topic}'${didYouMean(topic, helpTopics())} (see cortex --help)`);
  printText(text);
  return 0;
}

export async function runCommand(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd === "help") return runHelp(argv.slice(1));
  if (cmd === undefined || cmd === "--help" || cmd === "-h") {
    printText(helpText());
    return 0;
  }
  if (VERSION_FLAGS.includes(cmd) || cmd === "version") {
    printText(`cortex ${VERSION}`);
    return 0;
  }
  if (cmd === "index" && argv.some((a) => a === "--repo" || a.startsWith("--repo=")))
    return (await import("./shared-store.ts")).runIndexRepoCommand(argv.slice(1));
  if (cmd === "index") return runIndexCommand(argv.slice(1));
  if (cmd === "repos") return (await import("./shared-store.ts")).runReposCommand(argv.slice(1));
  if (cmd === "stats") return runStatsCommand(argv.slice(1));
  if (cmd === "mcp") return runMcpCommand(argv.slice(1));
  if (cmd === "setup") return (await import("./setup/command.ts")).runSetupCommand(argv.slice(1));
  if (cmd === "doctor") return (await import("./doctor/command.ts")).runDoctorCommand(argv.slice(1));
  if (cmd === "memory" && argv[1] === "remove") return runMemoryRemove(argv.slice(2));
  const found = findCommand(argv);
  if (found) return runTool(found.tool, found.rest);
  // a command of two words (memory list) given a second word it does not have: name the ones it has
  const subs = TOOLS.filter((t) => t.cli.command.length > 1 && t.cli.command[0] === cmd).map((t) => t.cli.command[1]!);
  if (cmd === "memory") subs.push("remove");
  if (subs.length > 0) {
    // a group's --help lists its commands (the README says every command takes --help)
    if (argv[1] === "--help" || argv[1] === "-h") {
      printText(helpText(cmd));
      return 0;
    }
    const sub = argv[1];
    throw new CortexError(
      "INVALID_INPUT",
      `${sub === undefined ? `cortex ${cmd} needs a command` : `unknown ${cmd} command '${sub}'`}: use ${subs.join(", ")}${sub === undefined ? "" : didYouMean(sub, subs, ";")} (see cortex ${cmd} --help)`,
    );
  }
  if (cmd.startsWith("-")) throw await unknownGlobalFlag(cmd);
  throw new CortexError("INVALID_INPUT", `unknown command '${cmd}'${didYouMean(cmd, commandWords())} (see cortex --help)`);
}
