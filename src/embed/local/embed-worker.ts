/**
 * The embedding worker: hosts the transformers.js feature-extraction pipeline on its own thread, so
 * tokenising and inference never hold up the MCP server or a query. Protocol in ./protocol.ts.
 *
 * Jobs run one at a time (the ONNX session uses the cores itself); queries (`urgent`) go before passage
 * batches that are still waiting. Any failure is reported as a message, never thrown out of the worker.
 */
import type { FromWorker, LoadRequest, ToWorker, EmbedRequest } from "./protocol.ts";
import { installRuntime } from "./onnx-runtime.ts";
import { fetchWithStallTimeout } from "./fetch-timeout.ts";

declare const self: Worker;

interface Extractor {
  (texts: string[], options: { pooling: "cls" | "mean"; normalize: boolean }): Promise<{ dims: number[]; data: Float32Array }>;
}

let extractor: Extractor | undefined;
let load: LoadRequest | undefined;
const queue: EmbedRequest[] = [];
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

async function pump(): Promise<void> {
  if (busy || !extractor || !load) return;
  busy = true;
  try {
    for (let job = queue.shift(); job; job = queue.shift()) {
      try {
        const out = await extractor(job.texts, { pooling: load.pooling, normalize: load.normalize });
        const dimensions = out.dims[out.dims.length - 1]!;
        // A private copy whose buffer can be transferred (the tensor's may be shared with the runtime).
        const data = new Float32Array(out.data);
        send({ type: "embedded", id: job.id, count: job.texts.length, dimensions, data }, [data.buffer]);
      } catch (e) {
        send({ type: "failed", id: job.id, error: message(e) });
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
    case "embed":
      if (msg.urgent) {
        const firstPassage = queue.findIndex((j) => !j.urgent);
        queue.splice(firstPassage < 0 ? queue.length : firstPassage, 0, msg);
      } else queue.push(msg);
      void pump();
      return;
    case "cancel": {
      const i = queue.findIndex((j) => j.id === msg.id);
      if (i >= 0) queue.splice(i, 1);
      return;
    }
  }
};
