import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer, instructionsFor } from "../../src/mcp/server.ts";
import { selectTools } from "../../src/mcp/profiles.ts";
import { Session } from "../../src/tools/session.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { defineTool, READ_ONLY } from "../../src/tools/define.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;
let client: Client;

beforeAll(async () => {
  p = copyFixture("polyglot/go");
  session = new Session(p.root);
  const server = createMcpServer({ session, tools: TOOLS });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: "test", version: "1" });
  await client.connect(b);
});
afterAll(async () => {
  await client.close();
  session.close();
  p.cleanup();
});

const text = (r: unknown) => (r as { content: Array<{ type: string; text: string }> }).content[0]!.text;

describe("MCP server", () => {
  test("lists every registry tool with schemas and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const files = tools.find((t) => t.name === "cortex_files")!;
    expect(files.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(Object.keys(files.inputSchema.properties ?? {})).toContain("max_tokens");
    expect(files.outputSchema?.properties).toHaveProperty("rows");
    // one type per schema node: clients that read no type arrays take every tool
    const arrays: string[] = [];
    const walk = (n: unknown, path: string): void => {
      if (Array.isArray(n)) n.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (n && typeof n === "object")
        for (const [k, v] of Object.entries(n)) {
          if (k === "type" && Array.isArray(v)) arrays.push(path);
          walk(v, `${path}.${k}`);
        }
    };
    for (const t of tools) walk([t.inputSchema, t.outputSchema], t.name);
    expect(arrays).toEqual([]);
    const value = JSON.stringify(files.inputSchema);
    expect(value).toContain('"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"}]');
  });

  test("a tool called before any index exists answers indexing_required, not a crash", async () => {
    const r = await client.callTool({ name: "cortex_files", arguments: { query: { from: "files" } } });
    expect(r.isError).toBe(true);
    expect(text(r)).toStartWith("indexing_required:");
  });

  test("after indexing, results come as JSON text and structured content", async () => {
    await session.index();
    const r = await client.callTool({
      name: "cortex_files",
      arguments: { query: { from: "files", fields: ["file_path"], where: { field: "is_test", operator: "=", value: true } } },
    });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(text(r)).rows).toEqual([["auth/handler_test.go"]]);
    expect((r.structuredContent as { rows: unknown[] }).rows).toEqual([["auth/handler_test.go"]]);
  });

  test("arguments that are not an object are invalid params (-32602) naming the field, not an internal error", async () => {
    for (const args of [[], "x"]) {
      const e = await client.request({ method: "tools/call", params: { name: "cortex_files", arguments: args as never } }, z.any()).then(
        () => undefined,
        (err: { code: number; message: string }) => err,
      );
      expect(e?.code).toBe(-32602);
      expect(e?.message).toContain("Invalid tools/call request");
      expect(e?.message).toContain("arguments");
    }
  });

  test("a result that reports its own failure (grep's status error) is flagged isError, its shape kept", async () => {
    const r = await client.callTool({ name: "search_text_pattern", arguments: { query: "([a-z", is_regex: true } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { status: string; error_message: string }).status).toBe("error");
    expect(JSON.parse(text(r)).error_message).toStartWith("query: Invalid regular expression");
    const none = await client.callTool({ name: "search_text_pattern", arguments: { query: "nothing-like-this-anywhere" } });
    expect(none.isError).toBeFalsy();
  });

  test("bad arguments are a tool error naming the field and the rule", async () => {
    const r = await client.callTool({ name: "cortex_files", arguments: { operation: "top_files", limit: 5000 } });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("invalid arguments: limit: must be at most 1000");
    const u = await client.callTool({ name: "cortex_files", arguments: { operation: "top_files", colour: "red" } });
    expect(text(u)).toBe("invalid arguments: input: unknown field 'colour'");
  });

  test("an unknown tool is a protocol error", async () => {
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow("unknown tool 'no_such_tool'");
  });

  test("a result over the budget is cut and says so", async () => {
    const r = await client.callTool({ name: "cortex_files", arguments: { query: { from: "files", limit: 100 }, max_tokens: 200 } });
    const body = JSON.parse(text(r));
    expect(body.truncated).toBe(true);
    expect(body.truncated_note).toContain("rows:");
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(200 * 4 + 200);
  });

  test("codebase://context describes the project", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["codebase://context"]);
    const { contents } = await client.readResource({ uri: "codebase://context" });
    const md = (contents[0] as { text: string }).text;
    expect(md).toContain("| go | 3 |");
    expect(md).toContain("## Largest modules");
  });
});

