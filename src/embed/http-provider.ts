/**
 * The OpenAI-compatible HTTP provider: POST <url>/embeddings, the API that OpenAI, Ollama (/v1), LM Studio,
 * vLLM, llama.cpp's server and most gateways speak. For people who already run such a server, or want a
 * model too large for the CPU.
 *
 * Batches of `batch_size` texts go one request at a time (servers and rate limits prefer that). Transient
 * failures (429, 5xx, timeouts, refused connections) are retried with backoff, honouring Retry-After; a
 * refused key (401/403) or vectors of the wrong size make the provider unavailable, because retrying
 * cannot fix either. Vectors are scaled to unit length whatever the server sends, so scores are cosines.
 */
import { CortexError, errorMessage } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { withPrefix, type ModelSpec } from "./models.ts";
import type { EmbedKind, EmbeddingProvider, ProviderState } from "./types.ts";

export interface HttpProviderOptions {
  id: string;
  recipe: string;
  spec: ModelSpec;
  /** Base URL, e.g. http://127.0.0.1:11434/v1 (the provider appends /embeddings). */
  url: string;
  apiKey?: string;
  /** Name of the variable the key came from (or should come from), for messages. */
  apiKeyEnv: string;
  /** Requested vector size (sent as `dimensions`, and checked). */
  dimensions?: number;
  batchSize: number;
  /** Per-request limit (ms). */
  timeoutMs?: number;
  /** Attempts per request for transient failures. */
  attempts?: number;
  /** How long an unavailable provider waits before ready() probes again (ms). */
  retryAfterMs?: number;
}

/** How long a failed provider waits before ready() probes the server again. */
const RETRY_AFTER_MS = 30_000;
const MAX_BACKOFF_MS = 20_000;

class HttpFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly fatal: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

function unavailable(reason: string, data: Record<string, unknown> = {}): CortexError {
  return new CortexError("EMBEDDINGS_UNAVAILABLE", `embeddings unavailable: ${reason}`, { data: { reason, ...data } });
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The server's own explanation: OpenAI's {error: {message}}, Ollama's {error: "…"}, or the start of the body. */
function serverMessage(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = j.error;
    if (typeof e === "string") return e;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof j.message === "string") return j.message;
    if (typeof j.detail === "string") return j.detail;
  } catch {}
  return body.replace(/\s+/g, " ").trim().slice(0, 200);
}

function decodeBase64Floats(s: string): Float32Array {
  const bytes = Buffer.from(s, "base64");
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 4));
  return out;
}

function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Math.abs(norm - 1) > 1e-6) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

