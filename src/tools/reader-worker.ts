/**
 * A reader thread of a long-lived server (see reader-thread.ts): its own Session over the same project,
 * reading the index the server's indexer publishes and never writing it, runs the heavy tool calls
 * (searches, regexes, references, graphs) so that light ones on the server's thread are not held up.
 *   in:  { type: "init", root, logLevel } once, then { type: "call", id, tool, args, deadline } and
 *        { type: "abort", id, reason }
 *   out: { type: "progress", id, done, total, message? }, { type: "log", record },
 *        { type: "result", id, result } or { type: "error", id, message, code?, data? }
 */
import { Session } from "./session.ts";
import { TOOLS } from "./index.ts";
import { invokeTool } from "./invoke.ts";
import { log, type LogLevel } from "../core/log.ts";
import { isCortexError } from "../core/errors.ts";

declare const self: Worker;

export type ReaderRequest =
  | { type: "init"; root: string; logLevel: LogLevel }
  | { type: "call"; id: number; tool: string; args: unknown; deadline: number; changedOnDisk?: readonly string[] }
  | { type: "abort"; id: number; reason: string }
  | { type: "embeddings"; id: number };

let session: Session | undefined;
const running = new Map<number, AbortController>();
const byName = new Map(TOOLS.map((t) => [t.name, t]));

/** Answers request `id` with an error, its code and data kept (ReaderThread rebuilds the CortexError). */
function replyError(id: number, e: unknown): void {
  const err = e as Error;
  self.postMessage({ type: "error", id, message: err?.message ?? String(e), stack: err?.stack, ...(isCortexError(e) ? { code: e.code, data: e.data } : {}) });
}

async function call(id: number, name: string, args: unknown, deadline: number, changedOnDisk: readonly string[] | undefined): Promise<void> {
  const tool = byName.get(name);
  const controller = new AbortController();
  running.set(id, controller);
  try {
    if (!tool || !session) throw new Error(tool ? "the reader thread was not started" : `unknown tool '${name}'`);
    const result = await invokeTool(tool, args, {
      session,
      signal: controller.signal,
      deadline,
      ...(changedOnDisk ? { changedOnDisk } : {}),
      progress: (done, total, message) => self.postMessage({ type: "progress", id, done, total, ...(message ? { message } : {}) }),
    });
    self.postMessage({ type: "result", id, result });
  } catch (e) {
    replyError(id, e);
  } finally {
    running.delete(id);
  }
}

/** How long a state request waits for the model to load or fail (a load from disk takes about a second). */
const STATE_SETTLE_MS = 3_000;

/** The embeddings state of this thread's search engine, which holds the process's model. */
async function embeddingsState(id: number): Promise<void> {
  try {
    if (!session) throw new Error("the reader thread was not started");
    // a status report says whether a model can be had: ask for it (briefly) if nothing has yet
    await session.embedder()?.settle(STATE_SETTLE_MS);
    self.postMessage({ type: "result", id, result: await session.embeddingsState() });
  } catch (e) {
    replyError(id, e);
  }
}

/**
 * The searches of this thread hold the model: start loading it now when there are vectors for it, or the
 * first queries after the server starts would be ranked by keywords alone while it loads. After a turn of
 * the event loop, so the first calls are not held up; a configuration that cannot work is reported by them.
 */
function warmEmbeddings(s: Session): void {
  setTimeout(() => {
    try {
      s.embedder()?.warm();
    } catch (e) {
      log.debug(`embeddings not warmed: ${(e as Error).message}`);
    }
  }, 0);
}

self.onmessage = (ev: MessageEvent) => {
  const msg = ev.data as ReaderRequest;
  switch (msg.type) {
    case "init":
      log.setLevel(msg.logLevel);
      log.replaceSinks((record) => self.postMessage({ type: "log", record }));
      // no autoIndex: the server's own session builds and refreshes the index; this one only reads it
      session = new Session(msg.root, { autoIndex: false });
      warmEmbeddings(session);
      break;
    case "call":
      void call(msg.id, msg.tool, msg.args, msg.deadline, msg.changedOnDisk);
      break;
    case "abort":
      running.get(msg.id)?.abort(new Error(msg.reason));
      break;
    case "embeddings":
      void embeddingsState(msg.id);
      break;
  }
};
