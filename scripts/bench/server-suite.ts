/**
 * Server benchmark (issue 7's figures), on the built executable as a user runs it: its size; time from
 * process start to the `initialize` answer over stdio (10 fresh processes); time from process start to the
 * first cortex_search answer on a warm index; resident memory idle after that answer and at its peak
 * (VmRSS / VmHWM from /proc). The index is built first by the same executable in a fresh CORTEX_HOME. The
 * peer is ripgrep's own start-up (`rg --version`), the floor of any process an agent starts, in the same run.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Corpus } from "./corpora.ts";
import { REPO, runTimed, type BenchRow, percentile } from "./run.ts";
import { INIT, startMcp, type McpProcess } from "./mcp-client.ts";
import { currentPlatform, TARGETS } from "../build.ts";

const STARTS = 10;

function procStatus(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

function startServer(bin: string, root: string, env: Record<string, string>): McpProcess {
  return startMcp([bin, "mcp", "--root", root], env);
}

export async function serverSuite(corpus: Corpus): Promise<BenchRow[]> {
  const platform = currentPlatform();
  const bin = process.env.CORTEX_BIN ?? join(REPO, "dist", TARGETS[platform]!.file);
  if (!existsSync(bin)) throw new Error(`no executable at ${bin}: run bun scripts/build.ts ${platform} first (or set CORTEX_BIN)`);
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-home-"));
  const env = { CORTEX_HOME: home, CORTEX_EMBEDDINGS_PROVIDER: "none" };
  const indexed = await runTimed([bin, "index", corpus.root, "--json"], env);
  const files = JSON.parse(indexed.stdout).files as number;

  const init: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    const s = startServer(bin, corpus.root, env);
    await s.request("initialize", INIT);
    init.push(performance.now() - t);
    s.proc.kill("SIGTERM");
    await s.proc.exited;
  }

  const t0 = performance.now();
  const s = startServer(bin, corpus.root, env);
  await s.request("initialize", INIT);
  s.notify("notifications/initialized");
  await s.request("tools/call", { name: "cortex_search", arguments: { query: "parse the configuration file", limit: 10 } });
  const firstSearch = performance.now() - t0;
  const search: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await s.request("tools/call", {
      name: "cortex_search",
      arguments: { query: ["read a file", "http request timeout", "parse json", "lock mutex", "write buffer"][i % 5]!, limit: 10 },
    });
    search.push(performance.now() - t);
  }
  // idle: the start-up freshness check and the searches are done
  await Bun.sleep(5000);
  const idle = procStatus(s.proc.pid, "VmRSS");
  const peak = procStatus(s.proc.pid, "VmHWM");
  s.proc.kill("SIGTERM");
  await s.proc.exited;

  const rg: number[] = [];
  for (let i = 0; i < STARTS; i++) rg.push((await runTimed(["rg", "--version"])).ms);

  return [
    { metric: "executable size", value: statSync(bin).size / (1 << 20), unit: "MiB", note: bin.replace(REPO + "/", "") },
    { metric: "indexed files (warm index for the rows below)", value: files, unit: "files" },
    {
      metric: "process start → initialize answer p50",
      value: percentile(init, 50),
      unit: "ms",
      note: `p95 ${percentile(init, 95).toFixed(0)} ms, ${STARTS} starts`,
    },
    { metric: "process start → first cortex_search answer", value: firstSearch, unit: "ms", note: "initialize, open the index, first query" },
    { metric: "cortex_search over MCP p50 (warm)", value: percentile(search, 50), unit: "ms", note: `p95 ${percentile(search, 95).toFixed(1)} ms, round trip` },
    { metric: "resident memory, idle", value: idle, unit: "MiB", note: "VmRSS 5 s after the last answer" },
    { metric: "resident memory, peak", value: peak, unit: "MiB", note: "VmHWM" },
    { metric: "peer: rg --version (process start floor) p50", value: percentile(rg, 50), unit: "ms" },
    { metric: "initialize / rg start-up", value: percentile(init, 50) / percentile(rg, 50), unit: "×" },
  ];
}
