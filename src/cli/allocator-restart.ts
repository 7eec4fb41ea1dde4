/**
 * `cortex index` and `cortex mcp` run in a child process of their own with Bun's allocator (mimalloc 3.5)
 * told not to purge free holes inside its pages (`MIMALLOC_PURGE_HOLES=0`): mimalloc reads its options from
 * the environment only at process start, so the command starts itself once more with the option set.
 *
 * Why: Bun's mimalloc returns the free parts of partly used pages to the system every 100 ms or so
 * (`purge_holes`, a Bun addition), and an index run refills them at once: the parse workers' and the
 * indexer's garbage turns over hundreds of megabytes a second. Every page handed back is zeroed and
 * faulted in again. On a virtual machine whose page faults are dear (2 cores of AMD EPYC under a
 * paravirtualized kernel, 2026-11-28) that was a quarter of go-src's CPU: 0.92 million faults, 17 s of
 * system time in 70 s; with the option 0.6 million, 9 s, and the peak no higher (537 against 548-572 MiB).
 * The kernel: 338 → 291 s of wall, peak 836 → 917 MiB (docs/benchmarks.md, "Bun's allocator").
 * Turning purging off altogether (`MIMALLOC_PURGE_DELAY=-1`) was faster still but kept every freed page:
 * the kernel peaked at 1.25 GiB.
 *
 * Only on Linux, where the child can ask to die with its parent (prctl PR_SET_PDEATHSIG): a parent killed
 * outright (SIGKILL, an MCP client's hard stop) must not leave an index run going behind it, since the
 * previous index stays current exactly when the run that replaces it dies. Elsewhere, and where libc's
 * prctl cannot be loaded, the command runs in this process as before. `CORTEX_ALLOCATOR_RESTART=0` keeps
 * it in this process anywhere (an option the user set himself is kept as set).
 */
import { dlopen, FFIType } from "bun:ffi";
import { join } from "node:path";
import { log } from "../core/log.ts";
import { isCompiledExecutable } from "./setup/server-command.ts";

/** The allocator's options an index run starts with. */
const INDEX_ALLOCATOR_OPTIONS: Readonly<Record<string, string>> = { MIMALLOC_PURGE_HOLES: "0" };

/** Set in the child's environment: the parent's process id. */
const PARENT_ENV = "CORTEX_RESTARTED_BY";
const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
/** How long the child has to end after a forwarded signal before both processes end regardless. */
const CHILD_GRACE_MS = 5_000;

/** Commands that restart: those that build an index as their job (a shared-store index too) and the MCP server. */
const RESTARTING_COMMANDS = ["index", "reindex", "mcp"];

/** Whether a command line is one that restarts (RESTARTING_COMMANDS, not their help or a dry run). */
function restartsForAllocator(argv: string[]): boolean {
  if (!RESTARTING_COMMANDS.includes(argv[0] ?? "")) return false;
  return !argv.some((a) => a === "--help" || a === "-h" || a === "--dry-run");
}

/** libc's prctl, or null where it cannot be called (not Linux, no glibc). */
function loadPrctl(): ((option: number, arg: number) => number) | null {
  if (process.platform !== "linux") return null;
  try {
    const lib = dlopen("libc.so.6", { prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 } });
    const prctl = lib.symbols.prctl as unknown as (o: number, a: number, b: number, c: number, d: number) => number;
    return (option, arg) => prctl(option, arg, 0, 0, 0);
  } catch {
    return null;
  }
}

/**
 * In a child this module started: asks the system to kill it when its parent dies, and exits at once
 * when the parent is already gone (it died between the spawn and this call).
 */
function bindToParent(parent: string, env: NodeJS.ProcessEnv): void {
  // the child's own children (git, ast-grep, a test's processes) are not bound to it
  delete env[PARENT_ENV];
  loadPrctl()?.(PR_SET_PDEATHSIG, SIGKILL);
  if (process.ppid !== Number(parent)) process.kill(process.pid, "SIGKILL");
  if (env.CORTEX_TRACE)
    log.warn(
      `allocator: ${Object.keys(INDEX_ALLOCATOR_OPTIONS)
        .map((k) => `${k}=${env[k]}`)
        .join(" ")}, in a child of process ${parent}`,
    );
}

/**
 * The command line that runs this cortex again: the executable, or bun with its flags and this folder's
 * main.ts (whatever script started the process and called main()).
 */
function selfCommand(argv: string[]): string[] {
  if (isCompiledExecutable()) return [process.execPath, ...argv];
  return [process.execPath, ...process.execArgv, join(import.meta.dir, "main.ts"), ...argv];
}

/**
 * Runs `argv` in a child with INDEX_ALLOCATOR_OPTIONS and returns its exit code, when it should (see
 * restartsForAllocator and the module's note); undefined when the command is to run in this process
 * (in the child itself, after binding it to its parent).
 * The child shares this process's standard streams (an MCP client's pipes included); signals sent to
 * this process go on to it; a child killed by a signal kills this process with the same signal.
 */
export async function runWithAllocatorOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  const parent = env[PARENT_ENV];
  if (parent !== undefined) return void bindToParent(parent, env);
  if (!restartsForAllocator(argv) || env.CORTEX_ALLOCATOR_RESTART === "0") return undefined;
  const missing = Object.entries(INDEX_ALLOCATOR_OPTIONS).filter(([k]) => env[k] === undefined);
  if (missing.length === 0 || !loadPrctl()) return undefined;
  const child = Bun.spawn(selfCommand(argv), {
    env: { ...env, ...Object.fromEntries(missing), [PARENT_ENV]: String(process.pid) },
    stdio: ["inherit", "inherit", "inherit"],
  });
  let ending: ReturnType<typeof setTimeout> | undefined;
  const forward = (signal: NodeJS.Signals) => () => {
    try {
      child.kill(signal);
    } catch {}
    // a signal to end ends this process too, whatever the child does: under a flood of input
    // (`yes | cortex mcp`) the child could be gone or deaf while this process kept waiting and, forwarding
    // every SIGTERM, could only be killed with SIGKILL
    ending ??= setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {}
      process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 15));
    }, CHILD_GRACE_MS);
  };
  const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const code = await child.exited;
  if (ending) clearTimeout(ending);
  for (const [signal, handler] of handlers) process.off(signal, handler);
  if (child.signalCode) process.kill(process.pid, child.signalCode);
  return code;
}
