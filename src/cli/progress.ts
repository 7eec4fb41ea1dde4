/**
 * A progress bar on stderr for long commands when stderr is a terminal; silent otherwise (and with
 * --json), so pipelines and logs stay clean.
 */
import type { IndexProgress } from "../indexer/pipeline.ts";

export function indexProgressBar(enabled: boolean): { update(p: IndexProgress): void; done(): void } {
  if (!enabled || !process.stderr.isTTY) return { update() {}, done() {} };
  const started = performance.now();
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < 100 && p.done !== p.total) return;
      last = now;
      const width = 30;
      let line: string;
      if (p.phase === "walk") line = "cortex: scanning files…";
      else if (p.total === 0) line = "cortex: nothing changed";
      else {
        const frac = p.total > 0 ? p.done / p.total : 1;
        const secs = (now - started) / 1000;
        const rate = secs > 0 ? p.done / secs : 0;
        const eta = rate > 0 ? Math.round((p.total - p.done) / rate) : 0;
        const bar = "█".repeat(Math.round(frac * width)).padEnd(width, "░");
        line = `cortex: ${p.phase === "finish" ? "finishing" : "indexing"} ${bar} ${p.done}/${p.total} files  ${Math.round(rate)}/s  ETA ${eta}s`;
      }
      process.stderr.write("\r\x1b[2K" + line);
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write("\r\x1b[2K");
    },
  };
}
