/**
 * The command an MCP client runs to start this cortex: the executable itself when cortex runs as the
 * compiled executable, else the bun that runs it and the absolute path of src/cli/main.ts (cortex run
 * from source), so a configuration written by either works as it stands. Two exceptions: an executable
 * run by npx lives in npx's cache, which npm prunes and which changes with each version, so clients get
 * `npx -y cortex-code mcp`; and a project's own file (--config, committed for the whole team) gets
 * `cortex` when that name on PATH is this executable, since an absolute path is this machine's.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

export interface ServerCommand {
  command: string;
  /** Arguments before the per-client ones: `mcp`, after main.ts when run from source. */
  args: string[];
  origin: "executable" | "source" | "npx" | "path";
  /** One line on where the command comes from, for the output. */
  note: string;
}

/** Whether this process is a `bun build --compile` executable (its modules live in Bun's embedded file system). */
export function isCompiledExecutable(main: string = Bun.main): boolean {
  return main.startsWith("/$bunfs/") || main.includes("~BUN");
}

/** npm's npx keeps what it runs in <cache>/_npx/<hash>/node_modules. */
export function isInNpxCache(path: string): boolean {
  return /[\\/]_npx[\\/]/.test(path);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export interface ServerCommandOptions {
  /** The entry goes into a project's file that the team shares: no path of this machine where avoidable. */
  portable?: boolean;
  /** The executable (tests); default: this process's. */
  executable?: string;
  compiled?: boolean;
  /** Where `cortex` resolves on PATH (tests); default: Bun.which. */
  onPath?: string | null;
}

export function cortexServerCommand(o: ServerCommandOptions = {}): ServerCommand {
  const execPath = o.executable ?? process.execPath;
  const exe = isAbsolute(execPath) ? execPath : resolve(execPath);
  if (o.compiled ?? isCompiledExecutable()) {
    if (isInNpxCache(exe))
      return {
        command: "npx",
        args: ["-y", "cortex-code", "mcp"],
        origin: "npx",
        note: `npx -y cortex-code: this cortex ran from npx's cache (${exe}), which npm prunes, so the client starts it through npx`,
      };
    if (o.portable) {
      const onPath = o.onPath === undefined ? Bun.which("cortex") : o.onPath;
      if (onPath && realOrSelf(onPath) === realOrSelf(exe))
        return { command: "cortex", args: ["mcp"], origin: "path", note: `cortex from PATH (here ${exe}): the file is shared, so no path of this machine` };
    }
    const shared = o.portable ? "; it is this machine's path: teammates need cortex at the same place, or 'cortex' on their PATH instead" : "";
    return { command: exe, args: ["mcp"], origin: "executable", note: `the cortex executable that ran this command (${exe})${shared}` };
  }
  const main = resolve(import.meta.dir, "..", "main.ts");
  return {
    command: exe,
    args: [main, "mcp"],
    origin: "source",
    note: `cortex from source: the bun that ran this command (${exe}) with the absolute path of ${main}${o.portable ? " (this machine's paths)" : ""}`,
  };
}
