/**
 * A cross-encoder: reads a query and a passage together and says how relevant the passage is (one logit),
 * which a bi-encoder (the embeddings) and BM25 cannot, since they score each side alone. Too slow to rank
 * a whole index, cheap enough for a search's top ten; the search engine decides when to ask
 * (src/engines/search/rerank.ts).
 *
 * Runs transformers.js (AutoTokenizer + AutoModelForSequenceClassification, the way ms-marco MiniLM
 * cross-encoders are published for it) on the calling thread: in the MCP server searches already run on
 * the reader thread (src/tools/reader-thread.ts), and ten pairs take tens of milliseconds. The model is
 * found like an embedding model (src/embed/local/model-files.ts): a configured folder, or the download
 * cache `$CORTEX_HOME/models/<org>/<name>/`, filled on first use unless offline. Failures become the
 * state ("unavailable: why"), never an exception out of a search; a failed load is tried again after a
 * pause, so a model downloaded meanwhile is picked up.
 */
import { join } from "node:path";
import type { CortexConfig } from "../../core/config.ts";
import { CortexError, errorMessage } from "../../core/errors.ts";
import { log } from "../../core/log.ts";
import { fetchWithStallTimeout } from "../local/fetch-timeout.ts";
import { locateModel, type ModelLocation } from "../local/model-files.ts";
import { installRuntime } from "../local/onnx-runtime.ts";
import type { OnnxBackend } from "../local/protocol.ts";
import type { ModelSpec } from "../models.ts";
import { backendFrom, hubUrlOf } from "../provider.ts";
import type { ProviderOptions, ProviderState } from "../types.ts";

/** How long a failed cross-encoder waits before trying to load again. */
const RETRY_AFTER_MS = 30_000;
/** Characters of a passage handed to the tokenizer (it truncates to the model's 512 tokens anyway). */
const MAX_PASSAGE_CHARS = 4000;

export interface CrossEncoderOptions {
  /** A Hugging Face model id (downloaded into modelsDir) or, with modelPath, a name for messages. */
  model: string;
  modelPath?: string;
  root?: string;
  modelsDir: string;
  offline: boolean;
  hubUrl: string;
  backend: OnnxBackend;
  stallMs: number;
  retryAfterMs?: number;
}

type Tokenizer = (texts: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean }) => Record<string, unknown>;
type Classifier = (inputs: Record<string, unknown>) => Promise<{ logits: { dims: number[]; data: Float32Array } }>;

function unavailable(reason: string): CortexError {
  return new CortexError("EMBEDDINGS_UNAVAILABLE", `reranker unavailable: ${reason}`, { data: { reason } });
}

/** Published cross-encoders ship quantized weights for CPUs; a configured folder may hold either. */
export function crossEncoderSpec(model: string): Pick<ModelSpec, "name" | "dtype"> {
  return { name: model, dtype: "q8" };
}

/** Where the cross-encoder's files are and which are missing (for doctor, and before any load). */
export function locateCrossEncoder(options: Pick<CrossEncoderOptions, "model" | "modelPath" | "root" | "modelsDir">): ModelLocation {
  const spec = { ...crossEncoderSpec(options.model), pooling: "mean", normalize: false, queryPrefix: "", passagePrefix: "", known: false } satisfies ModelSpec;
  try {
    return locateModel(spec, {
      modelsDir: options.modelsDir,
      ...(options.modelPath !== undefined ? { modelPath: options.modelPath } : {}),
      ...(options.root !== undefined ? { root: options.root } : {}),
    });
  } catch (e) {
    // the checks are the embedding model's; the message names this model's settings
    if (e instanceof CortexError) throw new CortexError(e.code, e.message.replace(/^embeddings\.model/, "search.rerank.model"), { cause: e });
    throw e;
  }
}

export class CrossEncoder {
  private current: ProviderState = { status: "idle" };
  private loading: Promise<void> | undefined;
  private failedAt = 0;
  private tokenizer: Tokenizer | undefined;
  private classifier: Classifier | undefined;
  private closed = false;

  constructor(private readonly options: CrossEncoderOptions) {}

  get model(): string {
    return this.options.model;
  }

  state(): ProviderState {
    return this.current;
  }

