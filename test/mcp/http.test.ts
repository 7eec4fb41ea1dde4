/**
 * The Streamable HTTP transport's own rules, on a real Bun.serve: loopback addresses only, a busy port as
 * a clear error, and sessions a client never closes expiring when idle, with their number capped.
 */
import { describe, expect, test } from "bun:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { parseListen, serveHttp } from "../../src/mcp/http.ts";

const newServer = () => new Server({ name: "t", version: "1" }, { capabilities: {} });

async function initialize(url: string): Promise<Response> {
  const { port } = new URL(url);
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: `127.0.0.1:${port}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
}

describe("MCP over HTTP", () => {
  test("only loopback addresses are served: the server has no authentication", () => {
    for (const ok of ["127.0.0.1:0", "localhost:8765", "[::1]:0", "8765"]) expect(() => parseListen(ok)).not.toThrow();
    for (const remote of ["0.0.0.0:8765", "192.0.2.1:8765", "[::]:8765", "example.com:8765"])
      expect(() => parseListen(remote)).toThrow(/is not a loopback address.*no authentication.*ssh -L 8765:127\.0\.0\.1:8765/);
  });

  test("a port in use is an error naming it, not a stack trace", async () => {
    const first = serveHttp({ host: "127.0.0.1", port: 0, newServer });
    try {
      const port = Number(new URL(first.url).port);
      expect(() => serveHttp({ host: "127.0.0.1", port, newServer })).toThrow(`--http 127.0.0.1:${port}: cannot listen: port ${port} is in use`);
    } finally {
      await first.stop();
    }
  });

  test("sessions left open expire when idle; past the cap a new one takes the place of an idle one, or gets 503", async () => {
    const h = serveHttp({ host: "127.0.0.1", port: 0, newServer, sessionIdleMs: 400, maxSessions: 2 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await initialize(h.url);
        expect(r.status).toBe(200);
        ids.push(r.headers.get("mcp-session-id")!);
      }
      expect(h.sessionCount()).toBe(2);
      // both used just now: no room
      const busy = await initialize(h.url);
      expect(busy.status).toBe(503);
      expect(await busy.text()).toContain("2 sessions are open and in use");
      await Bun.sleep(250);
      // the first is used again; the second, idle past half the limit, gives way to a new one
      const { port } = new URL(h.url);
      const ping = await fetch(h.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: `127.0.0.1:${port}`,
          "mcp-session-id": ids[0]!,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
      });
      expect(ping.status).toBe(200);
      const third = await initialize(h.url);
      expect(third.status).toBe(200);
      expect(h.sessionCount()).toBe(2);
      const gone = await fetch(h.url, { method: "GET", headers: { host: `127.0.0.1:${port}`, "mcp-session-id": ids[1]!, accept: "text/event-stream" } });
      expect(gone.status).toBe(404);
      // nobody uses them: both expire
      await Bun.sleep(900);
      expect(h.sessionCount()).toBe(0);
    } finally {
      await h.stop();
    }
  });
});
