/**
 * `cortex mcp`: serves the tools over stdio (default) or Streamable HTTP. It answers initialize and
 * tools/list at once, builds or refreshes the index in the background, keeps it current while files
 * change, forwards log records as logging notifications, and shuts down cleanly on SIGTERM / SIGINT or
 * when the client closes stdin.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Session } from "../tools/session.ts";
import { TOOLS } from "../tools/index.ts";
import { selectTools } from "./profiles.ts";
import { createMcpServer } from "./server.ts";
import { serveHttp, parseListen } from "./http.ts";
import { LiveIndex } from "../indexer/live.ts";
import { ReaderThread } from "../tools/reader-thread.ts";
import { LineStdioTransport } from "./stdio.ts";
import { log, type LogLevel } from "../core/log.ts";

export interface McpRunOptions {
  root: string;
  tools?: string;
  http?: string;
  allowedOrigins?: string[];
  watch?: boolean;
}

const MCP_LEVEL: Record<LogLevel, "debug" | "info" | "warning" | "error"> = { debug: "debug", info: "info", warning: "warning", error: "error" };

export async function runMcp(opts: McpRunOptions): Promise<void> {
  // stdout belongs to the protocol: anything a library prints goes to stderr instead
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;

  const tools = selectTools(TOOLS, opts.tools);
  const session = new Session(opts.root, { autoIndex: false, indexOnThread: true });
  const reader = new ReaderThread(session.root);
  const servers = new Set<Server>();
  const newServer = () => {
    const s = createMcpServer({ session, tools, indexProgress: () => session.progress, reader, changedOnDisk: () => live.changedOnDisk() });
    servers.add(s);
    s.onclose = () => servers.delete(s);
    return s;
  };
  // log records also travel as notifications/message (the client sets the level)
  const removeSink = log.addSink((r) => {
    for (const s of servers)
      void s.sendLoggingMessage({ level: MCP_LEVEL[r.level], logger: "cortex", data: r.data ? { message: r.message, ...r.data } : r.message }).catch(() => {});
  });

  const live = new LiveIndex(session, opts.watch !== false);
  let stopHttp: (() => Promise<void>) | undefined;
  let shuttingDown = false;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    removeSink();
    await live.stop().catch(() => {});
    for (const s of servers) await s.close().catch(() => {});
    await stopHttp?.();
    reader.close();
    session.close();
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGINT", () => void shutdown(0));

  if (opts.http) {
    const { host, port } = parseListen(opts.http);
    const h = serveHttp({ host, port, newServer, ...(opts.allowedOrigins ? { allowedOrigins: opts.allowedOrigins } : {}) });
    stopHttp = h.stop;
    process.stderr.write(`cortex: serving MCP over HTTP at ${h.url}\n`);
  } else {
    const server = newServer();
    const transport = new LineStdioTransport(process.stdin, process.stdout);
    await server.connect(transport);
    // the client closing stdin ends the session (connect() replaced onclose with the server's handler)
    process.stdin.on("end", () => void shutdown(0));
    // The freshness check walks the project synchronously (0.1 s on 8,000 files): start it once the client
    // is initialized, so the walk never delays the initialize answer; a client that never says so waits 1 s.
    const fallback = setTimeout(() => live.start(), 1000);
    server.oninitialized = () => {
      clearTimeout(fallback);
      live.start();
    };
    return;
  }
  live.start();
}
