/**
 * createEmbeddingProvider: the one place a configuration becomes a provider. Creating one is cheap and
 * starts nothing (no worker, no download, no request) until ready() or embed() is called, so the MCP
 * server can create it at start-up and still answer `initialize` at once.
 *
 * Provider ids (they name the shared vector cache, so they say everything that changes the vectors):
 *   local:<model>:<dtype>                    a hub model, downloaded into $CORTEX_HOME/models
 *   local:<model>:<dtype>@<hash>             a model folder named by embeddings.model_path (hash of its
 *                                            real path and of its files' sizes and times: modelFingerprint)
 *   openai:<host/path>:<model>[:<dims>]      an OpenAI-compatible server
 *   none                                     embeddings turned off
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { CortexConfig } from "../core/config.ts";
import { CortexError } from "../core/errors.ts";
import { shortHash } from "../core/hash.ts";
import { modelSpec, recipeOf } from "./models.ts";
import { HttpProvider } from "./http-provider.ts";
import { LocalProvider } from "./local/local-provider.ts";
import { assertModelId, MODEL_SIDE_FILES, modelPathSetting, ONNX_FILE } from "./local/model-files.ts";
import type { OnnxBackend } from "./local/protocol.ts";
import type { EmbeddingProvider, ProviderOptions, ProviderState } from "./types.ts";

export type EmbeddingConfig = CortexConfig["embeddings"];

/** A model download that receives nothing for this long is abandoned. */
const DEFAULT_STALL_MS = 60_000;

/** Embeddings turned off in the config: always unavailable, and says why. */
class DisabledProvider implements EmbeddingProvider {
  readonly id = "none";
  readonly model = "none";
  readonly recipe = "";
  readonly dimensions = undefined;
  readonly batchSize = 1;
  private readonly reason = "turned off (embeddings.provider: none)";
  state(): ProviderState {
    return { status: "unavailable", reason: this.reason };
  }
  ready(): Promise<void> {
    return Promise.reject(new CortexError("EMBEDDINGS_UNAVAILABLE", `embeddings unavailable: ${this.reason}`, { data: { reason: this.reason } }));
  }
  embed(): Promise<Float32Array[]> {
    return this.ready().then(() => []);
  }
  async close(): Promise<void> {}
}

/**
 * What a model folder's files are, cheaply: the size and modification time of the files that make its
 * vectors (weights, configuration, tokenizer). Replacing or editing any of them changes it; reading the
 * folder again without change does not. Missing files count as missing (ready() reports them).
 */
export function modelFingerprint(dir: string): string {
  const parts: string[] = [];
  for (const f of [...MODEL_SIDE_FILES, ...Object.values(ONNX_FILE)]) {
    try {
      const st = statSync(join(dir, f));
      parts.push(`${f}:${st.size}:${st.mtimeMs}`);
    } catch {
      parts.push(`${f}:-`);
    }
  }
  return parts.join(";");
}

export function backendFrom(env: Record<string, string | undefined>): OnnxBackend {
  const b = env.CORTEX_ONNX_BACKEND ?? "native";
  if (b !== "native" && b !== "wasm") throw new CortexError("INVALID_INPUT", `CORTEX_ONNX_BACKEND must be native or wasm, got '${b}'`);
  return b;
}

export function hubUrlOf(options: ProviderOptions, env: Record<string, string | undefined>): string {
  const raw = options.hubUrl ?? env.HF_ENDPOINT ?? "https://huggingface.co";
  try {
    const u = new URL(raw);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new CortexError("INVALID_INPUT", `hub url: must be an http(s) URL, got '${raw}'`);
  }
  return raw.endsWith("/") ? raw : raw + "/";
}

/**
 * The provider a configuration asks for. Throws INVALID_INPUT (naming the field) when the configuration
 * cannot work at all; anything that may work later (a download, a server) is reported by state() instead.
 */
export function createEmbeddingProvider(config: EmbeddingConfig, options: ProviderOptions): EmbeddingProvider {
  const env = options.env ?? process.env;
  const spec = modelSpec(config.model);
  switch (config.provider) {
    case "none":
      return new DisabledProvider();
    case "openai": {
      if (!config.url) throw new CortexError("INVALID_INPUT", "embeddings.url: required when embeddings.provider is 'openai' (e.g. http://127.0.0.1:11434/v1)");
      const u = new URL(config.url);
      if (u.protocol !== "http:" && u.protocol !== "https:")
        throw new CortexError("INVALID_INPUT", `embeddings.url: must be an http(s) URL, got '${config.url}'`);
      const where = `${u.host}${u.pathname.replace(/\/+$/, "")}`;
      const id = `openai:${where}:${config.model}${config.dimensions ? `:${config.dimensions}` : ""}`;
      const o: ConstructorParameters<typeof HttpProvider>[0] = {
        id,
        recipe: recipeOf(spec, { via: "http" }),
        spec,
        url: config.url,
        apiKeyEnv: config.api_key_env,
        batchSize: config.batch_size,
      };
      const key = env[config.api_key_env];
      if (key) o.apiKey = key;
      if (config.dimensions !== undefined) o.dimensions = config.dimensions;
      if (options.retryAfterMs !== undefined) o.retryAfterMs = options.retryAfterMs;
      return new HttpProvider(o);
    }
    case "local": {
      const modelsDir = join(options.home, "models");
      let id: string;
      let modelPath: string | undefined;
      if (config.model_path !== undefined) {
        modelPath = isAbsolute(config.model_path) ? config.model_path : resolve(options.root ?? process.cwd(), config.model_path);
        let real = modelPath;
        try {
          real = realpathSync(modelPath);
        } catch {
          // reported by ready() as the provider's state, with the path it looked at
        }
        // The folder's path alone would let a model replaced inside it inherit the vectors of the one before
        // (another size: every search failed; the same size: wrong neighbours): what is in it counts too.
        id = `local:${config.model}:${spec.dtype}@${shortHash(`${real}\n${modelFingerprint(real)}`).slice(0, 12)}`;
      } else {
        assertModelId(config.model);
        id = `local:${config.model}:${spec.dtype}`;
      }
      const o: ConstructorParameters<typeof LocalProvider>[0] = {
        id,
        recipe: recipeOf(spec, { pooling: spec.pooling }),
        spec,
        modelsDir,
        offline: options.offline ?? env.CORTEX_OFFLINE === "1",
        hubUrl: hubUrlOf(options, env),
        backend: backendFrom(env),
        stallMs: options.stallMs ?? DEFAULT_STALL_MS,
        batchSize: config.batch_size,
      };
      if (modelPath !== undefined) {
        o.modelPath = modelPath;
        o.setting = modelPathSetting(config.model_path, env);
      }
      if (options.root !== undefined) o.root = options.root;
      if (config.dimensions !== undefined) o.expectDimensions = config.dimensions;
      if (options.retryAfterMs !== undefined) o.retryAfterMs = options.retryAfterMs;
      return new LocalProvider(o);
    }
  }
}
