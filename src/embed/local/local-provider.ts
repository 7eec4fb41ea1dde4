/**
 * The local provider: a transformers.js model run in a Bun Worker (./embed-worker.ts). The calling thread
 * only posts texts and receives vectors, so loading a model or embedding a batch never blocks it.
 *
 * Models download on first use into $CORTEX_HOME/models (Hugging Face hub layout), unless offline
 * (CORTEX_OFFLINE=1), where a model that is not already there makes the provider "unavailable" at once.
 * Failures of the worker (load errors, a crash) become the provider's state, never an exception thrown
 * out of nowhere; a failed provider tries again on the next ready() after a pause, so a model downloaded
 * meanwhile by another cortex process is picked up.
 */
import { CortexError, errorMessage } from "../../core/errors.ts";
import { log } from "../../core/log.ts";
import { startWorker } from "../../core/worker-entry.ts";
import { withPrefix, type ModelSpec } from "../models.ts";
import type { EmbedKind, EmbeddingProvider, ProviderState } from "../types.ts";
import { locateModel, ONNX_FILE, type ModelLocation } from "./model-files.ts";
import type { FromWorker, OnnxBackend, ToWorker } from "./protocol.ts";

/** How long a failed provider waits before ready() tries again. */
export const RETRY_AFTER_MS = 30_000;

/**
 * Texts per inference call in the worker. On a CPU, throughput per text was the same within noise from 1 to 8
 * and worse at 16 (more padding); a query waits for at most one call, so small calls keep it short.
 */
const MICRO_BATCH = 4;

export interface LocalProviderOptions {
  id: string;
  recipe: string;
  spec: ModelSpec;
  modelsDir: string;
  modelPath?: string;
  /** The setting that named modelPath (CORTEX_EMBEDDINGS_MODEL_PATH or embeddings.model_path), for messages. */
  setting?: string;
  root?: string;
  offline: boolean;
  hubUrl: string;
  backend: OnnxBackend;
  stallMs: number;
  batchSize: number;
  retryAfterMs?: number;
  /** Dimensions the config insists on: a model of another size is refused. */
  expectDimensions?: number;
}

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(e: Error): void;
}

function unavailable(reason: string): CortexError {
  return new CortexError("EMBEDDINGS_UNAVAILABLE", `embeddings unavailable: ${reason}`, { data: { reason } });
}

