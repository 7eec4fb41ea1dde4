/**
 * Project configuration: optional `.cortex/config.yml`, overridden by environment variables.
 * Every setting has a default, so cortex runs with no config file at all.
 */
import { z } from "zod";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { CortexError } from "./errors.ts";
import { projectDir } from "./paths.ts";

const embeddingSchema = z
  .object({
    provider: z.enum(["local", "openai", "none"]).default("local"),
    model: z.string().min(1).default("Xenova/bge-small-en-v1.5"),
    /** A local folder holding the model files (config.json, tokenizer.json, onnx/model.onnx). */
    model_path: z.string().optional(),
    /** Base URL of an OpenAI-compatible server (…/v1). */
    url: z.string().url().optional(),
    /** Name of the environment variable holding the API key for the HTTP provider. */
    api_key_env: z.string().default("OPENAI_API_KEY"),
    dimensions: z.number().int().positive().optional(),
    batch_size: z.number().int().min(1).max(512).default(32),
  })
  .strict();

/**
 * The optional cross-encoder that reorders a search's top results when their scores are close
 * (src/embed/rerank/, src/engines/search/rerank.ts). Off unless enabled: the default model is a download.
 */
const rerankSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** A Hugging Face cross-encoder (sequence classification, one relevance logit per pair). */
    model: z.string().min(1).default("Xenova/ms-marco-MiniLM-L-6-v2"),
    /** A local folder holding the cross-encoder's files (config.json, tokenizer.json, onnx/model.onnx). */
    model_path: z.string().optional(),
    /** How many of the top results the cross-encoder reorders. */
    top_k: z.number().int().min(2).max(50).default(10),
    /** Rerank only when the second result scores within this share of the first: (s1 - s2) / s1 < min_gap. */
    min_gap: z.number().min(0).max(1).default(0.15),
  })
  .strict();

/** Commits the history channel keeps by default: a few years of a small project, weeks of the Linux kernel. */
const HISTORY_COMMITS = 2000;

export const configSchema = z
  .object({
    index: z
      .object({
        max_file_size: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
        exclude: z.array(z.string()).default([]),
        workers: z.number().int().min(1).max(64).optional(),
        /**
         * The history channel: when the project root is a git work tree, the subjects of past commits and the
         * files changed together, read from the newest `history_commits` commits of HEAD (indexer/git-history.ts).
         */
        history: z.boolean().default(true),
        history_commits: z.number().int().min(1).max(100_000).default(HISTORY_COMMITS),
      })
      .strict()
      .default({ max_file_size: 1024 * 1024, exclude: [], history: true, history_commits: HISTORY_COMMITS }),
    embeddings: embeddingSchema.default(embeddingSchema.parse({})),
    search: z
      .object({ rerank: rerankSchema.default(rerankSchema.parse({})) })
      .strict()
      .default({ rerank: rerankSchema.parse({}) }),
    watch: z
      .object({ debounce_ms: z.number().int().min(10).max(60000).default(500) })
      .strict()
      .default({ debounce_ms: 500 }),
  })
  .strict();

export type CortexConfig = z.infer<typeof configSchema>;

function fromEnvironment(cfg: CortexConfig): CortexConfig {
  const env = process.env;
  if (env.CORTEX_MAX_FILE_SIZE) {
    const n = Number(env.CORTEX_MAX_FILE_SIZE);
    if (!Number.isInteger(n) || n <= 0)
      throw new CortexError("INVALID_INPUT", `CORTEX_MAX_FILE_SIZE must be a positive integer, got '${env.CORTEX_MAX_FILE_SIZE}'`);
    cfg.index.max_file_size = n;
  }
  if (env.CORTEX_EMBEDDINGS_PROVIDER) {
    const p = embeddingSchema.shape.provider.safeParse(env.CORTEX_EMBEDDINGS_PROVIDER);
    if (!p.success) throw new CortexError("INVALID_INPUT", `CORTEX_EMBEDDINGS_PROVIDER must be local, openai or none, got '${env.CORTEX_EMBEDDINGS_PROVIDER}'`);
    cfg.embeddings.provider = p.data;
  }
  if (env.CORTEX_EMBEDDINGS_MODEL) cfg.embeddings.model = env.CORTEX_EMBEDDINGS_MODEL;
  if (env.CORTEX_EMBEDDINGS_MODEL_PATH) cfg.embeddings.model_path = env.CORTEX_EMBEDDINGS_MODEL_PATH;
  if (env.CORTEX_EMBEDDINGS_URL) cfg.embeddings.url = env.CORTEX_EMBEDDINGS_URL;
  if (env.CORTEX_RERANK !== undefined && env.CORTEX_RERANK !== "") {
    if (env.CORTEX_RERANK !== "1" && env.CORTEX_RERANK !== "0")
      throw new CortexError("INVALID_INPUT", `CORTEX_RERANK must be 1 or 0, got '${env.CORTEX_RERANK}'`);
    cfg.search.rerank.enabled = env.CORTEX_RERANK === "1";
  }
  if (env.CORTEX_HISTORY !== undefined && env.CORTEX_HISTORY !== "") {
    if (env.CORTEX_HISTORY !== "1" && env.CORTEX_HISTORY !== "0")
      throw new CortexError("INVALID_INPUT", `CORTEX_HISTORY must be 1 or 0, got '${env.CORTEX_HISTORY}'`);
    cfg.index.history = env.CORTEX_HISTORY === "1";
  }
  if (env.CORTEX_RERANK_MODEL_PATH) cfg.search.rerank.model_path = env.CORTEX_RERANK_MODEL_PATH;
  return cfg;
}

/** Loads `.cortex/config.yml` under the root (if any) and applies environment overrides. */
export function loadConfig(root: string): CortexConfig {
  const file = join(projectDir(root), "config.yml");
  let raw: unknown = {};
  if (existsSync(file)) {
    try {
      raw = parseYaml(readFileSync(file, "utf8")) ?? {};
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `.cortex/config.yml is not valid YAML: ${(e as Error).message}`, { cause: e });
    }
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CortexError("INVALID_INPUT", `.cortex/config.yml: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return fromEnvironment(parsed.data);
}
