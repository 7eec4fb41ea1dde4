#!/usr/bin/env bun
/**
 * Builds the tiny embedding model the tests run through the real transformers.js code path: a BERT-shaped
 * folder (config.json, tokenizer.json with a WordPiece vocabulary, tokenizer_config.json, onnx/model.onnx)
 * whose graph is two cheap operators, so a test loads and runs it in milliseconds.
 *
 * The vectors mean something, so search tests can assert rankings: every vocabulary word belongs to a topic
 * (auth, storage, web, parsing, …) and its embedding points along that topic's axis, with a little
 * deterministic per-word noise. A text's embedding is the direction of the sum of its tokens' vectors, so
 * "login password" lands near "user session token" and far from "sql table row". Each topic word also
 * exists as a `##` continuation piece, so camelCase identifiers keep their meaning (`getUserToken` →
 * get ##user ##token); single letters and digits keep any other word from becoming [UNK] and weigh little.
 *
 * Graph: tokens = Gather(embeddings, input_ids); last_hidden_state = tokens + ReduceMean(tokens, axis 1).
 * The special tokens' rows are zero, so both mean pooling and CLS pooling (the [CLS] position then holds
 * the mean) yield the normalised sum of the text's token vectors, independent of padding.
 *
 *   bun scripts/make-tiny-model.ts <folder>     writes the model files into <folder>
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataType, writeOnnxModel } from "./tiny-model/onnx-proto.ts";

/** The topics of the tiny model's vocabulary: each has its own axis in the embedding space. */
export const TINY_TOPICS: Record<string, string[]> = {
  auth: [
    "auth",
    "authenticate",
    "authentication",
    "authorize",
    "login",
    "logout",
    "password",
    "credential",
    "credentials",
    "session",
    "token",
    "user",
    "users",
    "account",
    "permission",
    "role",
    "sign",
    "signin",
  ],
  storage: [
    "database",
    "db",
    "sql",
    "query",
    "table",
    "row",
    "rows",
    "column",
    "insert",
    "select",
    "store",
    "record",
    "schema",
    "migration",
    "transaction",
    "commit",
  ],
  web: ["http", "request", "response", "server", "client", "route", "router", "handler", "url", "header", "endpoint", "api", "status", "cookie", "get", "post"],
  parsing: ["parse", "parser", "lexer", "syntax", "tree", "node", "grammar", "ast", "expression", "scan", "scanner"],
  files: ["file", "files", "path", "read", "write", "directory", "folder", "open", "close", "stream", "buffer", "disk"],
  errors: ["error", "errors", "err", "fail", "failed", "failure", "exception", "panic", "throw", "catch", "retry", "timeout"],
  math: ["sum", "add", "count", "number", "average", "total", "compute", "calculate", "math", "multiply", "divide"],
  testing: ["test", "tests", "assert", "expect", "mock", "fixture", "spec"],
  concurrency: ["thread", "worker", "lock", "mutex", "async", "await", "channel", "queue", "goroutine", "parallel"],
  config: ["config", "configuration", "setting", "settings", "option", "options", "env", "flag", "default"],
  cache: ["cache", "cached", "memo", "evict", "expire", "ttl"],
  // The words of instruction prefixes (bge's query prefix, e5's and nomic's markers), so a prefix is visible
  // in the vectors and a test can tell a query embedding from a passage embedding.
  instruction: ["represent", "sentence", "searching", "relevant", "passages", "passage", "search_query", "search_document"],
};

/** Words that carry no topic (they exist so they do not fall apart into letters). */
const STOPWORDS = [
  "the",
  "a",
  "an",
  "of",
  "to",
  "for",
  "in",
  "is",
  "and",
  "or",
  "with",
  "on",
  "this",
  "that",
  "it",
  "be",
  "by",
  "as",
  "at",
  "from",
  "function",
  "func",
  "def",
  "return",
  "class",
  "const",
  "let",
  "var",
  "if",
  "else",
  "new",
  "int",
  "string",
  "type",
  "struct",
  "import",
  "package",
  "public",
  "private",
  "static",
  "void",
  "self",
  "nil",
  "null",
  "true",
  "false",
];

export const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;
const NOISE_DIMS = 4;
export const TINY_DIMENSIONS = Object.keys(TINY_TOPICS).length + NOISE_DIMS;

/** A deterministic pseudo-random stream per word (FNV-1a seed, xorshift), so every build is identical. */
function noise(word: string): () => number {
  let s = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) s = Math.imul(s ^ word.charCodeAt(i), 0x01000193) >>> 0;
  s ||= 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000 - 0.5;
  };
}

export interface Vocabulary {
  tokens: string[];
  vectors: Float32Array;
}

