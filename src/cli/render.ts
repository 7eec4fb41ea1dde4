/** Human-readable output of the CLI-only commands and the generated help. */
import type { IndexPlan } from "../indexer/plan.ts";
import type { IndexReport } from "../indexer/pipeline.ts";
import { TOOLS, type ToolDefinition } from "../tools/index.ts";
import { fieldKind, objectFieldSchema, usageOf } from "./args.ts";
import { toFlag } from "../tools/define.ts";
import { exposedInput } from "../tools/invoke.ts";

const kb = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

export function renderIndexPlan(p: IndexPlan): string {
  const out: string[] = [];
  out.push(`Index plan for ${p.root} (dry run: nothing written)`);
  out.push(`  ${p.files} files, ${kb(p.bytes)} would be indexed (size limit ${kb(p.settings.max_file_size)})`);
  out.push("");
  out.push("  language              files        size  parsed");
  for (const l of p.languages) out.push(`  ${l.language.padEnd(20)} ${String(l.files).padStart(6)} ${kb(l.bytes).padStart(11)}  ${l.parsed ? "yes" : "text"}`);
  out.push("");
  const reasons = Object.entries(p.excluded.byReason)
    .map(([r, n]) => `${n} ${r}`)
    .join(", ");
  out.push(`  excluded: ${p.excluded.total}${reasons ? ` (${reasons})` : ""}`);
  for (const e of p.excluded.entries.slice(0, 200)) out.push(`    ${(e.path + (e.isDir ? "/" : "")).padEnd(48)} ${e.reason.padEnd(10)} ${e.detail}`);
  if (p.excluded.entries.length > 200) out.push(`    … ${p.excluded.entries.length - 200} more (use --json for all)`);
  return out.join("\n");
}

export function renderIndexReport(r: IndexReport): string {
  const lines = [
    `Indexed ${r.root} (${r.mode}): ${r.files} files, ${r.parsed} parsed, ${r.unchanged} unchanged, ${r.deleted} removed in ${(r.tookMs / 1000).toFixed(2)} s` +
      (r.parsed > 0 ? ` (${r.filesPerSecond} files/s)` : ""),
  ];
  if (r.skipped.binary || r.skipped.unreadable) lines.push(`  skipped: ${r.skipped.binary} binary, ${r.skipped.unreadable} unreadable`);
  for (const e of r.errors.slice(0, 10)) lines.push(`  error: ${e.path ? e.path + ": " : ""}${e.error.split("\n")[0]}`);
  return lines.join("\n");
}

/**
 * Two columns, each entry padded to the widest (at most `max` characters) with two spaces at least before
 * its text; an entry longer than that has its text on the next line, in the column. (Padding every entry
 * to a fixed 28 ran "index --repo <name> [path]" into its text.)
 */
export function columns(rows: [entry: string, text: string][], max = 36): string[] {
  const width = Math.min(max, Math.max(0, ...rows.map(([e]) => e.length + 2)));
  return rows.flatMap(([e, text]) =>
    e.length + 2 <= width ? [(e.padEnd(width) + text).trimEnd()] : [e, (" ".repeat(width) + text).trimEnd()].filter((l) => l.trim() !== ""),
  );
}

