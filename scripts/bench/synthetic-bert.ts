/**
 * A model with bge-small-en-v1.5's shape (BERT encoder: 12 layers, hidden 384, 12 heads, feed-forward 1536,
 * 512 positions, a ~30k WordPiece vocabulary) and random weights, for the embedding benchmark. No real model
 * can be downloaded on the build machines, but inference cost depends on the shape, not on the weights, so
 * this measures what bge-small would cost here: same operators, same FLOPs, same memory traffic.
 *
 * Its vocabulary is learnt from the benchmark corpus (frequent words, each also as a `##` continuation,
 * then single characters), so code is split into roughly as many tokens as a real English WordPiece
 * vocabulary would; the benchmark reports tokens per chunk so that can be checked.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataType, writeOnnxModel, type Initializer, type Node } from "../tiny-model/onnx-proto.ts";
import { BERT_TOKENIZER_CONFIG, SPECIALS, wordPieceTokenizer } from "../make-tiny-model.ts";

export const BGE_SMALL_SHAPE = { hidden: 384, layers: 12, heads: 12, intermediate: 1536, positions: 512, vocab: 30522 };

/** Deterministic uniform noise in [-scale, scale] (xorshift), so every build is the same model. */
function randomFloats(n: number, scale: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = (s / 0x100000000 - 0.5) * 2 * scale;
  }
  return out;
}

/** The corpus's most frequent lower-cased words (also as ## pieces) and every character, up to `size` tokens. */
export function corpusVocabulary(texts: string[], size: number): string[] {
  const counts = new Map<string, number>();
  const chars = new Set<string>();
  for (const t of texts) {
    for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const c of t.toLowerCase()) if (c.trim() !== "" && c.charCodeAt(0) < 128) chars.add(c);
  }
  const tokens: string[] = [...SPECIALS];
  for (const c of [..."abcdefghijklmnopqrstuvwxyz0123456789", ...chars]) {
    if (!tokens.includes(c)) tokens.push(c);
    if (/[a-z0-9]/.test(c) && !tokens.includes("##" + c)) tokens.push("##" + c);
  }
  const seen = new Set(tokens);
  for (const [w] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (tokens.length >= size) break;
    for (const t of [w, "##" + w]) {
      if (tokens.length < size && !seen.has(t)) {
        seen.add(t);
        tokens.push(t);
      }
    }
  }
  return tokens;
}

