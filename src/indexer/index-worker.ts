/**
 * An index run on a thread of its own, so a long-lived server's tool calls never wait behind the
 * indexer's reading, hashing, writing and resolving (see index-thread.ts). Messages:
 *   in:  { options, logLevel }
 *   out: { type: "progress", progress }, { type: "log", record }, then { type: "done", report } or
 *        { type: "error", message, code?, data? }
 */
import { runIndex, type IndexOptions } from "./pipeline.ts";
import { log, type LogLevel } from "../core/log.ts";
import { isCortexError } from "../core/errors.ts";

declare const self: Worker;

self.onmessage = async (ev: MessageEvent) => {
  const { options, logLevel } = ev.data as { options: Omit<IndexOptions, "onProgress">; logLevel: LogLevel };
  log.setLevel(logLevel);
  log.replaceSinks((record) => self.postMessage({ type: "log", record }));
  try {
    const report = await runIndex({ ...options, onProgress: (progress) => self.postMessage({ type: "progress", progress }) });
    self.postMessage({ type: "done", report });
  } catch (e) {
    const err = e as Error;
    self.postMessage({ type: "error", message: err.message, stack: err.stack, ...(isCortexError(e) ? { code: e.code, data: e.data } : {}) });
  }
};
