/**
 * Queries while the index changes (issue 19, item 8): `cortex mcp` on a warm index; three callers over
 * the one stdio connection issue light and heavy calls in a loop (cortex_files, a literal grep, a regex,
 * cortex_search, find_symbol_occurrences), first with nothing changing, then while 500 source files are
 * changed in bursts (the watcher re-indexes them on the server's index thread). Per phase: p50, p95 and
 * the longest call of the light calls (cortex_files), and how long after a burst a marker written into
 * one changed file is found by grep. Runs the server from source (bun) unless CORTEX_BIN names an
 * executable.
 */
import { appendFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Corpus } from "./corpora.ts";
import { REPO, runCortex, type BenchRow, percentile } from "./run.ts";
import { INIT, startMcp, type McpProcess } from "./mcp-client.ts";

function startServer(root: string, env: Record<string, string>): McpProcess {
  const bin = process.env.CORTEX_BIN;
  return startMcp([...(bin ? [bin] : [process.execPath, join(REPO, "src", "cli", "main.ts")]), "mcp", "--root", root, "--tools", "all"], env);
}

type Server = McpProcess;
const call = (s: Server, name: string, args: Record<string, unknown>) => s.request("tools/call", { name, arguments: args });

/** Three callers until `until()` says stop; returns the light calls' latencies (ms). */
async function load(s: Server, until: () => boolean): Promise<number[]> {
  const light: number[] = [];
  const caller = async (k: number) => {
    let i = 0;
    while (!until()) {
      const t = performance.now();
      switch ((i++ + k) % 5) {
        case 0:
          await call(s, "cortex_files", {
            query: { from: "files", fields: ["language"], aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["language"] },
          });
          light.push(performance.now() - t);
          break;
        case 1:
          await call(s, "search_text_pattern", { query: "func New", context_lines: 0 });
          break;
        case 2:
          await call(s, "search_text_pattern", { query: "ctx\\.Done\\(\\)", is_regex: true, context_lines: 0 });
          break;
        case 3:
          await call(s, "cortex_search", { query: "parse the configuration file", limit: 10 });
          break;
        case 4:
          await call(s, "find_symbol_occurrences", { symbol_name: "Errorf" });
          break;
      }
    }
  };
  await Promise.all([caller(0), caller(1), caller(2)]);
  return light;
}

export async function liveSuite(corpus: Corpus): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-home-"));
  const env = { CORTEX_HOME: home, CORTEX_EMBEDDINGS_PROVIDER: "none" };
  await runCortex(["index", corpus.root, "--json"], env);
  const sources = JSON.parse(
    (
      await runCortex(
        [
          "files",
          "--json",
          JSON.stringify({
            from: "files",
            fields: ["file_path"],
            where: { field: "function_count", operator: ">", value: 0 },
            orderBy: [{ field: "file_path", direction: "ASC" }],
            limit: 500,
          }),
          "--root",
          corpus.root,
        ],
        env,
      )
    ).stdout,
  ).rows as Array<[string]>;

  const s = startServer(corpus.root, env);
  await s.request("initialize", INIT);
  s.notify("notifications/initialized");
  await Bun.sleep(3000); // the start-up freshness run
  const stop = Date.now() + 20_000;
  const idle = await load(s, () => Date.now() >= stop);

  // 500 files changed in ten bursts of 50, 2 s apart; a marker in the first file of each burst
  const visible: number[] = [];
  let changing = true;
  const changes = (async () => {
    for (let b = 0; b < 10; b++) {
      const marker = `zqlivemarker${b}x`;
      const burst = sources.slice(b * 50, b * 50 + 50);
      burst.forEach(([p], i) => appendFileSync(join(corpus.root, p), i === 0 ? `\n// ${marker}\n` : "\n// touched by the live benchmark\n"));
      const t = performance.now();
      for (;;) {
        const r = await call(s, "search_text_pattern", { query: marker, context_lines: 0 });
        if (JSON.parse(r.result?.content?.[0]?.text ?? "{}").match_count > 0) break;
        if (performance.now() - t > 30_000) break;
        await Bun.sleep(50);
      }
      visible.push(performance.now() - t);
      await Bun.sleep(2000);
    }
    changing = false;
  })();
  const busy = await load(s, () => !changing);
  await changes;
  s.proc.kill("SIGTERM");
  await s.proc.exited;

  const row = (metric: string, v: number[]): BenchRow => ({
    metric,
    value: percentile(v, 50),
    unit: "ms",
    note: `p95 ${percentile(v, 95).toFixed(1)} ms, longest ${Math.max(...v).toFixed(0)} ms, ${v.length} calls`,
  });
  return [
    row("cortex_files (light) while idle, three callers, p50", idle),
    row("cortex_files (light) while 500 files change, p50", busy),
    { metric: "p95 while changing / p95 idle", value: percentile(busy, 95) / percentile(idle, 95), unit: "×", note: "goal ≤ 1.5" },
    {
      metric: "a change searchable after (grep finds its marker), p50",
      value: percentile(visible, 50),
      unit: "ms",
      note: `longest ${Math.max(...visible).toFixed(0)} ms over 10 bursts of 50 files`,
    },
  ];
}
