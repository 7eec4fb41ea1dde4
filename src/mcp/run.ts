/**
 * `cortex mcp`: serves the tools over stdio (default) or Streamable HTTP. It answers initialize and
 * tools/list at once, builds or refreshes the index in the background, keeps it current while files
 * change, forwards log records as logging notifications, and shuts down cleanly on SIGTERM / SIGINT or
 * when the client closes stdin. With a shared store (`--store postgres://…` or CORTEX_DATABASE_URL) it
 * serves the store's repositories instead: no local index, no watcher; every tool that reads the index
 * takes `repo` (default: `--repo`, else all).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Session } from "../tools/session.ts";
import { TOOLS } from "../tools/index.ts";
import { selectTools } from "./profiles.ts";
import { tierNotices } from "./tier-notices.ts";
import { createMcpServer } from "./server.ts";
import { serveHttp, parseListen } from "./http.ts";
import { LiveIndex } from "../indexer/live.ts";
import { mayHaveCachedVectors, ReaderThread } from "../tools/reader-thread.ts";
import { LineStdioTransport } from "./stdio.ts";
import { log, type LogLevel } from "../core/log.ts";
import { CortexError } from "../core/errors.ts";
import { storeUrl, maskUrl } from "../store/postgres/url.ts";
import { connectPostgres } from "../store/postgres/client.ts";
import { parseRepoScope, RepoScopes } from "../tools/repo-scope.ts";
import { checkProjectRoot, cortexHome } from "../core/paths.ts";

export interface McpRunOptions {
  root: string;
  tools?: string;
  http?: string;
  allowedOrigins?: string[];
  watch?: boolean;
  /** The shared store's URL (`--store`); CORTEX_DATABASE_URL when absent. */
  store?: string;
  /** The repositories calls without `repo` read (`--repo a,b` or all); needs a shared store. */
  repo?: string;
}

/**
 * The shared store to serve, checked before anything is served: a store that cannot be reached or read,
 * or a `--repo` default naming unknown repositories, fails at once.
 */
async function sharedScopes(opts: McpRunOptions): Promise<{ scopes: RepoScopes; close(): Promise<void> } | undefined> {
  const url = storeUrl(opts.store);
  if (url === undefined) {
    if (opts.repo !== undefined)
      throw new CortexError("INVALID_INPUT", "--repo needs a shared store: pass --store postgres://user@host/database or set CORTEX_DATABASE_URL");
    return undefined;
  }
  // verification workers open their own readers by source, with this process's URL
  process.env.CORTEX_DATABASE_URL = url;
  const client = connectPostgres(url);
  const scopes = new RepoScopes(client, {
    root: opts.root,
    url: maskUrl(url),
    ...(opts.repo !== undefined ? { defaultScope: parseRepoScope(opts.repo, "--repo") } : {}),
  });
  const close = async () => {
    await scopes.close().catch(() => {});
    await client.close().catch(() => {});
  };
  // The connection is tried before anything is served (the driver connects at the first query): a wrong
  // password or an unreachable server stops the server at start with the store's message, as the CLI's
  // commands do, rather than a server that says it serves and fails every call.
  try {
    if (opts.repo !== undefined) await scopes.check(scopes.defaultScope, "--repo");
    else await scopes.repos();
  } catch (e) {
    await close();
    throw e;
  }
  return { scopes, close };
}

/** How long a server that is shutting down lets an index run in progress finish. */
const SHUTDOWN_WAIT_MS = 1000;

const MCP_LEVEL: Record<LogLevel, "debug" | "info" | "warning" | "error"> = { debug: "debug", info: "info", warning: "warning", error: "error" };

