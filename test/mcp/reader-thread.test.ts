/**
 * Heavy tools on the server's reader thread (src/tools/reader-thread.ts): the same answers as on the
 * server's own thread, errors with their codes, a missing index answered where the indexer's progress is
 * known, and a thread that stopped replaced by the next call.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/mcp/server.ts";
import { Session } from "../../src/tools/session.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { ReaderThread } from "../../src/tools/reader-thread.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { tinyModelFolder } from "../embed/helpers.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let p: TmpProject;
let session: Session;
let reader: ReaderThread;
let viaReader: Client;
let onThread: Client;

async function connect(withReader: boolean): Promise<Client> {
  const server = createMcpServer({ session, tools: TOOLS, ...(withReader ? { reader } : {}) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  return client;
}

beforeAll(async () => {
  p = copyFixture("polyglot/go");
  session = new Session(p.root);
  reader = new ReaderThread(session.root);
  viaReader = await connect(true);
  onThread = await connect(false);
});
afterAll(async () => {
  await viaReader.close();
  await onThread.close();
  reader.close();
  session.close();
  p.cleanup();
});

const text = (r: unknown) => (r as { content: Array<{ type: string; text: string }> }).content[0]!.text;
/** A result without its timings, which differ between any two runs. */
const answer = (r: unknown) => JSON.parse(text(r), (k, v) => (/(^|_)(took_ms|ms)$|^took$/.test(k) ? undefined : v));

describe("the reader thread", () => {
  test("before any index exists, a heavy tool answers indexing_required from the server's thread", async () => {
    const r = await viaReader.callTool({ name: "cortex_search", arguments: { query: "login" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toStartWith("indexing_required:");
    const occ = await viaReader.callTool({ name: "find_symbol_occurrences", arguments: { symbol_name: "Login" } });
    expect(answer(occ).status).toBe("indexing_required");
  });

  test("heavy tools give the same answers as on the server's own thread", async () => {
    await session.index();
    const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [
      { name: "find_symbol_occurrences", arguments: { symbol_name: "Login" } },
      { name: "search_text_pattern", arguments: { query: "func \\w+\\(", is_regex: true } },
      { name: "cortex_search", arguments: { query: "login handler", limit: 3 } },
      { name: "cortex_graph", arguments: { operation: "callers", target: "auth.Login", depth: 2 } },
    ];
    const served = reader.served;
    for (const c of calls) {
      const [a, b] = await Promise.all([viaReader.callTool(c), onThread.callTool(c)]);
      expect(a.isError, `${c.name}: ${text(a)}`).toBeFalsy();
      expect(answer(a)).toEqual(answer(b));
    }
    expect(reader.served - served).toBe(calls.length);
    const occ = answer(await viaReader.callTool(calls[0]!));
    expect(occ.occurrences.length).toBeGreaterThan(0);
  });

  test("bad arguments come back as the same tool error, code and wording kept", async () => {
    const c = { name: "find_symbol_occurrences", arguments: { symbol_name: "Login", max_results: 0 } };
    const [a, b] = await Promise.all([viaReader.callTool(c), onThread.callTool(c)]);
    expect(a.isError).toBe(true);
    expect(text(a)).toStartWith("invalid arguments: max_results");
    expect(text(a)).toBe(text(b));
  });

  test("a reader thread that was stopped is started again by the next call", async () => {
    reader.close();
    const r = await viaReader.callTool({ name: "find_symbol_occurrences", arguments: { symbol_name: "Login" } });
    expect(r.isError).toBeFalsy();
    expect(answer(r).occurrences.length).toBeGreaterThan(0);
  });

  test("the server's status asks the reader thread for the embeddings: one model and one embedding pass per process", async () => {
    const tiny = tinyModelFolder();
    const q = copyFixture("polyglot/go");
    mkdirSync(join(q.root, ".cortex"), { recursive: true });
    writeFileSync(join(q.root, ".cortex", "config.yml"), `embeddings:\n  model: tiny\n  model_path: ${tiny.dir}\n`);
    let asked = 0;
    let thread: ReaderThread | undefined;
    const server = new Session(q.root, {
      embeddingsState: () => {
        asked++;
        return thread!.embeddingsState();
      },
    });
    thread = new ReaderThread(server.root);
    try {
      await server.index();
      const status = TOOLS.find((t) => t.name === "get_indexing_status")!;
      let state = "";
      const until = Date.now() + 30_000;
      while (state !== "ready" && Date.now() < until) {
        state = ((await status.handler({}, { session: server } as never)) as { embeddings: string }).embeddings;
        if (state !== "ready") await Bun.sleep(100);
      }
      // the reader thread loaded the model and embedded every chunk; the server's own session made no embedder
      expect(state).toBe("ready");
      expect(asked).toBeGreaterThan(0);
      expect((server as unknown as { embedderInstance?: unknown }).embedderInstance).toBeUndefined();
    } finally {
      thread.close();
      server.close();
      q.cleanup();
      tiny.remove();
    }
  }, 60_000);
});