export function toolHelp(t: ToolDefinition): string {
  const shape = exposedInput(t).shape as Record<string, any>;
  const lines = [`${usageOf(t.cli)} [options]`, "", `  ${t.cli.summary}`, "", `  MCP tool: ${t.name}`, "", "Options:"];
  const rows: [string, string][] = [];
  // the command's own spellings of a field (--lang for language, --type for chunk_types), as its usage
  // line and the README write them, come first, then the field's: one line lists every flag that sets it
  const aliases = new Map<string, string[]>();
  for (const [flag, field] of Object.entries(t.cli.flags ?? {})) aliases.set(field, [...(aliases.get(field) ?? []), flag]);
  for (const [field, schema] of Object.entries(shape)) {
    const { kind, element } = fieldKind(schema);
    const value = kind === "boolean" ? "" : ` <${kind === "array" ? (element ?? "string") : kind}>`;
    const short = Object.entries(t.cli.short ?? {}).find(([, f]) => f === field)?.[0];
    const flags = [...(short ? [short] : []), ...(aliases.get(field) ?? []), `--${toFlag(field)}`];
    const repeat = kind === "array" ? " (repeat for more)" : "";
    rows.push([`  ${[...new Set(flags)].join(", ")}${value}`, `${schema.description ?? ""}${repeat}`]);
  }
  // the command's own flags for fields inside an object (--lang for filters.language), each with its field's description
  for (const [field, flags] of aliases) {
    const dot = field.indexOf(".");
    if (dot < 0) continue;
    const inner = objectFieldSchema(shape[field.slice(0, dot)], field.slice(dot + 1));
    if (!inner) continue;
    const { kind, element } = fieldKind(inner);
    const value = kind === "boolean" ? "" : ` <${kind === "array" ? (element ?? "string") : kind}>`;
    const repeat = kind === "array" ? " (repeat for more)" : "";
    rows.push([`  ${flags.join(", ")}${value}`, `${inner.description ?? ""}${repeat}; same as ${field}`]);
  }
  for (const [flag, target] of Object.entries(t.cli.short ?? {})) {
    const eq = target.indexOf("=");
    if (eq > 0) rows.push([`  ${flag}`, `same as --${target.slice(0, eq).replace(/_/g, "-")}=${target.slice(eq + 1)}`]);
  }
  if (t.cli.fromFile) rows.push([`  --file <path>`, `read ${t.cli.fromFile} from a JSON file`]);
  rows.push([`  --root <path>`, "project root (default: the current directory)"]);
  rows.push([`  --json`, "print the tool's JSON result"]);
  if (t.rows) rows.push([`  --ndjson`, "print the result's rows, one JSON object a line"]);
  lines.push(...columns(rows));
  lines.push("", t.rows ? "Exit status: 0 when something is found, 1 when nothing is, 2 on an error." : "Exit status: 0 on success, 2 on an error.");
  return lines.join("\n");
}

/** The commands only the command line has, as the general help lists them (and a group's help, memory remove). */
const CLI_COMMANDS: [usage: string, summary: string][] = [
  ["index [path]", "index a project (--dry-run shows the plan)"],
  ["index --repo <name> [path]", "index a project into the shared PostgreSQL store"],
  ["repos", "list the shared store's repositories"],
  ["stats export|import", "statistics as NDJSON (.cortex/stats.ndjson)"],
  ["mcp", "serve the tools over MCP (stdio, or --http HOST:PORT)"],
  ["memory remove <id>", "forget a team memory"],
  ["setup [<client>]", "MCP configuration for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Codex CLI, Zed (--write)"],
  ["doctor", "check the installation, indexes, model, ast-grep and client configurations"],
];

const CLI_ONLY: Record<string, string> = {
  index:
    "cortex index [path | --root <path>] [--dry-run] [--full] [--embed] [--json]\n\n  Index a project (incremental; --full rebuilds aside and swaps in).\n  --dry-run prints what would be indexed and what is excluded and why, writing nothing.\n  --embed also computes the embeddings of every chunk (downloading the model on first use) and waits for them.\n\ncortex index --repo <name> [path] [--store postgres://…] [--full] [--json]\n  Index the project locally, then publish it as repository <name> of the shared PostgreSQL store (--store or\n  CORTEX_DATABASE_URL): changed and deleted files only, switched in one transaction; concurrent publishers of\n  one repository wait for each other.",
  repos:
    "cortex repos [--store postgres://…] [--json]\n\n  List the repositories of the shared PostgreSQL store (--store or CORTEX_DATABASE_URL): commit, generation,\n  files, when published and how long ago.\n\ncortex repos remove <name> [--store postgres://…] [--json]\n  Remove repository <name> and everything the store holds of it, in one transaction (a publisher of it\n  finishes first); says what it removed. Servers reading the store stop listing it. An unknown name is an\n  error listing the repositories the store holds.",
  mcp: "cortex mcp [--root <path>] [--tools <names|profile>] [--http HOST:PORT] [--allow-origin <origin>] [--no-watch]\n           [--store postgres://… [--repo <name>[,<name>…]|all]]\n\n  Serve the tools over MCP: stdio by default, Streamable HTTP at http://HOST:PORT/mcp with --http (loopback\n  only: the server has no authentication; Host and Origin are checked against DNS rebinding).\n  --tools: comma-separated tool names and/or profiles: default, cortex, kit, codebase-context, all.\n  The index is built or refreshed in the background and kept current as files change.\n  --store (or CORTEX_DATABASE_URL): serve a shared store's repositories instead of this project; every tool\n  that reads the index takes repo (a name, several, or all; default --repo, else all), and with several\n  repositories every path is <repo>/<path>. Tools that write or read a working tree are not served there.",
  "memory remove":
    "cortex memory remove <id> [--root <path>] [--json]\n\n  Forget a team memory: <id> is what cortex memory list and memory add show in brackets.",
  stats:
    "cortex stats export [--output <path>] [--root <path>] [--json]\n\n  Write the statistics (one JSON object per file with its types, functions and imports) to\n  .cortex/stats.ndjson (or --output), atomically.\n\ncortex stats import <file.ndjson> [--json]\n\n  Validate an export and summarise it; query one with: cortex files --stats-file <file> '<json>'.",
};

