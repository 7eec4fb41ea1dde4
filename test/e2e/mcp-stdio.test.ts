/**
 * The built executable driven over stdio by the MCP SDK's client, as an agent would run it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sandbox, useTinyModel, type Sandbox } from "./executable.ts";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { TOOLS } from "../../src/tools/index.ts";

let sb: Sandbox;
let p: TmpProject;
let client: Client;

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

async function connect(root: string, extra: string[] = []): Promise<{ client: Client; transport: StdioClientTransport; ms: number }> {
  const t = new StdioClientTransport({ command: sb.exe, args: ["mcp", "--root", root, ...extra], env: sb.env, stderr: "pipe" });
  const c = new Client({ name: "e2e", version: "1" });
  const started = performance.now();
  await c.connect(t);
  return { client: c, transport: t, ms: performance.now() - started };
}

/** Waits until the index answers with both tiers complete (no `index_incomplete` in a parse-tier tool's result). */
async function untilReady(c: Client, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const r = await c.callTool({ name: "cortex_files", arguments: { query: { from: "files", limit: 1 } } });
    if (!r.isError && JSON.parse(text(r)).index_incomplete === undefined) return;
    await Bun.sleep(100);
  }
  throw new Error("the index never became ready");
}

beforeAll(async () => {
  sb = await sandbox();
  p = copyFixture("polyglot/go");
  useTinyModel(p.root, sb);
  ({ client } = await connect(p.root, ["--tools", "all"]));
  await untilReady(client);
}, 120_000);

afterAll(async () => {
  await client?.close();
  p?.cleanup();
});

describe("the executable over stdio", () => {
  test("lists every tool of the registry with --tools all", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  test("every tool answers its own example without error", async () => {
    for (const tool of TOOLS) {
      const r = await client.callTool({ name: tool.name, arguments: tool.example as Record<string, unknown> });
      expect(`${tool.name}: ${r.isError ? text(r) : "ok"}`).toBe(`${tool.name}: ok`);
    }
  });

  test("search runs hybrid with local embeddings on the tiny model, from the executable alone", async () => {
    let body: { mode: string; embeddings: string; results: Array<{ chunk: { id: string } }> } | undefined;
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const r = await client.callTool({ name: "cortex_search", arguments: { query: "user login password check", limit: 3 } });
      body = JSON.parse(text(r));
      if (body!.embeddings === "ready") break;
      await Bun.sleep(200);
    }
    expect(body!.embeddings).toBe("ready");
    expect(body!.mode).toBe("hybrid");
    expect(body!.results.map((h) => h.chunk.id)).toContain("definitions:auth/handler.go#Login");
    const sem = await client.callTool({ name: "search_semantic_concept", arguments: { concept_description: "checking a user's password", top_n_results: 2 } });
    expect(JSON.parse(text(sem)).status).toBe("success");
  }, 60_000);

  test("an edit on disk is visible in search within 2 seconds", async () => {
    p.write("store/fresh.go", "package store\n\n// FreshlyAdded archives stale invoices.\nfunc FreshlyAdded() {}\n");
    const started = Date.now();
    let seen = false;
    while (Date.now() - started < 2_000 && !seen) {
      const r = await client.callTool({ name: "cortex_search", arguments: { query: "FreshlyAdded", limit: 1, mode: "keyword" } });
      seen = !r.isError && JSON.parse(text(r)).results[0]?.chunk.id === "definitions:store/fresh.go#FreshlyAdded";
      if (!seen) await Bun.sleep(50);
    }
    expect(seen).toBe(true);
  });

  test("bad arguments give a tool error that names the field", async () => {
    const r = await client.callTool({ name: "cortex_files", arguments: { operation: "top_files", limit: -1 } });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("invalid arguments: limit: must be at least 1");
  });

  test("20 concurrent calls all succeed", async () => {
    const calls = Array.from({ length: 20 }, (_, i) => client.callTool({ name: "cortex_files", arguments: { operation: "top_files", limit: 1 + (i % 3) } }));
    const results = await Promise.all(calls);
    results.forEach((r, i) => {
      expect(r.isError).toBeFalsy();
      expect(JSON.parse(text(r)).rows.length).toBe(Math.min(1 + (i % 3), 3));
    });
  });
});

describe("robustness", () => {
  test("a malformed JSON-RPC line gets an error response and the server lives on", async () => {
    const proc = Bun.spawn([sb.exe, "mcp", "--root", p.root, "--no-watch"], { env: sb.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let buf = "";
    const nextLine = async (): Promise<Record<string, unknown>> => {
      for (;;) {
        const nl = buf.indexOf("\n");
        if (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          return JSON.parse(line);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stdout closed");
        buf += new TextDecoder().decode(value);
      }
    };
    const send = (s: string) => {
      proc.stdin.write(s + "\n");
      proc.stdin.flush();
    };
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    );
    expect((await nextLine()).id).toBe(1);
    send("{this is not json");
    expect(await nextLine()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    send(JSON.stringify({ hello: "world", id: 7 }));
    expect(await nextLine()).toMatchObject({ id: 7, error: { code: -32600 } });
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    expect(await nextLine()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
  }, 30_000);

  test("kill -9 while the first index builds, then a restart: the index is whole", async () => {
    const big = tmpProject();
    try {
      for (let i = 0; i < 3000; i++)
        big.write(`p${i % 40}/f${i}.go`, `package p${i % 40}\n\nfunc F${i}(a int) int {\n\tif a > 0 {\n\t\treturn a\n\t}\n\treturn -a\n}\n`);
      const proc = Bun.spawn([sb.exe, "mcp", "--root", big.root], { env: sb.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
      const cacheDir = join(sb.env.CORTEX_HOME!, "cache");
      const until = Date.now() + 20_000;
      const building = () => {
        try {
          return readdirSync(cacheDir).some((d) => readdirSync(join(cacheDir, d)).some((f) => f.endsWith(".db")));
        } catch {
          return false;
        }
      };
      while (Date.now() < until && !building()) await Bun.sleep(20);
      await Bun.sleep(200);
      proc.kill(9);
      await proc.exited;
      const again = await connect(big.root);
      try {
        await untilReady(again.client, 60_000);
        const r = await again.client.callTool({
          name: "cortex_files",
          arguments: { query: { from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] } },
        });
        expect(JSON.parse(text(r)).rows).toEqual([[3000]]);
      } finally {
        await again.client.close();
      }
    } finally {
      big.cleanup();
    }
  }, 120_000);
});
