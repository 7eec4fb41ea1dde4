/**
 * The built executable serving MCP over Streamable HTTP on a free loopback port, for the e2e suites that
 * talk to it as outside clients (the conformance suite, the MCP Inspector).
 */
import type { Sandbox } from "./executable.ts";

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41379/mcp. */
  url: string;
  stop(): Promise<void>;
}

/** Starts `cortex mcp --http 127.0.0.1:0` on a project and waits for the URL it prints on stderr. */
export async function startHttpServer(sb: Sandbox, root: string, extraArgs: string[] = []): Promise<HttpServer> {
  const server = Bun.spawn([sb.exe, "mcp", "--root", root, ...extraArgs, "--http", "127.0.0.1:0"], { env: sb.env, stdout: "ignore", stderr: "pipe" });
  const reader = server.stderr.getReader();
  let err = "";
  let url = "";
  const until = Date.now() + 20_000;
  while (!url && Date.now() < until) {
    const { value, done } = await reader.read();
    if (done) break;
    err += new TextDecoder().decode(value);
    url = /serving MCP over HTTP at (\S+)/.exec(err)?.[1] ?? "";
  }
  reader.releaseLock();
  if (!url) {
    server.kill("SIGKILL");
    throw new Error(`server did not start: ${err}`);
  }
  return {
    url,
    async stop() {
      server.kill("SIGTERM");
      await server.exited;
    },
  };
}
