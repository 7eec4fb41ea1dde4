/**
 * A tool call written as a next step (`cortex_graph {"operation":"callers","target":"Context.text"}`,
 * the way the MCP tools suggest them) as the CLI command that makes it (`cortex graph callers
 * Context.text`): every MCP tool is a CLI command with the same parameters, and a person reading a
 * card in a terminal could not run the JSON form (`cortex find_symbol_occurrences …` is no command).
 */
import { toFlag, type ToolDefinition } from "./define.ts";

/** Single-quoted for a POSIX shell when it holds anything but plain word characters. */
function shellWord(v: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/**
 * `tool {json} rest` as `cortex <command> <positionals> <flags>  # rest`; any other text as it is. `find`
 * names a tool by its MCP name.
 */
export function asCliCall(step: string, find: (name: string) => ToolDefinition<any, any> | undefined): string {
  const m = /^([a-z_]+) (\{.*?\})(?= |$)(.*)$/.exec(step);
  if (!m) return step;
  const tool = find(m[1]!);
  if (!tool) return step;
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(m[2]!) as Record<string, unknown>;
  } catch {
    return step;
  }
  const flagOf = new Map<string, string>();
  for (const [flag, field] of Object.entries(tool.cli.flags ?? {})) if (!flagOf.has(field)) flagOf.set(field, flag);
  const words = ["cortex", ...tool.cli.command];
  const positionals = tool.cli.positionals ?? [];
  for (const field of positionals) {
    const v = args[field];
    if (typeof v === "string" || typeof v === "number") words.push(shellWord(String(v)));
  }
  const flag = (field: string, value: unknown) => {
    const name = flagOf.get(field) ?? `--${toFlag(field)}`;
    if (typeof value === "boolean")
      words.push(value ? name : `${name}=false`); // a switch
    else if (Array.isArray(value) && value.every((x) => typeof x !== "object")) for (const x of value) words.push(name, shellWord(String(x)));
    else if (typeof value === "object" && value !== null) words.push(name, shellWord(JSON.stringify(value)));
    else words.push(name, shellWord(String(value)));
  };
  for (const [field, value] of Object.entries(args)) {
    if (positionals.includes(field) && (typeof value === "string" || typeof value === "number")) continue;
    // an object's fields that have flags of their own (filters.paths → --path)
    if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).every((k) => flagOf.has(`${field}.${k}`))) {
      for (const [k, v] of Object.entries(value)) flag(`${field}.${k}`, v);
      continue;
    }
    flag(field, value);
  }
  // the explanation as a shell comment: the line runs as it is pasted
  const rest = m[3]!.trim();
  return rest ? `${words.join(" ")}  # ${rest}` : words.join(" ");
}
