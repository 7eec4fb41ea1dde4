/**
 * The model table: what cortex knows about embedding models it may meet, so each is used the way it was
 * trained. Instruction-tuned retrieval models expect a marker before queries (bge, arctic, mxbai) or before
 * both queries and passages (e5, nomic); BERT-style models are pooled from [CLS] or by the mean of their
 * tokens. Getting either wrong silently costs retrieval quality, hence one table with the models' own
 * documented settings. A model that is not listed is used plainly: mean pooling, no prefixes.
 *
 * Names match exactly (case-insensitive), or by their last path segment without a tag, so one entry covers
 * `Xenova/bge-small-en-v1.5`, `BAAI/bge-small-en-v1.5` and an Ollama or LM Studio name like
 * `nomic-embed-text:latest`.
 */
import { shortHash } from "../core/hash.ts";
import type { EmbedKind } from "./types.ts";

export interface ModelSpec {
  /** The name as configured. */
  name: string;
  /** How token vectors become one vector (local models only; servers pool for themselves). */
  pooling: "cls" | "mean";
  /** Scale vectors to unit length, so a dot product is the cosine similarity. */
  normalize: boolean;
  queryPrefix: string;
  passagePrefix: string;
  /** Which ONNX weights to load locally: fp32 is onnx/model.onnx, q8 is onnx/model_quantized.onnx. */
  dtype: "fp32" | "q8";
  /** Vector length, when the table knows it (else learnt from the model or server on ready()). */
  dimensions?: number;
  /** Whether the entry came from the table (false: an unknown model used plainly). */
  known: boolean;
}

type Entry = Omit<ModelSpec, "name" | "known" | "normalize" | "dtype"> & { names: string[]; dtype?: ModelSpec["dtype"] };

const BGE_QUERY = "Represent this sentence for searching relevant passages: ";

/**
 * Local ONNX builds (Xenova/…) use the quantized weights: a quarter of the download and about twice the
 * speed on a CPU, for a retrieval quality within noise of fp32 on these small encoders.
 */
const TABLE: Entry[] = [
  { names: ["Xenova/bge-small-en-v1.5", "BAAI/bge-small-en-v1.5"], pooling: "cls", queryPrefix: BGE_QUERY, passagePrefix: "", dimensions: 384, dtype: "q8" },
  { names: ["Xenova/bge-base-en-v1.5", "BAAI/bge-base-en-v1.5"], pooling: "cls", queryPrefix: BGE_QUERY, passagePrefix: "", dimensions: 768, dtype: "q8" },
  { names: ["Xenova/bge-large-en-v1.5", "BAAI/bge-large-en-v1.5"], pooling: "cls", queryPrefix: BGE_QUERY, passagePrefix: "", dimensions: 1024, dtype: "q8" },
  {
    names: ["Xenova/all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", "all-minilm"],
    pooling: "mean",
    queryPrefix: "",
    passagePrefix: "",
    dimensions: 384,
    dtype: "q8",
  },
  { names: ["Xenova/e5-small-v2", "intfloat/e5-small-v2"], pooling: "mean", queryPrefix: "query: ", passagePrefix: "passage: ", dimensions: 384, dtype: "q8" },
  { names: ["Xenova/e5-base-v2", "intfloat/e5-base-v2"], pooling: "mean", queryPrefix: "query: ", passagePrefix: "passage: ", dimensions: 768, dtype: "q8" },
  {
    names: ["nomic-ai/nomic-embed-text-v1.5", "nomic-embed-text"],
    pooling: "mean",
    queryPrefix: "search_query: ",
    passagePrefix: "search_document: ",
    dimensions: 768,
    dtype: "q8",
  },
  {
    names: ["jinaai/jina-embeddings-v2-base-code", "jina-embeddings-v2-base-code"],
    pooling: "mean",
    queryPrefix: "",
    passagePrefix: "",
    dimensions: 768,
    dtype: "q8",
  },
  {
    names: ["Snowflake/snowflake-arctic-embed-xs", "snowflake-arctic-embed"],
    pooling: "cls",
    queryPrefix: BGE_QUERY,
    passagePrefix: "",
    dimensions: 384,
    dtype: "q8",
  },
  {
    names: ["mixedbread-ai/mxbai-embed-large-v1", "mxbai-embed-large"],
    pooling: "cls",
    queryPrefix: BGE_QUERY,
    passagePrefix: "",
    dimensions: 1024,
    dtype: "q8",
  },
  // Served models (no local weights): prefixes and dimensions only.
  { names: ["text-embedding-3-small"], pooling: "mean", queryPrefix: "", passagePrefix: "", dimensions: 1536 },
  { names: ["text-embedding-3-large"], pooling: "mean", queryPrefix: "", passagePrefix: "", dimensions: 3072 },
  { names: ["text-embedding-ada-002"], pooling: "mean", queryPrefix: "", passagePrefix: "", dimensions: 1536 },
];

/** The bare model name: last path segment, without an Ollama-style `:tag`. */
function bareName(name: string): string {
  const last = name.slice(name.lastIndexOf("/") + 1);
  const colon = last.indexOf(":");
  return (colon >= 0 ? last.slice(0, colon) : last).toLowerCase();
}

const BY_FULL = new Map<string, Entry>();
const BY_BARE = new Map<string, Entry>();
for (const e of TABLE) {
  for (const n of e.names) {
    BY_FULL.set(n.toLowerCase(), e);
    if (!BY_BARE.has(bareName(n))) BY_BARE.set(bareName(n), e);
  }
}

/** How to use a model: its table entry, or plain defaults for a model the table does not know. */
export function modelSpec(name: string): ModelSpec {
  const e = BY_FULL.get(name.toLowerCase()) ?? BY_BARE.get(bareName(name));
  if (!e) return { name, pooling: "mean", normalize: true, queryPrefix: "", passagePrefix: "", dtype: "fp32", known: false };
  const spec: ModelSpec = {
    name,
    pooling: e.pooling,
    normalize: true,
    queryPrefix: e.queryPrefix,
    passagePrefix: e.passagePrefix,
    dtype: e.dtype ?? "fp32",
    known: true,
  };
  if (e.dimensions !== undefined) spec.dimensions = e.dimensions;
  return spec;
}

/** The texts as the model expects them for this kind of use. */
export function withPrefix(spec: ModelSpec, kind: EmbedKind, texts: string[]): string[] {
  const prefix = kind === "query" ? spec.queryPrefix : spec.passagePrefix;
  return prefix === "" ? texts : texts.map((t) => prefix + t);
}

/**
 * The fingerprint of how passages become vectors beyond the model itself: a cache written under another
 * recipe is dropped. `extra` lets a provider add its own settings (pooling is moot for a server).
 */
export function recipeOf(spec: ModelSpec, extra: Record<string, string | number | boolean> = {}): string {
  return shortHash(JSON.stringify({ passagePrefix: spec.passagePrefix, normalize: spec.normalize, ...extra }));
}
