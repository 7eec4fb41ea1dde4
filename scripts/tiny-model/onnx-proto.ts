/**
 * A minimal ONNX writer: just enough of the protobuf wire format and of onnx.proto (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto) to write small inference graphs from TypeScript. It exists so the
 * tiny test model can be built on machines without Python's onnx package (CI has none).
 *
 * Field numbers are those of onnx/onnx.proto. Repeated scalars are written unpacked, which every protobuf
 * parser accepts for proto2 files such as onnx.proto. Also used by the embedding benchmark to write a
 * BERT-sized graph (scripts/bench/synthetic-bert.ts).
 */

/** Protobuf wire types. */
const VARINT = 0;
const LEN = 2;

/** ONNX TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, INT64: 7 } as const;

/** ONNX AttributeProto.AttributeType values used here. */
const AttributeType = { INT: 2, INTS: 7 } as const;

class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: number | bigint): void {
    let v = BigInt(value);
    if (v < 0n) v += 1n << 64n; // two's complement, as protobuf encodes negative int64
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    this.push(Uint8Array.from(out));
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, VARINT);
    this.varint(value);
    return this;
  }

  ints(field: number, values: Array<number | bigint>): this {
    for (const v of values) this.int(field, v);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, LEN);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.finish());
  }

  messages(field: number, values: ProtoWriter[]): this {
    for (const v of values) this.message(field, v);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
}

/** A graph input or output: a name, an element type and a shape of fixed sizes or symbolic names. */
export interface ValueInfo {
  name: string;
  elemType: number;
  shape: Array<number | string>;
}

export interface Attribute {
  name: string;
  int?: number;
  ints?: number[];
}

export interface Node {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Attribute[];
}

/** A constant tensor (an initializer). `data` holds the values in row-major order. */
export interface Initializer {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

export interface Graph {
  name: string;
  nodes: Node[];
  initializers: Initializer[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

function valueInfo(v: ValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of v.shape) {
    const dim = new ProtoWriter();
    if (typeof d === "number") dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new ProtoWriter().int(1, v.elemType).message(2, shape);
  const type = new ProtoWriter().message(1, tensorType);
  return new ProtoWriter().string(1, v.name).message(2, type);
}

function attribute(a: Attribute): ProtoWriter {
  const w = new ProtoWriter().string(1, a.name);
  if (a.ints !== undefined) return w.ints(8, a.ints).int(20, AttributeType.INTS);
  if (a.int !== undefined) return w.int(3, a.int).int(20, AttributeType.INT);
  throw new Error(`attribute ${a.name} has no value`);
}

function node(n: Node, index: number): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, `${n.opType.toLowerCase()}_${index}`).string(4, n.opType);
  return w.messages(5, (n.attributes ?? []).map(attribute));
}

function initializer(t: Initializer): ProtoWriter {
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (t.data.length !== expected) throw new Error(`initializer ${t.name}: ${t.data.length} values for dims ${t.dims.join("x")}`);
  // raw_data is little-endian; copy into a fresh buffer so a view's offset never leaks in
  const isInt = t.data instanceof BigInt64Array;
  const width = isInt ? 8 : 4;
  const raw = new Uint8Array(t.data.length * width);
  const view = new DataView(raw.buffer);
  if (t.data instanceof BigInt64Array) t.data.forEach((v, i) => view.setBigInt64(i * 8, v, true));
  else t.data.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return new ProtoWriter()
    .ints(1, t.dims)
    .int(2, isInt ? DataType.INT64 : DataType.FLOAT)
    .string(8, t.name)
    .bytes(9, raw);
}

/** Serialises a graph as an ONNX model file (default: IR version 7 with default-domain opset 13). */
export function writeOnnxModel(graph: Graph, options: { opset?: number; irVersion?: number; producer?: string } = {}): Uint8Array {
  const { opset: opsetVersion = 13, irVersion = 7, producer = "cortex" } = options;
  const g = new ProtoWriter()
    .messages(1, graph.nodes.map(node))
    .string(2, graph.name)
    .messages(5, graph.initializers.map(initializer))
    .messages(11, graph.inputs.map(valueInfo))
    .messages(12, graph.outputs.map(valueInfo));
  const opset = new ProtoWriter().string(1, "").int(2, opsetVersion);
  return new ProtoWriter().int(1, irVersion).string(2, producer).string(3, "1").message(7, g).message(8, opset).finish();
}
