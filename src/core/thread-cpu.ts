/**
 * This thread's CPU time. Steps are timed by CPU rather than wall time because the machines that index
 * share their cores: a parse worker's or the indexer thread's wall time says how busy the others were.
 *
 * Read from clock_gettime(CLOCK_THREAD_CPUTIME_ID), which brings the scheduler's count up to the call.
 * `process.threadCpuUsage()` (getrusage) returns the count as of its last update (a timer tick, or a
 * scheduler event such as waking another thread), so a step timed with it was charged the CPU of the
 * steps before it since that update: a parse worker's `post` step (its postMessage wakes the indexer's
 * thread) took 1.7 s of go-src's 12.8 s a worker, 7 µs a file by this clock; and removing a /proc/self/stat
 * read from the `collect` step (c2ed018) moved 0.8-1.5 s a worker into `parse`, the total unchanged
 * (docs/benchmarks.md, "The parse step's rise"). Where the clock cannot be called, getrusage's figure.
 */
import { dlopen, FFIType } from "bun:ffi";

/** CLOCK_THREAD_CPUTIME_ID's value by platform (Linux's and macOS's headers). */
const THREAD_CLOCK: Partial<Record<string, { lib: string; id: number }>> = {
  linux: { lib: "libc.so.6", id: 3 },
  darwin: { lib: "libSystem.B.dylib", id: 16 },
};

/** seconds and nanoseconds (struct timespec on 64-bit platforms) */
const timespec = new BigInt64Array(2);
let clockGettime: ((id: number, ts: BigInt64Array) => number) | null | undefined;
let clockId = 0;

function openClock(): ((id: number, ts: BigInt64Array) => number) | null {
  const c = THREAD_CLOCK[process.platform];
  if (!c) return null;
  try {
    const lib = dlopen(c.lib, { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    const f = lib.symbols.clock_gettime as unknown as (id: number, ts: BigInt64Array) => number;
    if (f(c.id, timespec) !== 0) return null;
    clockId = c.id;
    return f;
  } catch {
    return null;
  }
}

/** User plus system CPU of the calling thread, in microseconds. */
export function threadCpuMicros(): number {
  if (clockGettime === undefined) clockGettime = openClock();
  if (clockGettime && clockGettime(clockId, timespec) === 0) return Number(timespec[0]) * 1e6 + Number(timespec[1]) / 1e3;
  const u = process.threadCpuUsage();
  return u.user + u.system;
}
