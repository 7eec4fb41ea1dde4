/** Runs the cortex CLI as a child process and measures wall time, CPU time and peak memory (GNU time). */
import { join, resolve } from "node:path";
import { existsSync } from "node:fs";

export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  note?: string;
}

export const REPO = resolve(import.meta.dir, "..", "..");
const CLI = join(REPO, "src", "cli", "main.ts");

export interface RunResult {
  stdout: string;
  stderr: string;
  ms: number;
  /** User + system CPU time of the process and its threads (on a shared machine, steadier than wall time). */
  cpuMs: number;
  maxRssMb: number;
}

/** The executable as shipped (scripts/build.ts, this platform, built from this tree), unless CORTEX_BIN names one. */
export async function shippedCortex(): Promise<string> {
  if (process.env.CORTEX_BIN) return process.env.CORTEX_BIN;
  const { build } = await import("../build.ts");
  return build(`${process.platform}-${process.arch}`, join(REPO, ".bench", "build"));
}

/** Runs `cortex <args>` (the executable given by CORTEX_BIN, else bun + the source) with extra env. */
export async function runCortex(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const bin = process.env.CORTEX_BIN;
  const cmd = bin ? [bin, ...args] : [process.execPath, CLI, ...args];
  return runTimed(cmd, env);
}

/** Runs any command under /usr/bin/time to read its peak resident memory and CPU time. */
export async function runTimed(cmd: string[], env: Record<string, string> = {}, cwd?: string): Promise<RunResult> {
  const timeBin = existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "__MAXRSS__%M %U %S"] : [];
  const started = performance.now();
  const proc = Bun.spawn([...timeBin, ...cmd], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe", ...(cwd ? { cwd } : {}) });
  const [stdout, stderrRaw, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - started;
  const m = /__MAXRSS__(\d+) ([\d.]+) ([\d.]+)/.exec(stderrRaw);
  const stderr = stderrRaw.replace(/__MAXRSS__[\d. ]+\n?/, "");
  if (code !== 0 && code !== 1) throw new Error(`${cmd.join(" ")} exited with ${code}: ${stderr}`);
  return { stdout, stderr, ms, cpuMs: m ? (Number(m[2]) + Number(m[3])) * 1000 : NaN, maxRssMb: m ? Number(m[1]) / 1024 : NaN };
}

/** `run` once to warm up, then `times` more, each timed (ms). */
export async function timedRuns(run: () => Promise<unknown>, times: number): Promise<number[]> {
  await run();
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    out.push(performance.now() - t);
  }
  return out;
}

/** The p-th percentile (nearest rank) of some timings. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
