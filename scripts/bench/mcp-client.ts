/**
 * A `cortex mcp` process driven over stdio by the benchmarks: newline-delimited JSON-RPC, requests
 * numbered here, answers matched by id.
 */
export interface McpProcess {
  proc: ReturnType<typeof Bun.spawn> & { stdin: import("bun").FileSink };
  request(method: string, params: unknown): Promise<{ result?: { content?: Array<{ text: string }> }; error?: unknown }>;
  notify(method: string): void;
}

export function startMcp(cmd: string[], env: Record<string, string>): McpProcess {
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const waiting = new Map<number, (msg: never) => void>();
  let nextId = 1;
  (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id === "number") waiting.get(msg.id)?.(msg as never);
      }
    }
  })();
  const write = (msg: unknown) => {
    proc.stdin.write(JSON.stringify(msg) + "\n");
    proc.stdin.flush();
  };
  return {
    proc,
    request: (method, params) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, (m) => {
          waiting.delete(id);
          resolve(m);
        });
        write({ jsonrpc: "2.0", id, method, params });
      }),
    notify: (method) => write({ jsonrpc: "2.0", method }),
  };
}

export const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };
