/**
 * A progress bar on stderr for long commands when stderr is a terminal; silent otherwise (and with
 * --json), so pipelines and logs stay clean. Each tier is named, its rate and time left counted from its
 * own start; the text tier's end stays on screen (grep and exact search answer from then on); the steps
 * after the parse tier (references, the keyword index: minutes on the kernel) are named.
 */
import { progressLabel, type IndexProgress } from "../indexer/progress.ts";

export function indexProgressBar(enabled: boolean): { update(p: IndexProgress): void; done(): void } {
  if (!enabled || !process.stderr.isTTY) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  let phase: IndexProgress["phase"] | undefined;
  let phaseStarted = performance.now();
  let lastStep: string | undefined;
  return {
    update(p) {
      const now = performance.now();
      if (p.phase !== phase) {
        // the text tier's end stays on screen: grep and exact search answer from here on
        if (phase === "text" && p.phase === "parse" && p.total > 0) {
          process.stderr.write(`\r\x1b[2Kcortex: text tier written in ${((now - phaseStarted) / 1000).toFixed(1)} s: grep and exact search answer now\n`);
        }
        phase = p.phase;
        phaseStarted = now;
      }
      // a new step is drawn at once; counts at most ten times a second
      const stepChanged = p.step !== lastStep;
      lastStep = p.step;
      if (now - last < 100 && p.done !== p.total && !stepChanged) return;
      last = now;
      const line = progressLine(p, (now - phaseStarted) / 1000);
      if (line === undefined) return;
      // one terminal line: a wrapped one is not cleared by the next redraw
      // (a terminal of unknown width, as under script(1), says 0 columns: the line as it is)
      const columns = process.stderr.columns ?? 0;
      process.stderr.write("\r\x1b[2K" + (columns < 20 || line.length < columns ? line : `${line.slice(0, columns - 2)}…`));
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write("\r\x1b[2K");
    },
  };
}

/** One line of the bar for a report `secs` into its phase (undefined: nothing to draw). */
export function progressLine(p: IndexProgress, secs: number): string | undefined {
  if (p.phase === "walk") return "cortex: scanning files…";
  if (p.phase === "finish")
    return p.step === "done" ? undefined : `cortex: ${progressLabel(p)}${p.total > 1 ? ` (step ${Math.min(p.done + 1, p.total)} of ${p.total})` : ""}…`;
  if (p.total === 0) return p.phase === "text" ? "cortex: nothing changed" : undefined;
  const width = 16;
  const frac = p.done / p.total;
  const rate = secs > 0 ? p.done / secs : 0;
  const left = rate > 0 ? Math.round((p.total - p.done) / rate) : undefined;
  const bar = "█".repeat(Math.round(frac * width)).padEnd(width, "░");
  // short enough for an 80-column terminal at the kernel's counts (progressLabel says more, to MCP clients)
  const tier = p.phase === "text" ? "text tier" : "parse tier";
  return `cortex: ${tier} ${bar} ${p.done.toLocaleString("en")}/${p.total.toLocaleString("en")} files ${Math.round(rate)}/s${left === undefined ? "" : ` ${formatLeft(left)} left`}`;
}

function formatLeft(s: number): string {
  return s >= 90 ? `${Math.round(s / 60)} min` : `${s} s`;
}
