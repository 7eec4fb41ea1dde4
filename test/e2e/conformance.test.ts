/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run under Bun) against the built
 * executable's Streamable HTTP transport: every scenario that applies to a tools-and-resources server.
 * docs/tools.md lists the scenarios that do not apply and why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sandbox, type Sandbox } from "./executable.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

export const APPLICABLE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "resources-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

const CONFORMANCE = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
let sb: Sandbox;
let p: TmpProject;
let server: ReturnType<typeof Bun.spawn>;
let url = "";

beforeAll(async () => {
  sb = await sandbox();
  p = copyFixture("polyglot/go");
  server = Bun.spawn([sb.exe, "mcp", "--root", p.root, "--http", "127.0.0.1:0"], { env: sb.env, stdout: "ignore", stderr: "pipe" });
  const reader = (server.stderr as ReadableStream<Uint8Array>).getReader();
  let err = "";
  const until = Date.now() + 20_000;
  while (!url && Date.now() < until) {
    const { value, done } = await reader.read();
    if (done) break;
    err += new TextDecoder().decode(value);
    url = /serving MCP over HTTP at (\S+)/.exec(err)?.[1] ?? "";
  }
  reader.releaseLock();
  if (!url) throw new Error(`server did not start: ${err}`);
}, 120_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  p?.cleanup();
});

describe("MCP conformance over Streamable HTTP", () => {
  for (const scenario of APPLICABLE_SCENARIOS) {
    test(scenario, async () => {
      const proc = Bun.spawn([process.execPath, CONFORMANCE, "server", "--url", url, "--scenario", scenario], { stdout: "pipe", stderr: "pipe" });
      const [out, errOut, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out + errOut);
      expect(summary, out + errOut).not.toBeNull();
      expect(`${scenario}: ${summary![3]} failed of ${summary![2]}`).toBe(`${scenario}: 0 failed of ${summary![2]}`);
      expect(Number(summary![1])).toBeGreaterThan(0);
      expect(code).toBe(0);
    }, 60_000);
  }
});
