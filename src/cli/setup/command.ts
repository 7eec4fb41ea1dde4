/**
 * `cortex setup [<client>] [--write] [--root <path>] [--config <file>] [--json]`: the configuration an
 * MCP client needs to start this cortex, printed (default) or merged into the client's file (--write:
 * backup first, other servers and settings kept, the result checked to parse before it replaces the file).
 * Without a client: every known client, its file and whether that file already names cortex.
 */
import { dirname, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { CortexError } from "../../core/errors.ts";
import { printJson, printText } from "../output.ts";
import { closest } from "../args.ts";
import { broadRoot } from "../../core/paths.ts";
import { CLIENTS, SERVER_NAME, currentClientEnv, findClient, rootNote, type ClientEnv, type McpClient } from "./clients.ts";
import { cortexServerCommand, type ServerCommand } from "./server-command.ts";
import { readClientConfig, writeClientConfig, type WriteOutcome } from "./config-file.ts";
import { tomlBlock } from "./merge-toml.ts";

export const SETUP_HELP = `cortex setup [<client>] [--write] [--root <path>] [--config <file>] [--json]

  Print the MCP configuration that starts this cortex for a client, with the absolute path of the running
  executable (or, run from source, of bun and src/cli/main.ts). Clients: ${CLIENTS.map((c) => c.id).join(", ")}.
  --write     merge it into the client's configuration file: a timestamped backup is written beside the
              file first, every other server and setting is kept, and the file is checked to parse after
  --root      the project served by clients that cannot say which folder is open (Claude Desktop,
              Windsurf, Zed); default: the current directory
  --config    another configuration file of the same format (a project's .vscode/mcp.json, .mcp.json, …)
  Without a client: the clients, their files and whether each already names cortex.`;

export interface SetupPlan {
  client: string;
  name: string;
  config_path: string;
  format: "json" | "toml";
  servers_key: string;
  entry: Record<string, unknown>;
  /** The block to paste: the whole file's shape with only cortex's entry in it. */
  snippet: string;
  server: { command: string; args: string[]; origin: ServerCommand["origin"]; note: string };
  root_note: string;
  alternative?: string;
  written?: WriteOutcome;
}

export function planSetup(client: McpClient, env: ClientEnv, root: string, configPath?: string): SetupPlan {
  // a file named with --config is a project's (.vscode/mcp.json, .mcp.json), shared with the team
  const cmd = cortexServerCommand({ portable: configPath !== undefined });
  const entry = client.entry(cmd, root);
  const snippet =
    client.format === "toml" ? tomlBlock(client.serversKey, SERVER_NAME, entry) : JSON.stringify({ [client.serversKey]: { [SERVER_NAME]: entry } }, null, 2);
  const plan: SetupPlan = {
    client: client.id,
    name: client.name,
    config_path: configPath ?? client.configPath(env),
    format: client.format,
    servers_key: client.serversKey,
    entry,
    snippet,
    server: { command: cmd.command, args: cmd.args, origin: cmd.origin, note: cmd.note },
    root_note: rootNote(client, root),
  };
  if (client.alternative) plan.alternative = client.alternative(cmd);
  return plan;
}

function renderPlan(p: SetupPlan): string {
  const out: string[] = [];
  if (p.written) {
    if (p.written.unchanged) out.push(`${p.name}: ${p.config_path} already has this entry; nothing written.`);
    else
      out.push(
        `${p.name}: wrote the "${SERVER_NAME}" entry into ${p.config_path}${p.written.backup ? ` (the previous file is kept as ${p.written.backup})` : " (a new file)"}.`,
      );
  } else {
    out.push(`${p.name}: add this to ${p.config_path} (merge it with what the file holds):`, "");
  }
  out.push(p.snippet, "");
  out.push(`Server: ${p.server.note}.`);
  out.push(p.root_note);
  if (!p.written) {
    out.push(`Write it there (a backup is kept, other servers stay): cortex setup ${p.client} --write`);
    if (p.alternative) out.push(`Or let ${p.name} add it: ${p.alternative}`);
  } else out.push(`Restart ${p.name} (or reload its MCP servers) to start cortex.`);
  return out.join("\n");
}

interface ClientSummary {
  client: string;
  name: string;
  config_path: string;
  exists: boolean;
  configured: boolean;
  error?: string;
}

/** Every known client's file and whether it names cortex (also used by cortex doctor). */
export function clientSummaries(env: ClientEnv): ClientSummary[] {
  return CLIENTS.map((c) => {
    const state = readClientConfig(c, c.configPath(env));
    const s: ClientSummary = { client: c.id, name: c.name, config_path: state.path, exists: state.exists, configured: state.entry !== undefined };
    if (state.error) s.error = state.error;
    return s;
  });
}

export async function runSetupCommand(argv: string[]): Promise<number> {
  let write = false;
  let json = false;
  let root: string | undefined;
  let config: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const value = () => {
      const v = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === "") throw new CortexError("INVALID_INPUT", `${name} needs a value`);
      return v;
    };
    if (name === "--write") write = true;
    else if (name === "--json") json = true;
    else if (name === "--root") root = value();
    else if (name === "--config") config = value();
    else if (name === "--help" || name === "-h") {
      printText(SETUP_HELP);
      return 0;
    } else if (a.startsWith("-")) throw new CortexError("INVALID_INPUT", `unknown option ${a} (see cortex setup --help)`);
    else positionals.push(a);
  }
  if (positionals.length > 1) throw new CortexError("INVALID_INPUT", `unexpected argument: ${positionals.slice(1).join(" ")}`);
  const env = currentClientEnv();
  if (positionals.length === 0) {
    if (write || config)
      throw new CortexError("INVALID_INPUT", `name a client to write its configuration: cortex setup <${CLIENTS.map((c) => c.id).join("|")}> --write`);
    const list = clientSummaries(env);
    if (json) printJson({ clients: list });
    else {
      const lines = list.map(
        (s) =>
          `  ${s.client.padEnd(15)} ${(s.error ? (s.error.includes("is not valid") || s.error.includes("does not hold") ? "invalid" : "unreadable") : s.configured ? "configured" : s.exists ? "not configured" : "no config file").padEnd(15)} ${s.config_path}`,
      );
      printText(["MCP clients (cortex setup <client> prints the configuration; --write merges it into the file):", ...lines].join("\n"));
    }
    return 0;
  }
  const client = findClient(positionals[0]!);
  if (!client) {
    const near = closest(
      positionals[0]!.toLowerCase(),
      CLIENTS.map((c) => c.id),
    );
    throw new CortexError(
      "INVALID_INPUT",
      `unknown client '${positionals[0]}'${near ? ` (did you mean ${near}?)` : ""}: use one of ${CLIENTS.map((c) => c.id).join(", ")}`,
    );
  }
  const projectRoot = resolve(root ?? process.cwd());
  if (!existsSync(projectRoot) || !statSync(projectRoot).isDirectory()) throw new CortexError("INVALID_INPUT", `--root: no such folder: ${projectRoot}`);
  // an explicit file is the user's choice of place: its folder may be new (a project's first .vscode/), but
  // not a whole tree of them (a typo in the path)
  if (config && write && !existsSync(dirname(dirname(resolve(config)))))
    throw new CortexError("INVALID_INPUT", `--config: no such folder: ${dirname(dirname(resolve(config)))}; nothing was written`);
  const plan = planSetup(client, env, projectRoot, config ? resolve(config) : undefined);
  const warnings: string[] = [];
  if (root !== undefined && client.root !== "fixed")
    warnings.push(
      `--root is not used for ${client.name}: ${client.root === "workspace" ? "it passes the folder it has open" : "it starts cortex in the folder it runs in"}`,
    );
  const broad = client.root === "fixed" ? broadRoot(projectRoot) : undefined;
  if (broad) warnings.push(`the project served is ${projectRoot}, ${broad}: run setup from the project's folder or pass --root <project>`);
  if (write) plan.written = writeClientConfig(client, plan.config_path, plan.entry);
  for (const w of warnings) process.stderr.write(`cortex setup: ${w}\n`);
  json ? printJson(warnings.length ? { ...plan, warnings } : plan) : printText(renderPlan(plan));
  return 0;
}