export class HttpProvider implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly recipe: string;
  readonly batchSize: number;
  private readonly options: HttpProviderOptions;
  private readonly endpoint: string;
  private dims: number | undefined;
  private current: ProviderState = { status: "idle" };
  private probing: Promise<void> | undefined;
  private failedAt = 0;
  private lastReason = "";
  private readonly closer = new AbortController();

  constructor(options: HttpProviderOptions) {
    this.options = options;
    this.id = options.id;
    this.model = options.spec.name;
    this.recipe = options.recipe;
    this.batchSize = options.batchSize;
    this.endpoint = options.url.replace(/\/+$/, "") + "/embeddings";
  }

  get dimensions(): number | undefined {
    return this.dims;
  }

  state(): ProviderState {
    return this.current;
  }

  /** Probes the server with one tiny request: it proves the URL, the key and the model, and gives the size. */
  ready(): Promise<void> {
    if (this.closer.signal.aborted) return Promise.reject(unavailable("the provider is closed"));
    if (this.current.status === "ready") return Promise.resolve();
    if (this.current.status === "unavailable" && Date.now() - this.failedAt < (this.options.retryAfterMs ?? RETRY_AFTER_MS)) {
      return Promise.reject(unavailable(this.current.reason));
    }
    this.probing ??= (async () => {
      this.current = { status: "loading", detail: `connecting to ${this.endpoint}` };
      try {
        const [v] = await this.request(["ping"], undefined);
        this.dims = v!.length;
        this.current = { status: "ready" };
      } catch (e) {
        if (this.closer.signal.aborted) throw unavailable("the provider is closed");
        throw this.fail(errorMessage(e));
      }
    })().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw new CortexError("DEADLINE", "embedding cancelled");
    await this.ready();
    const input = withPrefix(this.options.spec, kind, texts);
    const out: Float32Array[] = [];
    for (let i = 0; i < input.length; i += this.batchSize) {
      try {
        out.push(...(await this.request(input.slice(i, i + this.batchSize), signal)));
      } catch (e) {
        if (e instanceof HttpFailure) {
          if (e.fatal) throw this.fail(e.message);
          throw new CortexError("EMBEDDINGS_UNAVAILABLE", `embedding failed: ${e.message}`, { data: { transient: true } });
        }
        throw e;
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.closer.abort();
    this.current = { status: "unavailable", reason: "the provider is closed" };
  }

  private fail(reason: string): CortexError {
    // said once: a retry that fails the same way (every retry period) stays quiet
    if (reason !== this.lastReason) log.warn(`embeddings: ${reason}`);
    this.lastReason = reason;
    this.current = { status: "unavailable", reason };
    this.failedAt = Date.now();
    return unavailable(reason);
  }

  /** One batch, with retries for transient failures. */
  private async request(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const attempts = this.options.attempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(input, signal);
      } catch (e) {
        if (!(e instanceof HttpFailure) || !e.retryable || attempt >= attempts) throw e;
        const wait = Math.min(MAX_BACKOFF_MS, e.retryAfterMs ?? 250 * 2 ** (attempt - 1));
        log.info(`embeddings: ${e.message}; retrying in ${wait} ms`);
        await Bun.sleep(wait);
        if (signal?.aborted) throw new CortexError("DEADLINE", "embedding cancelled");
        if (this.closer.signal.aborted) throw unavailable("the provider is closed");
      }
    }
  }

  private async once(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const o = this.options;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    const body: Record<string, unknown> = { model: o.spec.name, input, encoding_format: "float" };
    if (o.dimensions !== undefined) body.dimensions = o.dimensions;
    const timeoutMs = o.timeoutMs ?? 60_000;
    const signals = [this.closer.signal, AbortSignal.timeout(timeoutMs)];
    if (signal) signals.push(signal);
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.endpoint, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.any(signals) });
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) throw new CortexError("DEADLINE", "embedding cancelled");
      if (this.closer.signal.aborted) throw unavailable("the provider is closed");
      const why = (e as Error).name === "TimeoutError" ? `no answer within ${Math.round(timeoutMs / 1000)} s` : errorMessage(e);
      throw new HttpFailure(`cannot reach ${this.endpoint}: ${why}`, true, false);
    }
    if (!res.ok) {
      const msg = `HTTP ${res.status} from ${this.endpoint}: ${serverMessage(text)}`;
      if (res.status === 401 || res.status === 403) {
        const key = o.apiKey ? `the key in $${o.apiKeyEnv} was refused` : `no API key: set $${o.apiKeyEnv}`;
        throw new HttpFailure(`${msg} (${key})`, false, true);
      }
      if (res.status === 404)
        throw new HttpFailure(`${msg} (is the url the API base, e.g. http://host:port/v1, and is model '${o.spec.name}' served?)`, false, true);
      const transient = res.status === 408 || res.status === 409 || res.status === 425 || res.status === 429 || res.status >= 500;
      throw new HttpFailure(msg, transient, false, retryAfter(res.headers.get("retry-after")));
    }
    return this.parse(text, input.length);
  }

  private parse(text: string, expected: number): Float32Array[] {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HttpFailure(`${this.endpoint} answered with something that is not JSON: ${text.slice(0, 100)}`, false, false);
    }
    const data = (json as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new HttpFailure(`${this.endpoint} returned ${Array.isArray(data) ? data.length : "no"} embeddings for ${expected} inputs`, false, false);
    }
    const out = new Array<Float32Array>(expected);
    data.forEach((item: { embedding?: unknown; index?: unknown }, i) => {
      const index = typeof item.index === "number" ? item.index : i;
      const e = item.embedding;
      let v: Float32Array;
      if (typeof e === "string") v = decodeBase64Floats(e);
      else if (Array.isArray(e) && e.every((x) => typeof x === "number")) v = Float32Array.from(e as number[]);
      else throw new HttpFailure(`${this.endpoint} returned an embedding that is not a list of numbers`, false, false);
      if (index < 0 || index >= expected || out[index] !== undefined)
        throw new HttpFailure(`${this.endpoint} returned embedding index ${index} twice or out of range`, false, false);
      out[index] = normalize(v);
    });
    const size = out[0]!.length;
    const want = this.dims ?? this.options.dimensions;
    for (const v of out) {
      if (v.length === 0) throw new HttpFailure(`${this.endpoint} returned an empty embedding`, false, true);
      if (v.length !== (want ?? size)) {
        throw new HttpFailure(
          `dimension mismatch: ${this.endpoint} returned ${v.length}-dimensional vectors for '${this.options.spec.name}', expected ${want ?? size}`,
          false,
          true,
        );
      }
    }
    return out;
  }
}
