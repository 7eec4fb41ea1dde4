/**
 * How well a command uses the machine's cores, phase by phase: runs it, samples the CPU time of each of
 * its threads every 100 ms (/proc/<pid>/task/<tid>/stat, Linux only) and splits the run at each line it
 * writes to stderr (with CORTEX_TRACE=1, `cortex index` writes one line as each step ends). For each phase
 * it prints the wall time, the CPU time of the process, the idle core-time (wall × cores − CPU: what
 * overlapping another step with this one could use), the highest resident size sampled and the threads
 * that used the most.
 *
 *   CORTEX_HOME=$(mktemp -d) CORTEX_EMBEDDINGS_PROVIDER=none CORTEX_TRACE=1 \
 *     bun scripts/core-use.ts [--cores 2] -- bun src/cli/main.ts index <folder>
 *
 * Other processes on the machine take cores too: read idle core-time beside the load average it prints.
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

const args = process.argv.slice(2);
const dash = args.indexOf("--");
if (dash < 0 || dash === args.length - 1) {
  console.error("usage: bun scripts/core-use.ts [--cores N] -- <command> [args…]");
  process.exit(1);
}
const coresFlag = args.indexOf("--cores");
const cores = coresFlag >= 0 && coresFlag < dash ? Number(args[coresFlag + 1]) : availableParallelism();
const command = args.slice(dash + 1);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const SAMPLE_MS = 100;

/** CPU seconds of each live thread of a process, by "tid name". */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      // fields[11] and [12] are utime and stime (stat fields 14 and 15)
      out.set(`${tid} ${name}`, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** The process's resident size in MiB (/proc/<pid>/statm, 4 KiB pages), 0 once it has ended. */
function residentMiB(pid: number): number {
  try {
    return (Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096) / 2 ** 20;
  } catch {
    return 0;
  }
}

interface Phase {
  label: string;
  peakMiB: number;
  startMs: number;
  endMs: number;
  /** CPU seconds by thread over the phase. */
  threads: Map<string, number>;
}

const load0 = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const started = performance.now();
const child = Bun.spawn(command, { stdout: "inherit", stderr: "pipe", stdin: "inherit" });
// a thread's last sample stays counted after it ends: each thread's CPU is its latest reading
const latest = new Map<string, number>();
let atPhaseStart = new Map<string, number>();
const phases: Phase[] = [];
let phaseStart = 0;
let peakMiB = 0;

const sample = () => {
  for (const [k, v] of threadCpu(child.pid)) latest.set(k, v);
  peakMiB = Math.max(peakMiB, residentMiB(child.pid));
};
const endPhase = (label: string) => {
  sample();
  const now = performance.now() - started;
  const threads = new Map<string, number>();
  for (const [k, v] of latest) threads.set(k, v - (atPhaseStart.get(k) ?? 0));
  phases.push({ label, peakMiB, startMs: phaseStart, endMs: now, threads });
  peakMiB = 0;
  atPhaseStart = new Map(latest);
  phaseStart = now;
};
const timer = setInterval(sample, SAMPLE_MS);

const decoder = new TextDecoder();
let pending = "";
for await (const bytes of child.stderr) {
  pending += decoder.decode(bytes, { stream: true });
  let nl = pending.indexOf("\n");
  while (nl >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    process.stderr.write(`${((performance.now() - started) / 1000).toFixed(2)} ${line}\n`);
    endPhase(
      line
        .replace(/^cortex warning: /, "")
        .replace(/\s*\[.*$/, "")
        .slice(0, 70),
    );
    nl = pending.indexOf("\n");
  }
}
await child.exited;
clearInterval(timer);
endPhase("(to the end)");
const load1 = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const f = (s: number) => s.toFixed(2).padStart(7);
console.log(`\ncores ${cores}; load average before ${load0}, after ${load1}`);
console.log(`${"wall s".padStart(7)} ${"cpu s".padStart(7)} ${"idle s".padStart(7)} ${"MiB".padStart(5)}  phase (ends with the line) — busiest threads`);
let wall = 0;
let cpu = 0;
for (const p of phases) {
  const w = (p.endMs - p.startMs) / 1000;
  const c = [...p.threads.values()].reduce((a, b) => a + b, 0);
  wall += w;
  cpu += c;
  const top = [...p.threads.entries()]
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/^\d+ /, "")} ${v.toFixed(1)}`);
  console.log(`${f(w)} ${f(c)} ${f(Math.max(0, w * cores - c))} ${String(Math.round(p.peakMiB)).padStart(5)}  ${p.label} — ${top.join(", ")}`);
}
const peak = Math.max(...phases.map((p) => p.peakMiB));
console.log(`${f(wall)} ${f(cpu)} ${f(Math.max(0, wall * cores - cpu))} ${String(Math.round(peak)).padStart(5)}  total`);
process.exit((await child.exited) ?? 0);
