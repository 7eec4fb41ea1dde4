/**
 * The command an MCP client runs to start this cortex: the executable itself when cortex runs as the
 * compiled executable, else the bun that runs it and the absolute path of src/cli/main.ts (cortex run
 * from source), so a configuration written by either works as it stands.
 */
import { isAbsolute, join, resolve } from "node:path";

export interface ServerCommand {
  command: string;
  /** Arguments before the per-client ones: `mcp`, after main.ts when run from source. */
  args: string[];
  origin: "executable" | "source";
  /** One line on where the command comes from, for the output. */
  note: string;
}

/** Whether this process is a `bun build --compile` executable (its modules live in Bun's embedded file system). */
export function isCompiledExecutable(main: string = Bun.main): boolean {
  return main.startsWith("/$bunfs/") || main.includes("~BUN");
}

export function cortexServerCommand(): ServerCommand {
  const exe = isAbsolute(process.execPath) ? process.execPath : resolve(process.execPath);
  if (isCompiledExecutable()) {
    return { command: exe, args: ["mcp"], origin: "executable", note: `the cortex executable that ran this command (${exe})` };
  }
  const main = resolve(join(import.meta.dir, "..", "main.ts"));
  return {
    command: exe,
    args: [main, "mcp"],
    origin: "source",
    note: `cortex from source: the bun that ran this command (${exe}) with the absolute path of ${main}`,
  };
}
