/**
 * Streamable HTTP transport on Bun.serve: one MCP server per client session, bound to loopback only
 * (the server has no authentication: any address another machine can reach would serve the code and the
 * team's memory to it), with Host and Origin checks so a web page cannot reach it through DNS
 * rebinding. Sessions a client never closes expire when idle, and their number is capped.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface HttpOptions {
  host: string;
  port: number;
  /** Idle expiry and cap (tests); defaults SESSION_IDLE_MS and MAX_SESSIONS. */
  sessionIdleMs?: number;
  maxSessions?: number;
  /** Extra Origin values allowed besides loopback origins (e.g. an IDE's). */
  allowedOrigins?: string[];
  newServer(): Server;
}

export function parseListen(spec: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(spec) ?? /^(\d{1,5})$/.exec(spec);
  if (!m) throw new CortexError("INVALID_INPUT", `--http: expected HOST:PORT (e.g. 127.0.0.1:8765), got '${spec}'`);
  const host = m.length === 3 ? m[1]! : "127.0.0.1";
  const port = Number(m.length === 3 ? m[2] : m[1]);
  if (port < 0 || port > 65535) throw new CortexError("INVALID_INPUT", `--http: port out of range: ${port}`);
  if (!LOOPBACK.has(host))
    throw new CortexError(
      "INVALID_INPUT",
      `--http: ${host} is not a loopback address; cortex serves HTTP on 127.0.0.1, ::1 or localhost only, since the server has no authentication and any other address would serve the code and the team's memory to the network (from another machine, tunnel to it: ssh -L ${port}:127.0.0.1:${port} <this host>)`,
    );
  return { host, port };
}

/** A session no request has used for this long is closed (a client that went away without DELETE). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** At most this many sessions; past it, the least recently used one idle for a minute makes room, else 503. */
export const MAX_SESSIONS = 100;

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

export function serveHttp(opts: HttpOptions): { url: string; stop(): Promise<void>; sessionCount(): number } {
  const sessions = new Map<string, Session>();
  const idleMs = opts.sessionIdleMs ?? SESSION_IDLE_MS;
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  const close = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.server.close().catch(() => {});
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.lastUsed > idleMs) close(id);
    },
    Math.min(60_000, Math.max(50, idleMs / 2)),
  );
  sweep.unref?.();
  /** Room for one more session: the least recently used one, idle a minute or more, goes; false when all are busy. */
  const makeRoom = (): boolean => {
    if (sessions.size < maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const e of sessions) if (!oldest || e[1].lastUsed < oldest[1].lastUsed) oldest = e;
    if (!oldest || Date.now() - oldest[1].lastUsed < Math.min(60_000, idleMs / 2)) return false;
    close(oldest[0]);
    return true;
  };
  let boundPort = opts.port;
  const hostAllowed = (host: string | null): boolean => {
    if (!host) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    if (!m) return false;
    const name = m[1]!;
    const port = m[2] ? Number(m[2]) : 80;
    if (port !== boundPort) return false;
    return LOOPBACK.has(name) || name === opts.host;
  };
  const originAllowed = (origin: string | null): boolean => {
    if (!origin) return true; // not a browser
    if (opts.allowedOrigins?.includes(origin)) return true;
    try {
      const u = new URL(origin);
      return LOOPBACK.has(u.hostname) || LOOPBACK.has(`[${u.hostname}]`);
    } catch {
      return false;
    }
  };

  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: opts.host,
      port: opts.port,
      idleTimeout: 0,
      async fetch(req) {
        const url = new URL(req.url);
        if (!hostAllowed(req.headers.get("host"))) return jsonRpcError(403, "Forbidden: Host header not allowed (DNS rebinding protection)");
        if (!originAllowed(req.headers.get("origin"))) return jsonRpcError(403, "Forbidden: Origin not allowed (DNS rebinding protection)");
        if (url.pathname !== "/mcp") return new Response("not found: the MCP endpoint is /mcp\n", { status: 404 });
        const sid = req.headers.get("mcp-session-id");
        if (sid) {
          const s = sessions.get(sid);
          if (!s) return jsonRpcError(404, "Session not found");
          s.lastUsed = Date.now();
          return s.transport.handleRequest(req);
        }
        if (req.method !== "POST") return jsonRpcError(400, "Bad Request: no session; start with an initialize POST");
        if (!makeRoom()) return jsonRpcError(503, `Service Unavailable: ${maxSessions} sessions are open and in use; close one (DELETE /mcp) and try again`);
        const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, { transport, server: mcp, lastUsed: Date.now() });
          },
          onsessionclosed: (id) => {
            sessions.delete(id);
          },
        });
        const mcp = opts.newServer();
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await mcp.connect(transport);
        return transport.handleRequest(req);
      },
      error(e) {
        log.error(`http: ${e.stack ?? e}`);
        return jsonRpcError(500, "internal error");
      },
    });
  } catch (e) {
    clearInterval(sweep);
    const code = (e as { code?: string }).code;
    const why =
      code === "EADDRINUSE" || /in use/i.test(String((e as Error).message))
        ? `port ${opts.port} is in use (another server?); pick another port, or 0 for any free one`
        : code === "EADDRNOTAVAIL"
          ? `${opts.host} is not an address of this machine`
          : (e as Error).message;
    throw new CortexError("INVALID_INPUT", `--http ${opts.host}:${opts.port}: cannot listen: ${why}`);
  }
  boundPort = server.port ?? opts.port;
  const shownHost = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${boundPort}/mcp`,
    sessionCount: () => sessions.size,
    async stop() {
      clearInterval(sweep);
      for (const s of sessions.values()) await s.server.close().catch(() => {});
      sessions.clear();
      server.stop(true);
    },
  };
}