export async function runMcp(opts: McpRunOptions): Promise<void> {
  // stdout belongs to the protocol: anything a library prints goes to stderr instead
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;

  const tools = selectTools(TOOLS, opts.tools);
  const shared = await sharedScopes(opts);
  // a local server on / or the home folder would index the whole machine in the background
  if (!shared) checkProjectRoot(opts.root);
  let reader: ReaderThread | undefined;
  const session = new Session(opts.root, {
    autoIndex: false,
    indexOnThread: true,
    onIndexProgress: tierNotices(),
    // searches run on the reader thread, which holds the model: one model and one embedding pass per process
    ...(shared ? {} : { embeddingsState: () => reader!.embeddingsState() }),
  });
  // a shared store's readers wait on the network, not on this thread: no reader thread, no local index to keep
  reader = shared ? undefined : new ReaderThread(session.root);
  // The reader thread's searches hold the model: when vectors of it are cached, start the thread (which loads
  // the model) as soon as the client is initialized, or the first queries are ranked by keywords alone while
  // it loads. Nothing starts when there are no vectors of the model.
  const warmModel = () => {
    if (reader && mayHaveCachedVectors(session.config.embeddings, { home: cortexHome(), root: session.root })) reader.warm();
  };
  const servers = new Set<Server>();
  const newServer = () => {
    const s = createMcpServer(
      shared
        ? { session, tools, scopes: shared.scopes }
        : { session, tools, indexProgress: () => session.progress, ...(reader ? { reader } : {}), changedOnDisk: () => live?.changedOnDisk() },
    );
    servers.add(s);
    s.onclose = () => servers.delete(s);
    return s;
  };
  // log records also travel as notifications/message (the client sets the level)
  // from info up, whatever CORTEX_LOG says for stderr: the client filters by the level it sets (logging/setLevel)
  const removeSink = log.addSink(
    (r) => {
      for (const s of servers)
        void s
          .sendLoggingMessage({ level: MCP_LEVEL[r.level], logger: "cortex", data: r.data ? { message: r.message, ...r.data } : r.message })
          .catch(() => {});
    },
    log.level() === "debug" ? "debug" : "info",
  );

  const live = shared ? undefined : new LiveIndex(session, opts.watch !== false);
  let stopHttp: (() => Promise<void>) | undefined;
  let shuttingDown = false;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    // stop reading first: a client flooding stdin (`yes | cortex mcp`) kept the loop busy answering lines
    // and SIGTERM never ended the server; and whatever hangs below, the process ends soon after
    process.stdin.pause();
    process.stdin.removeAllListeners("data");
    setTimeout(() => process.exit(code), SHUTDOWN_WAIT_MS + 2_000).unref();
    removeSink();
    // a run in progress is not waited for beyond a moment: the client has gone, and a stopped run leaves the
    // index usable (the next one finishes it); waiting kept a first build's server alive for 8-16 s
    await Promise.race([live?.stop().catch(() => {}), Bun.sleep(SHUTDOWN_WAIT_MS)]);
    for (const s of servers) await s.close().catch(() => {});
    await stopHttp?.();
    reader?.close();
    await shared?.close();
    session.close();
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGINT", () => void shutdown(0));

  if (shared) {
    const scope = shared.scopes.defaultScope;
    process.stderr.write(
      `cortex: serving the shared store ${maskUrl(storeUrl(opts.store)!)} (default repositories: ${scope === "all" ? "all" : scope.join(", ")})\n`,
    );
  }
  if (opts.http) {
    const { host, port } = parseListen(opts.http);
    const h = serveHttp({ host, port, newServer, ...(opts.allowedOrigins ? { allowedOrigins: opts.allowedOrigins } : {}) });
    stopHttp = h.stop;
    process.stderr.write(`cortex: serving MCP over HTTP at ${h.url}\n`);
    setTimeout(warmModel, 0);
  } else {
    const server = newServer();
    const transport = new LineStdioTransport(process.stdin, process.stdout);
    await server.connect(transport);
    // the client closing stdin ends the session (connect() replaced onclose with the server's handler)
    process.stdin.on("end", () => void shutdown(0));
    // The freshness check walks the project synchronously (0.1 s on 8,000 files): start it once the client
    // is initialized, so the walk never delays the initialize answer; a client that never says so waits 1 s.
    if (!live) return;
    const fallback = setTimeout(() => {
      live.start();
      warmModel();
    }, 1000);
    server.oninitialized = () => {
      clearTimeout(fallback);
      live.start();
      warmModel();
    };
    return;
  }
  live?.start();
}
