/**
 * docs/tools.md, generated from the registry (test/tools/docs.test.ts fails when the committed file
 * differs): every tool with its purpose, CLI form, parameters, annotations and an example.
 */
import { z } from "zod";
import { TOOLS } from "./index.ts";
import type { ToolDefinition } from "./define.ts";
import { exposedInput } from "./invoke.ts";

function typeOf(schema: Record<string, unknown>): string {
  if (schema.enum) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" \\| ");
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as Record<string, unknown>;
    return `${items.enum ? `(${typeOf(items)})` : typeOf(items)}[]`;
  }
  if (schema.anyOf) return (schema.anyOf as Array<Record<string, unknown>>).map(typeOf).join(" \\| ");
  if (schema.$ref || schema.type === "object") return "object";
  return String(schema.type ?? "any");
}

function bounds(s: Record<string, unknown>): string {
  const parts: string[] = [];
  if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`${s.minimum}–${s.maximum}`);
  else if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  else if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(", ");
}

function toolSection(t: ToolDefinition): string {
  const schema = z.toJSONSchema(exposedInput(t), { io: "input", unrepresentable: "any" }) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const pos = t.cli.positionals ?? [];
  const lines = [
    `## ${t.name}`,
    "",
    `**${t.title}.** ${t.description}`,
    "",
    `CLI: \`cortex ${t.cli.command.join(" ")}${pos.map((p) => ` <${p}>`).join("")} [options]\` — ${t.cli.summary}`,
    "",
    `Profiles: ${t.profiles.join(", ")}. Annotations: ${Object.entries(t.annotations).map(([k, v]) => `${k} ${v}`).join(", ")}.`,
    "",
    "| parameter | type | required | bounds / default | description |",
    "|---|---|---|---|---|",
  ];
  for (const [name, s] of Object.entries(schema.properties)) {
    const flag = pos.includes(name) ? " (positional)" : "";
    lines.push(`| \`${name}\`${flag} | ${typeOf(s)} | ${required.has(name) ? "yes" : "no"} | ${bounds(s)} | ${String(s.description ?? "").replace(/\|/g, "\\|")} |`);
  }
  lines.push("", "Example:", "", "```json", JSON.stringify(t.example, null, 2), "```", "");
  return lines.join("\n");
}

export function toolsMarkdown(): string {
  const head = [
    "# cortex tools",
    "",
    "Generated from the tool registry (`src/tools/index.ts`) by `bun scripts/gen-docs.ts`; do not edit by hand.",
    "Every tool is served over MCP under its name and is a CLI subcommand with the same parameters",
    "(`--snake-or-kebab-name value`; booleans are flags, `--no-x` turns one off; arrays repeat the flag).",
    "Every command takes `--json` (print exactly the tool's result) and `--root <path>`.",
    "Results longer than `max_tokens` are cut and marked `truncated: true` with a note.",
    "",
    "| tool | CLI | profiles |",
    "|---|---|---|",
    ...TOOLS.map((t) => `| [${t.name}](#${t.name}) | \`cortex ${t.cli.command.join(" ")}\` | ${t.profiles.join(", ")} |`),
    "",
    "CLI-only commands: `cortex index [path] [--dry-run] [--full]`, `cortex stats export|import`,",
    "`cortex memory remove <id>`, `cortex mcp [--tools <names|profile>] [--http HOST:PORT]` (see `cortex <command> --help`).",
    "",
  ];
  return [...head, ...TOOLS.map(toolSection)].join("\n");
}