/** The commands of a group of two-word commands (memory: add, list, remove), each with its summary. */
function groupCommands(group: string): [string, string][] {
  const rows: [string, string][] = TOOLS.filter((t) => t.cli.command.length > 1 && t.cli.command[0] === group).map((t) => [
    t.cli.command.join(" "),
    t.cli.summary,
  ]);
  // a second word, not an argument or option ("setup [<client>]", "index --repo")
  for (const [usage, summary] of CLI_COMMANDS) if (new RegExp(`^${group} [a-z]+( |$)`).test(usage)) rows.push([usage, summary]);
  return rows;
}

/**
 * The help of a command group (`cortex memory --help`): its commands, each with its summary. The README
 * says every command takes --help; `memory --help` was an unknown memory command.
 */
function groupHelp(group: string): string | undefined {
  const rows = groupCommands(group);
  if (rows.length === 0) return undefined;
  return [
    `cortex ${group} <command> [options]`,
    "",
    "Commands:",
    ...columns(rows.map(([u, summary]) => [`  ${u}`, summary])),
    "",
    `'cortex ${group} <command> --help' describes its options.`,
  ].join("\n");
}

/** The help of a topic (a command, a command group, a tool's MCP name), or undefined when there is none. */
export function topicHelp(topic: string): string | undefined {
  if (CLI_ONLY[topic]) return CLI_ONLY[topic];
  // stats export and stats import share the help of stats
  const [first, second] = topic.split(" ");
  if (CLI_ONLY[first!] && CLI_COMMANDS.some(([usage]) => usage.startsWith(`${first} `) && usage.split(" ")[1]!.split("|").includes(second!)))
    return CLI_ONLY[first!];
  const tool = TOOLS.find((t) => t.cli.command.join(" ") === topic || t.name === topic);
  if (tool) return toolHelp(tool);
  return groupHelp(topic);
}

/** Every word `cortex help` and the unknown-command error know, for their suggestions. */
export function helpTopics(): string[] {
  const subcommands = CLI_COMMANDS.flatMap(([usage]) => {
    const [first, second] = usage.split(" ");
    return second?.includes("|") ? second.split("|").map((s) => `${first} ${s}`) : [];
  });
  return [...Object.keys(CLI_ONLY), ...subcommands, ...TOOLS.flatMap((t) => [t.cli.command.join(" "), t.cli.command[0]!]), "setup", "doctor"];
}

export function helpText(topic?: string): string {
  const own = topic ? topicHelp(topic) : undefined;
  if (own) return own;
  const lines = ["cortex: code context for coding agents and people", "", "Usage: cortex <command> [options]", "", "Commands:"];
  const commands: [string, string][] = [...CLI_COMMANDS, ...TOOLS.map((t): [string, string] => [t.cli.command.join(" "), t.cli.summary])];
  lines.push(...columns(commands.map(([u, summary]) => [`  ${u}`, summary])));
  lines.push("", "Global options:");
  lines.push(
    ...columns([
      ["  --help, -h", "this help; 'cortex <command> --help' (or 'cortex help <command>') describes a command's options"],
      ["  --version, -v, -V", "print cortex's version"],
      ["  --root <path>", "after a command that works on a project: the project's folder (default: the current directory)"],
    ]),
  );
  lines.push("", "Every command takes --json; grep, exact, refs, occurrences, files, pattern and concept also --ndjson (one row a line).");
  lines.push("Exit status: 0 found (or done), 1 nothing found (commands that return rows), 2 an error.");
  return lines.join("\n");
}
