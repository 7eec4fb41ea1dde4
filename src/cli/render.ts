/** Human-readable output of the CLI-only commands and the generated help. */
import type { IndexPlan } from "../indexer/plan.ts";
import type { IndexReport } from "../indexer/pipeline.ts";
import { TOOLS, type ToolDefinition } from "../tools/index.ts";
import { fieldKind, objectFieldSchema } from "./args.ts";
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

export function toolHelp(t: ToolDefinition): string {
  const shape = exposedInput(t).shape as Record<string, any>;
  const pos = t.cli.positionals ?? [];
  const lines = [
    `cortex ${t.cli.command.join(" ")}${pos.map((p) => ` <${p}>`).join("")} [options]`,
    "",
    `  ${t.cli.summary}`,
    "",
    `  MCP tool: ${t.name}`,
    "",
    "Options:",
  ];
  for (const [field, schema] of Object.entries(shape)) {
    const { kind } = fieldKind(schema);
    const flag = `--${toFlag(field)}${kind === "boolean" ? "" : ` <${kind === "json" ? "json" : kind}>`}`;
    const short = Object.entries(t.cli.short ?? {}).find(([, f]) => f === field)?.[0];
    lines.push(`  ${(short ? short + ", " : "") + flag}`.padEnd(34) + ` ${schema.description ?? ""}`);
  }
  // the command's own flags for fields inside an object (--lang for filters.language), each with its field's description
  const aliases = new Map<string, string[]>();
  for (const [flag, field] of Object.entries(t.cli.flags ?? {})) aliases.set(field, [...(aliases.get(field) ?? []), flag]);
  for (const [field, flags] of aliases) {
    const dot = field.indexOf(".");
    if (dot < 0) continue;
    const inner = objectFieldSchema(shape[field.slice(0, dot)], field.slice(dot + 1));
    if (!inner) continue;
    const { kind, element } = fieldKind(inner);
    const value = kind === "boolean" ? "" : ` <${kind === "array" ? (element ?? "string") : kind}>`;
    const repeat = kind === "array" ? " (repeat for more)" : "";
    lines.push(`  ${flags.join(", ")}${value}`.padEnd(34) + ` ${inner.description ?? ""}${repeat}; same as ${field}`);
  }
  for (const [flag, target] of Object.entries(t.cli.short ?? {})) {
    const eq = target.indexOf("=");
    if (eq > 0) lines.push(`  ${flag}`.padEnd(34) + ` same as --${target.slice(0, eq).replace(/_/g, "-")}=${target.slice(eq + 1)}`);
  }
  if (t.cli.fromFile) lines.push(`  --file <path>`.padEnd(34) + ` read ${t.cli.fromFile} from a JSON file`);
  lines.push(`  --root <path>`.padEnd(34) + " project root (default: the current directory)");
  lines.push(`  --json`.padEnd(34) + " print the tool's JSON result");
  if (t.rows) lines.push(`  --ndjson`.padEnd(34) + " print the result's rows, one JSON object a line");
  lines.push("", t.rows ? "Exit status: 0 when something is found, 1 when nothing is, 2 on an error." : "Exit status: 0 on success, 2 on an error.");
  return lines.join("\n");
}

const CLI_ONLY: Record<string, string> = {
  index:
    "cortex index [path] [--dry-run] [--full] [--embed] [--json]\n\n  Index a project (incremental; --full rebuilds aside and swaps in).\n  --dry-run prints what would be indexed and what is excluded and why, writing nothing.\n  --embed also computes the embeddings of every chunk (downloading the model on first use) and waits for them.\n\ncortex index --repo <name> [path] [--store postgres://…] [--full] [--json]\n  Index the project locally, then publish it as repository <name> of the shared PostgreSQL store (--store or\n  CORTEX_DATABASE_URL): changed and deleted files only, switched in one transaction; concurrent publishers of\n  one repository wait for each other.",
  repos:
    "cortex repos [--store postgres://…] [--json]\n\n  List the repositories of the shared PostgreSQL store (--store or CORTEX_DATABASE_URL): commit, generation,\n  files, when published and how long ago.\n\ncortex repos remove <name> [--store postgres://…] [--json]\n  Remove repository <name> and everything the store holds of it, in one transaction (a publisher of it\n  finishes first); says what it removed. Servers reading the store stop listing it. An unknown name is an\n  error listing the repositories the store holds.",
  mcp: "cortex mcp [--root <path>] [--tools <names|profile>] [--http HOST:PORT] [--allow-origin <origin>] [--no-watch]\n           [--store postgres://… [--repo <name>[,<name>…]|all]]\n\n  Serve the tools over MCP: stdio by default, Streamable HTTP at http://HOST:PORT/mcp with --http (loopback\n  only unless you bind elsewhere; Host and Origin are checked against DNS rebinding).\n  --tools: comma-separated tool names and/or profiles: default, cortex, kit, codebase-context, all.\n  The index is built or refreshed in the background and kept current as files change.\n  --store (or CORTEX_DATABASE_URL): serve a shared store's repositories instead of this project; every tool\n  that reads the index takes repo (a name, several, or all; default --repo, else all), and with several\n  repositories every path is <repo>/<path>. Tools that write or read a working tree are not served there.",
  stats:
    "cortex stats export [--output <path>] [--root <path>] [--json]\n  Write the statistics (one JSON object per file with its types, functions and imports) to\n  .cortex/stats.ndjson (or --output), atomically.\n\ncortex stats import <file.ndjson> [--json]\n  Validate an export and summarise it; query one with: cortex files --stats-file <file> '<json>'.",
};

export function helpText(topic?: string): string {
  if (topic && CLI_ONLY[topic]) return CLI_ONLY[topic]!;
  const tool = topic ? TOOLS.find((t) => t.cli.command.join(" ") === topic || t.name === topic) : undefined;
  if (tool) return toolHelp(tool);
  const lines = ["cortex: code context for coding agents and people", "", "Usage: cortex <command> [options]", "", "Commands:"];
  lines.push("  index [path]".padEnd(28) + "index a project (--dry-run shows the plan)");
  lines.push("  index --repo <name> [path]".padEnd(28) + "index a project into the shared PostgreSQL store");
  lines.push("  repos".padEnd(28) + "list the shared store's repositories");
  lines.push("  stats export|import".padEnd(28) + "statistics as NDJSON (.cortex/stats.ndjson)");
  lines.push("  mcp".padEnd(28) + "serve the tools over MCP (stdio, or --http HOST:PORT)");
  lines.push("  memory remove <id>".padEnd(28) + "forget a team memory");
  lines.push("  setup [<client>]".padEnd(28) + "MCP configuration for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Codex CLI, Zed (--write)");
  lines.push("  doctor".padEnd(28) + "check the installation, indexes, model, ast-grep and client configurations");
  for (const t of TOOLS) lines.push(`  ${t.cli.command.join(" ")}`.padEnd(28) + t.cli.summary);
  lines.push("", "Every command takes --json; grep, exact, refs, occurrences, files, pattern and concept also --ndjson (one row a line).");
  lines.push("'cortex <command> --help' describes its options.");
  lines.push("Exit status: 0 found (or done), 1 nothing found (commands that return rows), 2 an error.");
  return lines.join("\n");
}
