/**
 * The stdio transport's reading of lines: many in one chunk, split across chunks, CRLF, and a client
 * that writes faster than it reads the answers (reading pauses until they drain).
 */
import { describe, expect, test } from "bun:test";
import { PassThrough, Writable } from "node:stream";
import { LineStdioTransport } from "../../src/mcp/stdio.ts";

describe("MCP over stdio", () => {
  test("every line of a chunk is answered, lines split across chunks are joined, CRLF is one line end", async () => {
    const input = new PassThrough();
    const out: string[] = [];
    const output = new Writable({
      write(chunk, _enc, done) {
        out.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    const t = new LineStdioTransport(input, output);
    const messages: unknown[] = [];
    t.onmessage = (m) => messages.push(m);
    await t.start();
    input.write("y\n".repeat(5000));
    input.write('{"jsonrpc":"2.0","id":1,"me');
    input.write('thod":"ping"}\r\n');
    await Bun.sleep(50);
    expect(out.length).toBe(5000);
    expect(JSON.parse(out[0]!).error.code).toBe(-32700);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    await t.close();
  });

  test("a client that does not read its answers: reading pauses until they drain", async () => {
    const input = new PassThrough();
    let release: (() => void) | undefined;
    let written = 0;
    // a reader of our answers that takes the first and then stalls
    const output = new Writable({
      highWaterMark: 64,
      write(chunk, _enc, done) {
        written += chunk.length;
        if (release === undefined) release = done;
        else done();
      },
    });
    const t = new LineStdioTransport(input, output);
    await t.start();
    input.write("not json\n".repeat(100));
    await Bun.sleep(30);
    expect(input.isPaused()).toBe(true);
    release!();
    await Bun.sleep(30);
    expect(input.isPaused()).toBe(false);
    expect(written).toBeGreaterThan(0);
    await t.close();
  });
});
