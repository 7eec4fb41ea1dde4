/**
 * A long-lived server answers text searches from what is on disk for files its watcher saw change, before
 * the index run that takes them in: the watcher here waits a minute before any run (debounce_ms), so only
 * the overlay (LiveIndex.changedOnDisk → ToolContext.changedOnDisk → the exact engine) can find the edit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/mcp/server.ts";
import { Session } from "../../src/tools/session.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { ReaderThread } from "../../src/tools/reader-thread.ts";
import { LiveIndex } from "../../src/indexer/live.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;
let reader: ReaderThread;
let live: LiveIndex;
let client: Client;

beforeAll(async () => {
  p = tmpProject({
    ".cortex/config.yml": "watch:\n  debounce_ms: 60000\n",
    "src/one.ts": "export const one = 'first version';\n",
    "src/two.ts": "export const two = 'kept as it is';\n",
  });
  session = new Session(p.root);
  await session.index();
  reader = new ReaderThread(session.root);
  live = new LiveIndex(session, true);
  live.start();
  await live.idle();
  const server = createMcpServer({ session, tools: TOOLS, reader, changedOnDisk: () => live.changedOnDisk() });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: "test", version: "1" });
  await client.connect(b);
});

afterAll(async () => {
  await client.close();
  await live.stop();
  reader.close();
  session.close();
  p.cleanup();
});

interface Grep {
  matches: Array<{ file_path: string; matched_line: string; stale?: boolean }>;
}

async function grep(query: string): Promise<Grep> {
  const r = await client.callTool({ name: "search_text_pattern", arguments: { query, context_lines: 0 } });
  return JSON.parse((r as { content: Array<{ text: string }> }).content[0]!.text) as Grep;
}

describe("a change on disk while the server runs", () => {
  test("is found by text search before any index run takes it in; the index still holds the old text", async () => {
    const reportBefore = live.lastReport;
    p.write("src/one.ts", "export const one = 'second version zqlivezq';\n");
    let found: Grep | undefined;
    for (let i = 0; i < 100 && !found; i++) {
      const r = await grep("zqlivezq");
      if (r.matches.length > 0) found = r;
      else await Bun.sleep(50);
    }
    expect(found?.matches.map((m) => [m.file_path, m.matched_line, m.stale ?? false])).toEqual([
      ["src/one.ts", "export const one = 'second version zqlivezq';", false],
    ]);
    expect(live.changedOnDisk()).toContain("src/one.ts");
    // the changed file answers as it is on disk: its old text, still in the index, is not found
    expect((await grep("first version")).matches).toEqual([]);
    // and no index run took the edit in (the watcher waits a minute)
    expect(live.lastReport).toBe(reportBefore);
  });

  test("an index run takes the change in and the list empties", async () => {
    await live.schedule();
    expect(live.changedOnDisk()).toEqual([]);
    const r = await grep("zqlivezq");
    expect(r.matches.map((m) => [m.file_path, m.stale ?? false])).toEqual([["src/one.ts", false]]);
  });
});
