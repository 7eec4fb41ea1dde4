#!/usr/bin/env bun
/**
 * The cortex command line's entry. It loads only what the command needs: `cortex grep` on an existing
 * index takes a fast path (fast-grep.ts: the exact engine, the store, the argument parser), every other
 * command loads the whole registry (commands.ts; setup and doctor load their own modules on demand). Loading every tool, engine and the MCP SDK took 42 ms
 * of the executable's start, more than ripgrep's whole search on go-src (48 ms); grep's own modules, 34 ms
 * in all with the search.
 */
import { reportError } from "./output.ts";

export async function main(argv: string[]): Promise<number> {
  // the version alone needs no registry (loading it took 100 ms of `cortex --version`); -v and -V are
  // the spellings most command lines also take
  if (argv.length === 1 && ["--version", "-v", "-V", "version"].includes(argv[0]!)) {
    const { VERSION } = await import("../core/version.ts");
    process.stdout.write(`cortex ${VERSION}\n`);
    return 0;
  }
  // (a grep over the shared store, --repo/--store, takes the full command)
  if (argv[0] === "grep" && !argv.some((a) => /^--(repo|store)(=|$)/.test(a))) {
    const { runFastGrep } = await import("./fast-grep.ts");
    const code = await runFastGrep(argv.slice(1));
    if (code !== undefined) return code;
  }
  // index runs and the MCP server restart with Bun's allocator set for them (allocator-restart.ts)
  const restarted = await (await import("./allocator-restart.ts")).runWithAllocatorOptions(argv);
  if (restarted !== undefined) return restarted;
  const { runCommand } = await import("./commands.ts");
  return runCommand(argv);
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => process.exit(reportError(e)),
  );
}
