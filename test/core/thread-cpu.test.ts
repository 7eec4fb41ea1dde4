import { expect, test } from "bun:test";
import { threadCpuMicros } from "../../src/core/thread-cpu.ts";

test("threadCpuMicros counts this thread's CPU up to the call, as getrusage does at its updates", () => {
  const rusage = (): number => {
    const u = process.threadCpuUsage();
    return u.user + u.system;
  };
  const a = threadCpuMicros();
  const r0 = rusage();
  let x = 0;
  // busy until 50 ms of this thread's CPU passed by its own clock, however loaded the machine
  while (threadCpuMicros() - a < 50_000) x += Math.sqrt(x + 1);
  const b = threadCpuMicros();
  const r1 = rusage();
  expect(x).toBeGreaterThan(0);
  // getrusage lags by at most the time since the scheduler's last update (a tick: a few milliseconds)
  expect(Math.abs(b - a - (r1 - r0))).toBeLessThan(20_000);
  expect(Math.abs(b - r1)).toBeLessThan(20_000);
});
