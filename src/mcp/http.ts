/**
 * Streamable HTTP transport on Bun.serve: one MCP server per client session, bound to loopback by
 * default, with Host and Origin checks so a web page cannot reach it through DNS rebinding.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface HttpOptions {
  host: string;
  port: number;
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
  return { host, port };
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

export function serveHttp(opts: HttpOptions): { url: string; stop(): Promise<void> } {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: Server }>();
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

  const server = Bun.serve({
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
        return s.transport.handleRequest(req);
      }
      if (req.method !== "POST") return jsonRpcError(400, "Bad Request: no session; start with an initialize POST");
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server: mcp });
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
  boundPort = server.port ?? opts.port;
  const shownHost = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${boundPort}/mcp`,
    async stop() {
      for (const s of sessions.values()) await s.server.close().catch(() => {});
      sessions.clear();
      server.stop(true);
    },
  };
}
