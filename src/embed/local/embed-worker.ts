/**
 * The embedding worker: hosts the transformers.js feature-extraction pipeline on its own thread, so
 * tokenising and inference never hold up the MCP server or a query. Protocol in ./protocol.ts.
 *
 * Jobs run one at a time (the ONNX session uses the cores itself), each in micro-batches of a few texts:
 * on a CPU a larger batch is no faster per text but pads more, and between
 * micro-batches a query (`urgent`) runs first, so a query waits for at most one micro-batch of passages,
 * never for a whole batch. Cancelling a job stops it between micro-batches. Any failure is reported as a
 * message, never thrown out of the worker.
 */
import type { FromWorker, LoadRequest, ToWorker, EmbedRequest } from "./protocol.ts";
import { installRuntime } from "./onnx-runtime.ts";
import { fetchWithStallTimeout } from "./fetch-timeout.ts";

declare const self: Worker;

type Extractor = (texts: string[], options: { pooling: "cls" | "mean"; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>;

/** A job in progress: the vectors of its first `done` texts are in `parts`. */
interface Job {
  req: EmbedRequest;
  done: number;
  parts: Float32Array[];
  dimensions: number;
}

let extractor: Extractor | undefined;
let load: LoadRequest | undefined;
const queue: Job[] = [];
let busy = false;

function send(msg: FromWorker, transfer?: ArrayBuffer[]): void {
  if (transfer) self.postMessage(msg, transfer);
  else self.postMessage(msg);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function loadModel(req: LoadRequest): Promise<void> {
  try {
    const runtime = await installRuntime(req.backend);
    const { env, pipeline, LogLevel } = await import("@huggingface/transformers");
    env.logLevel = LogLevel.ERROR;
    env.allowLocalModels = true;
    env.localModelPath = req.modelsDir;
    env.useFSCache = true;
    env.cacheDir = req.modelsDir;
    env.useBrowserCache = false;
    env.useWasmCache = false;
    env.allowRemoteModels = req.allowDownload;
    env.remoteHost = req.hubUrl;
    env.remotePathTemplate = "{model}/resolve/{revision}/";
    env.fetch = fetchWithStallTimeout(fetch, req.stallMs);
    let lastReport = 0;
    const pipe = await pipeline("feature-extraction", req.loadName, {
      dtype: req.dtype,
      device: runtime.device,
      progress_callback: (p: { status: string; loaded?: number; total?: number; file?: string }) => {
        if (p.status !== "progress_total" || p.loaded === undefined || p.total === undefined) return;
        const now = Date.now();
        if (now - lastReport < 200 && p.loaded < p.total) return;
        lastReport = now;
        send({ type: "progress", loaded: p.loaded, total: p.total });
      },
    });
    extractor = pipe as unknown as Extractor;
    load = req;
    // The model's true vector size, from one real inference rather than from its config.
    const probe = await extractor(["probe"], { pooling: req.pooling, normalize: req.normalize });
    const dimensions = probe.dims[probe.dims.length - 1]!;
    send({ type: "loaded", dimensions });
    pump();
  } catch (e) {
    send({ type: "load-failed", error: message(e) });
  }
}

function finish(job: Job): void {
  const data = new Float32Array(job.req.texts.length * job.dimensions);
  let offset = 0;
  for (const p of job.parts) {
    data.set(p, offset);
    offset += p.length;
  }
  send({ type: "embedded", id: job.req.id, count: job.req.texts.length, dimensions: job.dimensions, data }, [data.buffer]);
}

async function pump(): Promise<void> {
  if (busy || !extractor || !load) return;
  busy = true;
  try {
    while (queue.length > 0) {
      // urgent jobs sit at the front (see onmessage), so the head is always the job to advance
      const job = queue[0]!;
      const slice = job.req.texts.slice(job.done, job.done + load.microBatch);
      try {
        if (slice.length > 0) {
          const out = await extractor(slice, { pooling: load.pooling, normalize: load.normalize });
          job.dimensions = out.dims[out.dims.length - 1]!;
          // A private copy: the tensor's buffer may belong to the runtime.
          job.parts.push(new Float32Array(out.data));
          job.done += slice.length;
        }
        if (job.done >= job.req.texts.length) {
          queue.splice(queue.indexOf(job), 1);
          finish(job);
        }
        // Let waiting messages in (a query, a cancel): the WebAssembly runtime computes on this thread
        // and settles within microtasks, so without this turn a query would wait for the whole job.
        await new Promise<void>((r) => setImmediate(r));
      } catch (e) {
        const i = queue.indexOf(job);
        if (i >= 0) queue.splice(i, 1);
        send({ type: "failed", id: job.req.id, error: message(e) });
      }
    }
  } finally {
    busy = false;
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  switch (msg.type) {
    case "load":
      void loadModel(msg);
      return;
    case "embed": {
      const job: Job = { req: msg, done: 0, parts: [], dimensions: 0 };
      if (msg.urgent) {
        // before every passage job, even one half done: it resumes after the query
        const firstPassage = queue.findIndex((j) => !j.req.urgent);
        queue.splice(firstPassage < 0 ? queue.length : firstPassage, 0, job);
      } else queue.push(job);
      void pump();
      return;
    }
    case "cancel": {
      const i = queue.findIndex((j) => j.req.id === msg.id);
      if (i >= 0) queue.splice(i, 1);
      return;
    }
  }
};
