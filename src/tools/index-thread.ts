/**
 * Runs an index run on a worker thread (index-worker.ts) and relays its progress and log records: the
 * server's thread stays free for tool calls while the tree is read, parsed, written and resolved. Before,
 * with the run on the server's thread, three clients querying go-src while 597 files changed saw every
 * tool stall together for up to 2.8 s.
 */
import type { IndexOptions, IndexReport } from "../indexer/pipeline.ts";
import { startWorker } from "../core/worker-entry.ts";
import { log, type LogRecord } from "../core/log.ts";
import { CortexError, type ErrorCode } from "../core/errors.ts";

type Message =
  | { type: "progress"; progress: Parameters<NonNullable<IndexOptions["onProgress"]>>[0] }
  | { type: "log"; record: LogRecord }
  | { type: "done"; report: IndexReport }
  | { type: "error"; message: string; stack?: string; code?: ErrorCode; data?: Record<string, unknown> };

/** The worker runs the same hooks as the calling thread would (src/tools/index-hooks.ts): functions cannot be posted. */
export function runIndexOnThread(options: Omit<IndexOptions, "hooks">): Promise<IndexReport> {
  const { onProgress, ...rest } = options;
  return new Promise<IndexReport>((resolve, reject) => {
    const worker = startWorker("tools/index-worker");
    const finish = (outcome: () => void) => {
      worker.terminate();
      outcome();
    };
    worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data as Message;
      switch (msg.type) {
        case "progress":
          onProgress?.(msg.progress);
          break;
        case "log":
          log.write(msg.record.level, msg.record.message, msg.record.data);
          break;
        case "done":
          finish(() => resolve(msg.report));
          break;
        case "error": {
          const e = msg.code ? new CortexError(msg.code, msg.message, msg.data ? { data: msg.data } : {}) : new Error(msg.message);
          if (msg.stack) e.stack = msg.stack;
          finish(() => reject(e));
          break;
        }
      }
    };
    worker.onerror = (ev) => finish(() => reject(new Error(`the index thread failed: ${(ev as ErrorEvent).message}`)));
    worker.postMessage({ options: rest, logLevel: log.level() });
  });
}