export function buildVocabulary(): Vocabulary {
  const tokens: string[] = [];
  const rows: number[][] = [];
  const seen = new Set<string>();
  const add = (token: string, row: number[]) => {
    if (seen.has(token)) return;
    seen.add(token);
    tokens.push(token);
    rows.push(row);
  };
  const jitter = (token: string, scale: number, base: number[] = new Array(TINY_DIMENSIONS).fill(0)) => {
    const r = noise(token);
    return base.map((v) => v + scale * r());
  };
  for (const s of SPECIALS) add(s, s === "[UNK]" ? jitter(s, 0.05) : new Array(TINY_DIMENSIONS).fill(0));
  Object.values(TINY_TOPICS).forEach((words, axis) => {
    const base = new Array(TINY_DIMENSIONS).fill(0);
    base[axis] = 1;
    for (const w of words) {
      add(w, jitter(w, 0.15, base));
      add("##" + w, jitter("##" + w, 0.15, base));
    }
  });
  for (const w of STOPWORDS) add(w, jitter(w, 0.05));
  for (const c of "abcdefghijklmnopqrstuvwxyz0123456789_") {
    add(c, jitter(c, 0.05));
    add("##" + c, jitter("##" + c, 0.05));
  }
  return { tokens, vectors: Float32Array.from(rows.flat()) };
}

/** A BERT WordPiece tokenizer.json over `tokens` (ids are positions; the SPECIALS must be among them). */
export function wordPieceTokenizer(tokens: string[]): unknown {
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  const id = (t: string) => vocab[t] as number;
  const special = (t: string) => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [id("[CLS]")], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [id("[SEP]")], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab },
  };
}

function onnxGraph(vocab: Vocabulary): Uint8Array {
  return tinyOnnxGraph("cortex-tiny-embedding", vocab.vectors, vocab.tokens.length, TINY_DIMENSIONS);
}

/**
 * The tiny model's graph over a table of `rows` token vectors of `dims` each: a token's vector plus the
 * mean of the sequence's. Exported for tests that need a model of other dimensions.
 */
export function tinyOnnxGraph(name: string, vectors: Float32Array, rows: number, dims: number): Uint8Array {
  const seq = ["batch_size", "sequence_length"];
  return writeOnnxModel({
    name,
    initializers: [{ name: "embeddings", dims: [rows, dims], data: vectors }],
    inputs: [
      { name: "input_ids", elemType: DataType.INT64, shape: seq },
      { name: "attention_mask", elemType: DataType.INT64, shape: seq },
      { name: "token_type_ids", elemType: DataType.INT64, shape: seq },
    ],
    outputs: [{ name: "last_hidden_state", elemType: DataType.FLOAT, shape: [...seq, dims] }],
    nodes: [
      { opType: "Gather", inputs: ["embeddings", "input_ids"], outputs: ["tokens"] },
      {
        opType: "ReduceMean",
        inputs: ["tokens"],
        outputs: ["mean"],
        attributes: [
          { name: "axes", ints: [1] },
          { name: "keepdims", int: 1 },
        ],
      },
      { opType: "Add", inputs: ["tokens", "mean"], outputs: ["last_hidden_state"] },
    ],
  });
}

/** tokenizer_config.json of a lower-casing BERT tokenizer that truncates at 512 tokens. */
export const BERT_TOKENIZER_CONFIG = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: 512,
  clean_up_tokenization_spaces: true,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
};

/** The model's files by relative path. The graph is written under both fp32 and q8 names (see below). */
export function tinyModelFiles(): Record<string, string | Uint8Array> {
  const vocab = buildVocabulary();
  const graph = onnxGraph(vocab);
  return {
    "config.json": JSON.stringify(
      { model_type: "bert", architectures: ["BertModel"], hidden_size: TINY_DIMENSIONS, vocab_size: vocab.tokens.length, max_position_embeddings: 512 },
      null,
      2,
    ),
    "tokenizer.json": JSON.stringify(wordPieceTokenizer(vocab.tokens)),
    "tokenizer_config.json": JSON.stringify(BERT_TOKENIZER_CONFIG, null, 2),
    "onnx/model.onnx": graph,
    // The same fp32 graph under the name transformers.js loads for dtype q8, so the tiny model can stand in
    // for a real model whose table entry asks for the quantized file.
    "onnx/model_quantized.onnx": graph,
  };
}

/** Writes a model's files (relative path → content) into `dir`, creating folders; returns `dir`. */
export function writeModelFiles(dir: string, files: Record<string, string | Uint8Array>): string {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(join(abs, ".."), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

/** Writes the tiny model into `dir` (created if needed) and returns `dir`. */
export function writeTinyModel(dir: string): string {
  return writeModelFiles(dir, tinyModelFiles());
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: bun scripts/make-tiny-model.ts <folder>");
    process.exit(2);
  }
  writeTinyModel(dir);
  console.error(`tiny model written to ${dir}`);
}
