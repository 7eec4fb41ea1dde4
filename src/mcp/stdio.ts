/**
 * MCP over stdio: one JSON-RPC message per line. Unlike a bare line reader it answers what it cannot
 * understand — a line that is not JSON gets a -32700 parse error, JSON that is not a JSON-RPC message a
 * -32600 invalid request (with the id when one can be read) — and keeps serving: one bad line from a
 * client never ends the session. Streams are parameters so tests can drive it.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";

const MAX_LINE = 64 * 1024 * 1024;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = "";
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    // lines are read by position and the rest kept once: cutting the buffer after each line copied the
    // chunk once per line (a 64 KiB chunk of short lines, `yes | cortex mcp`, took seconds, and the
    // server ignored SIGTERM meanwhile)
    let from = 0;
    for (let nl = this.buffer.indexOf("\n"); nl >= 0 && !this.closed; nl = this.buffer.indexOf("\n", from)) {
      const line = this.buffer.slice(from, nl).replace(/\r$/, "");
      from = nl + 1;
      if (line.trim() !== "") this.handleLine(line);
    }
    this.buffer = from === 0 ? this.buffer : this.buffer.slice(from);
    if (this.buffer.length > MAX_LINE) {
      this.buffer = "";
      this.reply({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: message longer than ${MAX_LINE} bytes` } });
    }
  };

  private readonly onEnd = () => void this.close();
  private readonly onError = (e: Error) => this.onerror?.(e);

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.reply({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${(e as Error).message}` } });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id =
        value &&
        typeof value === "object" &&
        "id" in value &&
        (typeof (value as { id: unknown }).id === "string" || typeof (value as { id: unknown }).id === "number")
          ? (value as { id: string | number }).id
          : null;
      this.reply({ jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } });
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(message: unknown): void {
    if (this.closed) return;
    // a client that sends faster than it reads our answers: stop reading until they drain, rather than
    // keep every answer in memory
    if (!this.output.write(JSON.stringify(message) + "\n") && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.input.pause();
      this.output.once("drain", () => {
        this.waitingForDrain = false;
        if (!this.closed) this.input.resume();
      });
    }
  }

  private waitingForDrain = false;

  async start(): Promise<void> {
    if (this.started) throw new Error("transport already started");
    this.started = true;
    this.input.setEncoding?.("utf8");
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(JSON.stringify(message) + "\n")) resolve();
      else this.output.once("drain", () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onError);
    this.onclose?.();
  }
}