export class LocalProvider implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly recipe: string;
  readonly batchSize: number;
  private dims: number | undefined;
  private current: ProviderState = { status: "idle" };
  private readonly options: LocalProviderOptions;
  private worker: Worker | undefined;
  private loading: Promise<void> | undefined;
  private failedAt = 0;
  private lastReason = "";
  private closed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private settleLoad: { resolve(): void; reject(e: Error): void } | undefined;
  /** Where the model being loaded is (set by start()). */
  private location: ModelLocation | undefined;

  constructor(options: LocalProviderOptions) {
    this.options = options;
    this.id = options.id;
    this.model = options.spec.name;
    this.recipe = options.recipe;
    this.batchSize = options.batchSize;
  }

  get dimensions(): number | undefined {
    return this.dims;
  }

  state(): ProviderState {
    return this.current;
  }

  ready(): Promise<void> {
    if (this.closed) return Promise.reject(unavailable("the provider is closed"));
    if (this.current.status === "ready") return Promise.resolve();
    if (this.current.status === "unavailable" && Date.now() - this.failedAt < (this.options.retryAfterMs ?? RETRY_AFTER_MS)) {
      return Promise.reject(unavailable(this.current.reason));
    }
    this.loading ??= this.start().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw new CortexError("DEADLINE", "embedding cancelled");
    await this.ready();
    // cancelled while the model loaded (or in the microtask that awaited it): no listener saw that
    if (signal?.aborted) throw new CortexError("DEADLINE", "embedding cancelled");
    if (texts.length === 0) return [];
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        worker.postMessage({ type: "cancel", id } satisfies ToWorker);
        this.unrefWorker();
        reject(new CortexError("DEADLINE", "embedding cancelled"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      });
      this.refWorker();
      worker.postMessage({ type: "embed", id, texts: withPrefix(this.options.spec, kind, texts), urgent: kind === "query" } satisfies ToWorker);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopWorker(unavailable("the provider is closed"));
    this.current = { status: "unavailable", reason: "the provider is closed" };
  }

  /** Checks the files, starts the worker and waits for the model to load. */
  private async start(): Promise<void> {
    let location: ModelLocation;
    try {
      location = locateModel(this.options.spec, this.options);
    } catch (e) {
      throw this.fail(errorMessage(e));
    }
    if (location.missing.length > 0) {
      if (location.fromConfig) throw this.fail(`${this.options.setting ?? "embeddings.model_path"} ${location.dir} lacks ${location.missing.join(", ")}`);
      if (this.options.offline)
        throw this.fail(`offline and model not present (${location.dir} lacks ${location.missing.join(", ")}; CORTEX_OFFLINE=1 forbids the download)`);
    }
    const downloading = location.missing.length > 0;
    this.current = { status: "loading", detail: downloading ? `downloading ${this.model}` : `loading ${this.model}` };
    let worker: Worker;
    try {
      worker = startWorker("embed/local/embed-worker");
    } catch (e) {
      throw this.fail(`cannot start the embedding worker: ${errorMessage(e)}`);
    }
    this.worker = worker;
    worker.onmessage = (ev: MessageEvent<FromWorker>) => this.onMessage(ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault?.();
      this.crashed(`the embedding worker failed: ${(ev as ErrorEvent).message}`);
    };
    worker.addEventListener("close", () => {
      if (this.worker === worker && !this.closed) this.crashed("the embedding worker exited");
    });
    this.location = location;
    const loaded = new Promise<void>((resolve, reject) => (this.settleLoad = { resolve, reject }));
    worker.postMessage({
      type: "load",
      loadName: location.loadName,
      dtype: location.dtype,
      pooling: this.options.spec.pooling,
      normalize: this.options.spec.normalize,
      modelsDir: this.options.modelsDir,
      allowDownload: !this.options.offline && !location.fromConfig,
      hubUrl: this.options.hubUrl,
      stallMs: this.options.stallMs,
      backend: this.options.backend,
      microBatch: MICRO_BATCH,
    } satisfies ToWorker);
    await loaded;
  }

  private onMessage(msg: FromWorker): void {
    switch (msg.type) {
      case "progress":
        if (this.current.status === "loading") {
          const mb = (n: number) => (n / 2 ** 20).toFixed(1);
          this.current = {
            status: "loading",
            detail: `downloading ${this.model} (${mb(msg.loaded)} of ${mb(msg.total)} MB)`,
            progress: msg.total > 0 ? msg.loaded / msg.total : 0,
          };
        }
        return;
      case "loaded": {
        const want = this.options.expectDimensions;
        if (want !== undefined && want !== msg.dimensions) {
          this.settleLoad?.reject(this.fail(`${this.model} makes ${msg.dimensions}-dimensional vectors, embeddings.dimensions says ${want}`));
          this.stopWorker(unavailable("dimension mismatch"));
          return;
        }
        this.dims = msg.dimensions;
        this.current = { status: "ready" };
        this.unrefWorker();
        this.settleLoad?.resolve();
        this.settleLoad = undefined;
        return;
      }
      case "load-failed": {
        // a configured folder is never downloaded into: its files are what failed, so name them, not the hub
        const loc = this.location;
        const reason = loc?.fromConfig
          ? `cannot load the model in ${loc.dir} (${this.options.setting ?? "embeddings.model_path"}; its ${ONNX_FILE[loc.dtype]} or side files may be damaged): ${msg.error}`
          : this.options.offline || /allowRemoteModels|local_files_only/.test(msg.error)
            ? `cannot load ${this.model}: ${msg.error}`
            : `cannot load or download ${this.model} from ${this.options.hubUrl}: ${msg.error}`;
        const err = this.fail(reason);
        this.stopWorker(err);
        this.settleLoad?.reject(err);
        this.settleLoad = undefined;
        return;
      }
      case "embedded": {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        this.unrefWorker();
        if (!p) return; // cancelled while it ran
        const out: Float32Array[] = [];
        for (let i = 0; i < msg.count; i++) out.push(msg.data.subarray(i * msg.dimensions, (i + 1) * msg.dimensions));
        p.resolve(out);
        return;
      }
      case "failed": {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        this.unrefWorker();
        p?.reject(new CortexError("EMBEDDINGS_UNAVAILABLE", `embedding failed: ${msg.error}`));
        return;
      }
    }
  }

  /** Records a failure as the provider's state and returns the error that says so. */
  private fail(reason: string): CortexError {
    // said once: a retry that fails the same way (every retry period) stays quiet
    if (reason !== this.lastReason) log.warn(`embeddings: ${reason}`);
    this.lastReason = reason;
    this.current = { status: "unavailable", reason };
    this.failedAt = Date.now();
    return unavailable(reason);
  }

  private crashed(reason: string): void {
    const err = this.fail(reason);
    this.stopWorker(err);
    this.settleLoad?.reject(err);
    this.settleLoad = undefined;
  }

  private stopWorker(err: Error): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) {
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
    }
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** A worker keeps the process alive only while it has work, so a CLI run can end without close(). */
  private refWorker(): void {
    this.worker?.ref();
  }

  private unrefWorker(): void {
    if (this.pending.size === 0 && this.current.status === "ready") this.worker?.unref();
  }
}
