/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, run under Bun) against the built
 * executable's Streamable HTTP transport: every scenario that applies to a tools-and-resources server.
 * docs/tools.md lists the scenarios that do not apply and why.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sandbox, type Sandbox } from "./executable.ts";
import { startHttpServer, type HttpServer } from "./http-server.ts";
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
let server: HttpServer | undefined;
let url = "";

beforeAll(async () => {
  sb = await sandbox();
  p = copyFixture("polyglot/go");
  server = await startHttpServer(sb, p.root);
  url = server.url;
}, 120_000);

afterAll(async () => {
  await server?.stop();
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
