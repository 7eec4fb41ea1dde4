/**
 * The MCP clients `cortex setup` knows: where each reads its servers from (per platform), the shape of its
 * entry, and how the server learns the project. Clients that start servers in the project folder get no
 * root; editors with a workspace variable pass it; the others name one project with --root.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { ServerCommand } from "./server-command.ts";

export type ClientId = "claude-code" | "claude-desktop" | "cursor" | "vscode" | "windsurf" | "codex" | "zed";

/** What decides a client's file location: tests and doctor pass their own. */
export interface ClientEnv {
  home: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

export interface McpClient {
  id: ClientId;
  name: string;
  format: "json" | "toml";
  /** The key holding the servers, at the top of the file. */
  serversKey: string;
  configPath(e: ClientEnv): string;
  /** How the server finds the project: the folder the client starts it in, a workspace variable, or --root. */
  root: "cwd" | "workspace" | "fixed";
  entry(cmd: ServerCommand, root: string): Record<string, unknown>;
  /** Another way to add the server that the client documents (a command of its own), if any. */
  alternative?(cmd: ServerCommand): string;
}

/** The name of cortex's entry in every client's servers. */
export const SERVER_NAME = "cortex";

export function currentClientEnv(): ClientEnv {
  const env = process.env;
  const home = (process.platform === "win32" ? env.USERPROFILE : env.HOME) || homedir();
  return { home, platform: process.platform, env };
}

/** %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or ~/.config elsewhere. */
function appConfigDir(e: ClientEnv): string {
  if (e.platform === "win32") return e.env.APPDATA || join(e.home, "AppData", "Roaming");
  if (e.platform === "darwin") return join(e.home, "Library", "Application Support");
  return e.env.XDG_CONFIG_HOME || join(e.home, ".config");
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: the client's own ${workspaceFolder} variable, written literally
const WORKSPACE = "${workspaceFolder}";

export const CLIENTS: McpClient[] = [
  {
    id: "claude-code",
    name: "Claude Code",
    format: "json",
    serversKey: "mcpServers",
    // user scope: every project; Claude Code starts the server in the folder it runs in
    configPath: (e) => join(e.home, ".claude.json"),
    root: "cwd",
    entry: (c) => ({ type: "stdio", command: c.command, args: c.args, env: {} }),
    alternative: (c) => `claude mcp add --scope user ${SERVER_NAME} -- ${[c.command, ...c.args].map(shellQuote).join(" ")}`,
  },
  {
    id: "claude-desktop",
    name: "Claude Desktop",
    format: "json",
    serversKey: "mcpServers",
    configPath: (e) => join(appConfigDir(e), "Claude", "claude_desktop_config.json"),
    root: "fixed",
    entry: (c, root) => ({ command: c.command, args: [...c.args, "--root", root] }),
  },
  {
    id: "cursor",
    name: "Cursor",
    format: "json",
    serversKey: "mcpServers",
    configPath: (e) => join(e.home, ".cursor", "mcp.json"),
    root: "workspace",
    entry: (c) => ({ command: c.command, args: [...c.args, "--root", WORKSPACE] }),
  },
  {
    id: "vscode",
    name: "VS Code",
    format: "json",
    serversKey: "servers",
    configPath: (e) => join(appConfigDir(e), "Code", "User", "mcp.json"),
    root: "workspace",
    entry: (c) => ({ type: "stdio", command: c.command, args: [...c.args, "--root", WORKSPACE] }),
  },
  {
    id: "windsurf",
    name: "Windsurf",
    format: "json",
    serversKey: "mcpServers",
    configPath: (e) => join(e.home, ".codeium", "windsurf", "mcp_config.json"),
    root: "fixed",
    entry: (c, root) => ({ command: c.command, args: [...c.args, "--root", root] }),
  },
  {
    id: "codex",
    name: "Codex CLI",
    format: "toml",
    serversKey: "mcp_servers",
    // Codex starts servers in the folder it runs in
    configPath: (e) => join(e.env.CODEX_HOME || join(e.home, ".codex"), "config.toml"),
    root: "cwd",
    entry: (c) => ({ command: c.command, args: c.args }),
    alternative: (c) => `codex mcp add ${SERVER_NAME} -- ${[c.command, ...c.args].map(shellQuote).join(" ")}`,
  },
  {
    id: "zed",
    name: "Zed",
    format: "json",
    serversKey: "context_servers",
    configPath: (e) =>
      e.platform === "win32"
        ? join(appConfigDir(e), "Zed", "settings.json")
        : join(e.platform === "linux" && e.env.XDG_CONFIG_HOME ? e.env.XDG_CONFIG_HOME : join(e.home, ".config"), "zed", "settings.json"),
    root: "fixed",
    entry: (c, root) => ({ command: c.command, args: [...c.args, "--root", root], env: {} }),
  },
];

const ALIASES: Record<string, ClientId> = { claude: "claude-code", code: "vscode", "vs-code": "vscode", "codex-cli": "codex" };

export function findClient(name: string): McpClient | undefined {
  const id = ALIASES[name.toLowerCase()] ?? name.toLowerCase();
  return CLIENTS.find((c) => c.id === id);
}

/** How the server of this client finds the project, in words. */
export function rootNote(client: McpClient, root: string): string {
  switch (client.root) {
    case "cwd":
      return `${client.name} starts the server in the folder it runs in: cortex serves that project.`;
    case "workspace":
      return `${client.name} replaces ${WORKSPACE} with the open folder: cortex serves that project.`;
    case "fixed":
      return `${client.name} has no project folder to pass: this entry serves ${root} (run setup again with --root <path> for another project).`;
  }
}

/** A word as a POSIX shell reads it back. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
