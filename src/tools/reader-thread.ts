/**
 * The reader thread of a long-lived server: heavy tool calls (ToolDefinition.heavy) run there, on a
 * Session of its own over the same index, while light ones (cortex_files, status, memory) stay on the
 * server's thread. Before, every handler shared one thread and a cortex_files query that takes 1-2 ms
 * waited behind a search or a references look-up: p50 37 ms, up to 0.3 s (docs/benchmarks.md, live).
 *
 * One thread, not a pool: on 2 cores the indexer, the verification workers and the server's thread
 * already compete, and one reader loads the search's vectors and model once. A thread that dies fails
 * its calls with an error naming it, and the next call starts a new one.
 */
import { startWorker } from "../core/worker-entry.ts";
import { log, type LogRecord } from "../core/log.ts";
import { CortexError, type ErrorCode } from "../core/errors.ts";
import type { ToolContext } from "./context.ts";
import type { ToolDefinition } from "./define.ts";
import type { ReaderRequest } from "./reader-worker.ts";
import type { CortexConfig } from "../core/config.ts";
import { createEmbeddingProvider } from "../embed/index.ts";
import { cacheHasVectors, embeddingCachePath } from "../store/embedding-cache.ts";

type ReaderMessage =
  | { type: "progress"; id: number; done: number; total: number; message?: string }
  | { type: "log"; record: LogRecord }
  | { type: "result"; id: number; result: unknown }
  | { type: "error"; id: number; message: string; stack?: string; code?: ErrorCode; data?: Record<string, unknown> };

interface Pending {
  resolve(result: unknown): void;
  reject(e: Error): void;
  progress: ToolContext["progress"];
}

export class ReaderThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Calls the thread has answered (results and errors). */
  served = 0;

  constructor(private readonly root: string) {}

  /** Runs `tool` with raw (unvalidated) arguments on the reader thread; validation happens there. */
  call(tool: ToolDefinition, args: unknown, ctx: Omit<ToolContext, "session">): Promise<unknown> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () =>
        worker.postMessage({
          type: "abort",
          id,
          reason: String((ctx.signal.reason as Error)?.message ?? ctx.signal.reason ?? "aborted"),
        } satisfies ReaderRequest);
      const settled = () => ctx.signal.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: (r) => {
          settled();
          resolve(r);
        },
        reject: (e) => {
          settled();
          reject(e);
        },
        progress: ctx.progress,
      });
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener("abort", onAbort, { once: true });
      worker.postMessage({
        type: "call",
        id,
        tool: tool.name,
        args,
        deadline: ctx.deadline,
        ...(ctx.changedOnDisk ? { changedOnDisk: ctx.changedOnDisk } : {}),
      } satisfies ReaderRequest);
    });
  }

  /** The embeddings state of the thread's search engine (starting the thread, and so its embedding, if need be). */
  embeddingsState(): Promise<string> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve: (r) => resolve(r as string), reject, progress: undefined });
      worker.postMessage({ type: "embeddings", id } satisfies ReaderRequest);
    });
  }

  /** Starts the thread ahead of the first call (it then loads the embedding model: reader-worker.ts). */
  warm(): void {
    this.start();
  }

  close(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.failAll(new Error("the server is shutting down"));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker("tools/reader-worker");
    worker.onmessage = (ev: MessageEvent) => this.receive(ev.data as ReaderMessage);
    worker.onerror = (ev) => {
      const why = (ev as ErrorEvent).message ?? "unknown failure";
      log.error(`the reader thread failed: ${why}`);
      if (this.worker === worker) this.worker = undefined;
      worker.terminate();
      this.failAll(new Error(`the reader thread failed: ${why}`));
    };
    worker.postMessage({ type: "init", root: this.root, logLevel: log.level() } satisfies ReaderRequest);
    this.worker = worker;
    return worker;
  }

  private receive(msg: ReaderMessage): void {
    if (msg.type === "log") {
      log.write(msg.record.level, msg.record.message, msg.record.data);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === "progress") {
      p.progress?.(msg.done, msg.total, msg.message);
      return;
    }
    this.pending.delete(msg.id);
    this.served++;
    if (msg.type === "result") p.resolve(msg.result);
    else {
      const e = msg.code ? new CortexError(msg.code, msg.message, msg.data ? { data: msg.data } : {}) : new Error(msg.message);
      if (msg.stack) e.stack = msg.stack;
      p.reject(e);
    }
  }

  private failAll(e: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(e);
  }
}

/**
 * Whether vectors of the configured model are cached (its cache file has stored some, so it knows their
 * size): a server then loads the model at start-up instead of on the first query. A few file-system calls
 * and one read-only query, nothing started; false for a configuration that cannot work or turns embeddings off.
 */
export function mayHaveCachedVectors(config: CortexConfig["embeddings"], options: { home: string; root: string }): boolean {
  if (config.provider === "none") return false;
  try {
    return cacheHasVectors(embeddingCachePath(options.home, createEmbeddingProvider(config, options).id));
  } catch {
    return false;
  }
}
