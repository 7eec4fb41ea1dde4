#!/usr/bin/env bun
/**
 * Builds the tiny cross-encoder the reranker tests run through the real transformers.js code path: a
 * BERT-shaped sequence-classification folder (config.json, tokenizer.json, tokenizer_config.json,
 * onnx/model.onnx) that scores a (query, passage) pair with one logit, as ms-marco cross-encoders do.
 *
 * It shares the tiny embedding model's vocabulary (scripts/make-tiny-model.ts: every word on the axis of
 * its topic), and its score means something, so tests can assert an order: the cosine between the sum of
 * the query's token vectors (token type 0) and the sum of the passage's (token type 1). "login password"
 * scores a passage about sessions and tokens high and one about SQL rows low, whatever the first-stage
 * ranking said. The special tokens' rows are zero, and padding has attention 0 and type 0, so neither
 * counts.
 *
 * Graph: tokens = Gather(embeddings, input_ids); q = Σ tokens·(attention − type); p = Σ tokens·type;
 * logits = q·p / (|q|·|p| + ε), shape [batch, 1].
 *
 *   bun scripts/make-tiny-cross-encoder.ts <folder>     writes the model files into <folder>
 */
import { BERT_TOKENIZER_CONFIG, buildVocabulary, TINY_DIMENSIONS, wordPieceTokenizer, writeModelFiles } from "./make-tiny-model.ts";
import { DataType, writeOnnxModel } from "./tiny-model/onnx-proto.ts";

/** ONNX's TensorProto data type for Cast's `to`. */
const TO_FLOAT = DataType.FLOAT;

function onnxGraph(): Uint8Array {
  const vocab = buildVocabulary();
  const seq = ["batch_size", "sequence_length"];
  const sum = (input: string, axis: string, output: string, keepdims: number) => ({
    opType: "ReduceSum",
    inputs: [input, axis],
    outputs: [output],
    attributes: [{ name: "keepdims", int: keepdims }],
  });
  return writeOnnxModel({
    name: "cortex-tiny-cross-encoder",
    initializers: [
      { name: "embeddings", dims: [vocab.tokens.length, TINY_DIMENSIONS], data: vocab.vectors },
      { name: "axis1", dims: [1], data: BigInt64Array.from([1n]) },
      { name: "axis2", dims: [1], data: BigInt64Array.from([2n]) },
      { name: "epsilon", dims: [], data: Float32Array.from([1e-6]) },
    ],
    inputs: [
      { name: "input_ids", elemType: DataType.INT64, shape: seq },
      { name: "attention_mask", elemType: DataType.INT64, shape: seq },
      { name: "token_type_ids", elemType: DataType.INT64, shape: seq },
    ],
    outputs: [{ name: "logits", elemType: DataType.FLOAT, shape: ["batch_size", 1] }],
    nodes: [
      { opType: "Gather", inputs: ["embeddings", "input_ids"], outputs: ["tokens"] },
      { opType: "Cast", inputs: ["attention_mask"], outputs: ["attention"], attributes: [{ name: "to", int: TO_FLOAT }] },
      { opType: "Cast", inputs: ["token_type_ids"], outputs: ["passage_mask"], attributes: [{ name: "to", int: TO_FLOAT }] },
      { opType: "Sub", inputs: ["attention", "passage_mask"], outputs: ["query_mask"] },
      { opType: "Unsqueeze", inputs: ["query_mask", "axis2"], outputs: ["query_mask3"] },
      { opType: "Unsqueeze", inputs: ["passage_mask", "axis2"], outputs: ["passage_mask3"] },
      { opType: "Mul", inputs: ["tokens", "query_mask3"], outputs: ["query_tokens"] },
      { opType: "Mul", inputs: ["tokens", "passage_mask3"], outputs: ["passage_tokens"] },
      sum("query_tokens", "axis1", "q", 0),
      sum("passage_tokens", "axis1", "p", 0),
      { opType: "Mul", inputs: ["q", "p"], outputs: ["qp"] },
      sum("qp", "axis1", "dot", 1),
      { opType: "Mul", inputs: ["q", "q"], outputs: ["qq"] },
      sum("qq", "axis1", "q_norm2", 1),
      { opType: "Mul", inputs: ["p", "p"], outputs: ["pp"] },
      sum("pp", "axis1", "p_norm2", 1),
      { opType: "Mul", inputs: ["q_norm2", "p_norm2"], outputs: ["norms2"] },
      { opType: "Sqrt", inputs: ["norms2"], outputs: ["norms"] },
      { opType: "Add", inputs: ["norms", "epsilon"], outputs: ["denominator"] },
      { opType: "Div", inputs: ["dot", "denominator"], outputs: ["logits"] },
    ],
  });
}

/** The cross-encoder's files by relative path; the graph under both fp32 and q8 names, like the tiny embedder. */
export function tinyCrossEncoderFiles(): Record<string, string | Uint8Array> {
  const vocab = buildVocabulary();
  const graph = onnxGraph();
  return {
    "config.json": JSON.stringify(
      {
        model_type: "bert",
        architectures: ["BertForSequenceClassification"],
        hidden_size: TINY_DIMENSIONS,
        vocab_size: vocab.tokens.length,
        max_position_embeddings: 512,
        num_labels: 1,
        id2label: { "0": "LABEL_0" },
        label2id: { LABEL_0: 0 },
      },
      null,
      2,
    ),
    "tokenizer.json": JSON.stringify(wordPieceTokenizer(vocab.tokens)),
    "tokenizer_config.json": JSON.stringify(BERT_TOKENIZER_CONFIG, null, 2),
    "onnx/model.onnx": graph,
    "onnx/model_quantized.onnx": graph,
  };
}

/** Writes the tiny cross-encoder into `dir` (created if needed) and returns `dir`. */
export function writeTinyCrossEncoder(dir: string): string {
  return writeModelFiles(dir, tinyCrossEncoderFiles());
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: bun scripts/make-tiny-cross-encoder.ts <folder>");
    process.exit(2);
  }
  writeTinyCrossEncoder(dir);
  console.error(`tiny cross-encoder written to ${dir}`);
}