describe("what a server tells an agent names only the tools it serves", () => {
  const mentioned = (text: string) => TOOLS.map((t) => t.name).filter((n) => new RegExp(`\\b${n}\\b`).test(text));

  test("each profile's instructions name served tools only; the default serves regular expressions", () => {
    for (const profile of ["default", "cortex", "kit", "codebase-context", "all"]) {
      const served = new Set(selectTools(TOOLS, profile).map((t) => t.name));
      const said = instructionsFor(served);
      expect(mentioned(said).filter((n) => !served.has(n))).toEqual([]);
      expect(said).toContain("→");
    }
    const dflt = new Set(selectTools(TOOLS, undefined).map((t) => t.name));
    expect(dflt.has("search_text_pattern")).toBe(true);
    expect(instructionsFor(dflt)).toContain("a regular expression → search_text_pattern");
    // a tool the default serves never sends the agent to one it does not
    for (const t of TOOLS.filter((x) => dflt.has(x.name))) expect(`${t.name}: ${mentioned(t.description).filter((n) => !dflt.has(n))}`).toBe(`${t.name}: `);
  });

  test("a call that asks for more time than the server's minute (timeout_ms) gets it", async () => {
    const clock = defineTool({
      name: "clock_probe",
      title: "t",
      description: "the deadline a call gets",
      input: z.object({ timeout_ms: z.number().int().optional() }),
      annotations: READ_ONLY,
      profiles: ["cortex"],
      sharedStore: "reads",
      needsIndex: false,
      cli: { command: ["clock-probe"], summary: "t" },
      example: {},
      async handler(_args, ctx) {
        return { left_ms: ctx.deadline - Date.now() };
      },
    });
    const server = createMcpServer({ session, tools: [clock as never] });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const c = new Client({ name: "test", version: "1" });
    await c.connect(b);
    try {
      const left = async (args: Record<string, unknown>) => JSON.parse(text(await c.callTool({ name: "clock_probe", arguments: args }))).left_ms as number;
      expect(await left({})).toBeLessThanOrEqual(60_000);
      expect(await left({ timeout_ms: 300_000 })).toBeGreaterThan(300_000);
      expect(await left({ timeout_ms: 10_000_000 })).toBeLessThanOrEqual(605_000);
    } finally {
      await c.close();
    }
  });

  test("--tools with nothing in it is an error, not a server with no tools", () => {
    for (const empty of ["", " ", ",", " , "]) expect(() => selectTools(TOOLS, empty)).toThrow("--tools: no tool or profile given");
  });

  test("the edit card's next calls name only the tools the server serves", async () => {
    await session.index();
    const ask = async (profile: string) => {
      const server = createMcpServer({ session, tools: selectTools(TOOLS, profile) });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const c = new Client({ name: "test", version: "1" });
      await c.connect(b);
      try {
        const r = await c.callTool({ name: "search_codebase", arguments: { query: "rename Login to SignIn everywhere", intent: "edit" } });
        return (JSON.parse(text(r)).preflight?.whatWouldHelp ?? []) as string[];
      } finally {
        await c.close();
      }
    };
    const toolOf = (w: string) => /^([a-z_]+)\b/.exec(w)?.[1] ?? "";
    // served everything, the card sends the agent to cortex_exact and cortex_graph too
    expect((await ask("all")).map(toolOf)).toContain("cortex_exact");
    const served = new Set(selectTools(TOOLS, "codebase-context").map((t) => t.name));
    const help = await ask("codebase-context");
    expect(help.length).toBeGreaterThan(0);
    for (const w of help) expect(served.has(toolOf(w)) || !TOOLS.some((t) => t.name === toolOf(w))).toBe(true);
  });

  test("the server's instructions and its context resource follow --tools", async () => {
    const tools = selectTools(TOOLS, "kit");
    const server = createMcpServer({ session, tools });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const kit = new Client({ name: "test", version: "1" });
    await kit.connect(b);
    try {
      const served = new Set(tools.map((t) => t.name));
      expect(mentioned(kit.getInstructions() ?? "").filter((n) => !served.has(n))).toEqual([]);
      const resource = await kit.readResource({ uri: "codebase://context" });
      const body = (resource.contents[0] as { text: string }).text;
      const listed = body.slice(body.indexOf("## Tools"));
      expect(mentioned(listed).length).toBeGreaterThan(0);
      expect(mentioned(listed).filter((n) => !served.has(n))).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});
