/**
 * An index run on a thread of its own, so a long-lived server's tool calls never wait behind the
 * indexer's reading, hashing, writing and resolving (see index-thread.ts). Messages:
 *   in:  { options, logLevel }
 *   out: { type: "progress", progress }, { type: "log", record }, then { type: "done", report } or
 *        { type: "error", message, code?, data? }
 * The composition root of its thread, as session.ts is of the main one: it chooses the index hooks.
 */
import { runIndex, type IndexOptions } from "../indexer/pipeline.ts";
import { INDEX_HOOKS } from "./index-hooks.ts";
import { log, type LogLevel } from "../core/log.ts";
import { isCortexError } from "../core/errors.ts";

declare const self: Worker;

self.onmessage = async (ev: MessageEvent) => {
  const { options, logLevel } = ev.data as { options: Omit<IndexOptions, "onProgress" | "hooks">; logLevel: LogLevel };
  log.setLevel(logLevel);
  log.replaceSinks((record) => self.postMessage({ type: "log", record }));
  try {
    const report = await runIndex({ ...options, hooks: INDEX_HOOKS, onProgress: (progress) => self.postMessage({ type: "progress", progress }) });
    self.postMessage({ type: "done", report });
  } catch (e) {
    const err = e as Error;
    self.postMessage({ type: "error", message: err.message, stack: err.stack, ...(isCortexError(e) ? { code: e.code, data: e.data } : {}) });
  }
};