  /** Starts loading (once; again after a failure and a pause) and resolves when score() can run. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(unavailable("closed"));
    if (this.current.status === "ready") return Promise.resolve();
    if (this.current.status === "unavailable" && Date.now() - this.failedAt < (this.options.retryAfterMs ?? RETRY_AFTER_MS)) {
      return Promise.reject(unavailable(this.current.reason));
    }
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** One relevance score per passage (higher is more relevant), for this query. */
  async score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]> {
    await this.ready();
    if (signal?.aborted) throw new CortexError("DEADLINE", "reranking cancelled");
    if (passages.length === 0) return [];
    const inputs = this.tokenizer!(
      passages.map(() => query),
      { text_pair: passages.map((p) => p.slice(0, MAX_PASSAGE_CHARS)), padding: true, truncation: true },
    );
    const { logits } = await this.classifier!(inputs);
    // one logit per pair; a two-label model's relevance is its last label against its first
    const width = logits.dims[logits.dims.length - 1] ?? 1;
    return passages.map((_, i) => (width === 1 ? logits.data[i]! : logits.data[i * width + width - 1]! - logits.data[i * width]!));
  }

  close(): void {
    this.closed = true;
    this.tokenizer = undefined;
    this.classifier = undefined;
    this.current = { status: "unavailable", reason: "closed" };
  }

  private async load(): Promise<void> {
    const o = this.options;
    let location: ModelLocation;
    try {
      location = locateCrossEncoder(o);
    } catch (e) {
      throw this.fail(errorMessage(e));
    }
    if (location.missing.length > 0) {
      if (location.fromConfig) throw this.fail(`search.rerank.model_path ${location.dir} lacks ${location.missing.join(", ")}`);
      if (o.offline)
        throw this.fail(`offline and model not present (${location.dir} lacks ${location.missing.join(", ")}; CORTEX_OFFLINE=1 forbids the download)`);
    }
    this.current = { status: "loading", detail: `${location.missing.length > 0 ? "downloading" : "loading"} ${o.model}` };
    try {
      const runtime = await installRuntime(o.backend);
      const { env, AutoTokenizer, AutoModelForSequenceClassification, LogLevel } = await import("@huggingface/transformers");
      env.logLevel = LogLevel.ERROR;
      env.allowLocalModels = true;
      env.localModelPath = o.modelsDir;
      env.useFSCache = true;
      env.cacheDir = o.modelsDir;
      env.useBrowserCache = false;
      env.useWasmCache = false;
      env.allowRemoteModels = !o.offline && !location.fromConfig;
      env.remoteHost = o.hubUrl;
      env.remotePathTemplate = "{model}/resolve/{revision}/";
      env.fetch = fetchWithStallTimeout(fetch, o.stallMs);
      const tokenizer = await AutoTokenizer.from_pretrained(location.loadName);
      const model = await AutoModelForSequenceClassification.from_pretrained(location.loadName, { dtype: location.dtype, device: runtime.device });
      this.tokenizer = tokenizer as unknown as Tokenizer;
      this.classifier = model as unknown as Classifier;
    } catch (e) {
      throw this.fail(`cannot load${location.missing.length > 0 && !o.offline ? " or download" : ""} ${o.model}: ${errorMessage(e)}`);
    }
    if (this.closed) throw unavailable("closed");
    this.current = { status: "ready" };
  }

  private fail(reason: string): CortexError {
    if (this.current.status !== "unavailable" || this.current.reason !== reason) log.warn(`reranker: ${reason}`);
    this.current = { status: "unavailable", reason };
    this.failedAt = Date.now();
    return unavailable(reason);
  }
}

export type RerankConfig = CortexConfig["search"]["rerank"];

/** The cross-encoder the configuration asks for; undefined when reranking is off. Starts nothing. */
export function createCrossEncoder(config: RerankConfig, options: ProviderOptions): CrossEncoder | undefined {
  if (!config.enabled) return undefined;
  const env = options.env ?? process.env;
  return new CrossEncoder({
    model: config.model,
    ...(config.model_path !== undefined ? { modelPath: config.model_path } : {}),
    ...(options.root !== undefined ? { root: options.root } : {}),
    modelsDir: join(options.home, "models"),
    offline: options.offline ?? env.CORTEX_OFFLINE === "1",
    hubUrl: hubUrlOf(options, env),
    backend: backendFrom(env),
    stallMs: options.stallMs ?? 60_000,
    ...(options.retryAfterMs !== undefined ? { retryAfterMs: options.retryAfterMs } : {}),
  });
}