function encoderGraph(vocabSize: number): { nodes: Node[]; initializers: Initializer[] } {
  const { hidden: H, layers, heads, intermediate: F, positions } = BGE_SMALL_SHAPE;
  const dh = H / heads;
  const nodes: Node[] = [];
  const inits: Initializer[] = [];
  let seed = 1;
  const weight = (name: string, dims: number[], scale = 0.05) => {
    inits.push({
      name,
      dims,
      data: randomFloats(
        dims.reduce((a, b) => a * b, 1),
        scale,
        seed++,
      ),
    });
    return name;
  };
  const constant = (name: string, dims: number[], values: number[]) => {
    inits.push({ name, dims, data: Float32Array.from(values) });
    return name;
  };
  const ints = (name: string, dims: number[], values: number[]) => {
    inits.push({ name, dims, data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  };
  const op = (opType: string, inputs: string[], output: string, attributes?: Node["attributes"]) => {
    nodes.push(attributes ? { opType, inputs, outputs: [output], attributes } : { opType, inputs, outputs: [output] });
    return output;
  };
  const layerNorm = (x: string, name: string) =>
    op("LayerNormalization", [x, constant(`${name}.gamma`, [H], new Array(H).fill(1)), constant(`${name}.beta`, [H], new Array(H).fill(0))], `${name}.out`, [
      { name: "axis", int: -1 },
    ]);
  const dense = (x: string, name: string, inDim: number, outDim: number) =>
    op("Add", [op("MatMul", [x, weight(`${name}.w`, [inDim, outDim])], `${name}.mm`), weight(`${name}.b`, [outDim], 0.01)], `${name}.out`);

  // embeddings: word + token type + position, then LayerNorm
  const zero = ints("zero", [], [0]);
  const one = ints("one", [], [1]);
  const shape = op("Shape", ["input_ids"], "ids.shape");
  const seqLen = op("Gather", [shape, one], "seq_len", [{ name: "axis", int: 0 }]);
  const positionIds = op("Range", [zero, seqLen, one], "position_ids");
  const words = op("Gather", [weight("word_embeddings", [vocabSize, H]), "input_ids"], "emb.words");
  const types = op("Gather", [weight("token_type_embeddings", [2, H]), "token_type_ids"], "emb.types");
  const pos = op("Gather", [weight("position_embeddings", [positions, H]), positionIds], "emb.positions");
  let x = layerNorm(op("Add", [op("Add", [words, types], "emb.wt"), pos], "emb.sum"), "emb.ln");

  // additive attention mask [B, 1, 1, S]: 0 where attended, -10000 on padding
  const maskF = op("Cast", ["attention_mask"], "mask.f", [{ name: "to", int: DataType.FLOAT }]);
  const mask4 = op("Unsqueeze", [maskF, ints("mask.axes", [2], [1, 2])], "mask.4d");
  const maskAdd = op("Mul", [op("Sub", [constant("one.f", [], [1]), mask4], "mask.inv"), constant("neg.big", [], [-10000])], "mask.add");
  const headsShape = ints("heads.shape", [4], [0, 0, heads, dh]);
  const mergedShape = ints("merged.shape", [3], [0, 0, H]);
  const scale = constant("attn.scale", [], [1 / Math.sqrt(dh)]);

  for (let l = 0; l < layers; l++) {
    const p = `layer${l}`;
    const split = (t: string, perm: number[], name: string) =>
      op("Transpose", [op("Reshape", [t, headsShape], `${name}.r`)], `${name}.t`, [{ name: "perm", ints: perm }]);
    const q = split(dense(x, `${p}.q`, H, H), [0, 2, 1, 3], `${p}.qh`);
    const k = split(dense(x, `${p}.k`, H, H), [0, 2, 3, 1], `${p}.kh`);
    const v = split(dense(x, `${p}.v`, H, H), [0, 2, 1, 3], `${p}.vh`);
    const scores = op("Add", [op("Mul", [op("MatMul", [q, k], `${p}.qk`), scale], `${p}.scaled`), maskAdd], `${p}.masked`);
    const probs = op("Softmax", [scores], `${p}.probs`, [{ name: "axis", int: -1 }]);
    const ctx = op("Transpose", [op("MatMul", [probs, v], `${p}.ctx`)], `${p}.ctx.t`, [{ name: "perm", ints: [0, 2, 1, 3] }]);
    const merged = op("Reshape", [ctx, mergedShape], `${p}.merged`);
    const x1 = layerNorm(op("Add", [x, dense(merged, `${p}.o`, H, H)], `${p}.res1`), `${p}.ln1`);
    // GELU(h) = 0.5 · h · (1 + erf(h / √2))
    const h = dense(x1, `${p}.ff1`, H, F);
    const erf = op("Erf", [op("Div", [h, constant(`${p}.sqrt2`, [], [Math.SQRT2])], `${p}.h.s`)], `${p}.erf`);
    const gelu = op(
      "Mul",
      [op("Mul", [h, op("Add", [erf, constant(`${p}.one`, [], [1])], `${p}.erf1`)], `${p}.h.e`), constant(`${p}.half`, [], [0.5])],
      `${p}.gelu`,
    );
    x = layerNorm(op("Add", [x1, dense(gelu, `${p}.ff2`, F, H)], `${p}.res2`), `${p}.ln2`);
  }
  nodes.push({ opType: "Identity", inputs: [x], outputs: ["last_hidden_state"] });
  return { nodes, initializers: inits };
}

/** Writes the synthetic model folder (once: it is reused while its files exist). Returns the folder. */
export function writeSyntheticBert(dir: string, corpusTexts: () => string[]): string {
  if (existsSync(join(dir, "onnx", "model.onnx"))) return dir;
  const tokens = corpusVocabulary(corpusTexts(), BGE_SMALL_SHAPE.vocab);
  const { nodes, initializers } = encoderGraph(tokens.length);
  const seq = ["batch_size", "sequence_length"];
  const model = writeOnnxModel(
    {
      name: "synthetic-bge-small",
      nodes,
      initializers,
      inputs: ["input_ids", "attention_mask", "token_type_ids"].map((name) => ({ name, elemType: DataType.INT64, shape: seq })),
      outputs: [{ name: "last_hidden_state", elemType: DataType.FLOAT, shape: [...seq, BGE_SMALL_SHAPE.hidden] }],
    },
    { opset: 17, irVersion: 8 },
  );
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ model_type: "bert", architectures: ["BertModel"], hidden_size: BGE_SMALL_SHAPE.hidden, vocab_size: tokens.length }),
  );
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(wordPieceTokenizer(tokens)));
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(BERT_TOKENIZER_CONFIG));
  writeFileSync(join(dir, "onnx", "model.onnx"), model);
  return dir;
}

/** Source files under `root` with one of the extensions, sorted, for chunking and the vocabulary. */
export function sourceFiles(root: string, extensions: string[]): string[] {
  const out: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && extensions.some((x) => e.name.endsWith(x))) out.push(join(e.parentPath, e.name));
  }
  return out.sort();
}

export function readText(path: string): string {
  return readFileSync(path, "utf8");
}
