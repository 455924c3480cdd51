// A tiny ONNX graph builder over onnx-proto, laid out the way torch.onnx.export writes
// models: opset 17, ir_version 8, initializers as raw_data, symbolic (dim_param) boundary
// dims, scoped node names ("/encoder/layer.0/attention/self/Reshape", "..._1" on repeats),
// outputs named "<node>_output_0" and small constants as Constant nodes.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const kAttr = onnx.AttributeProto.AttributeType;
const utf8 = new TextEncoder();

/** TensorProto element types used by the generators. */
export const FLOAT = 1;
export const INT64 = 7;
export const BOOL = 9;

// Float-valued attributes that may hold whole numbers (epsilon = 1 would otherwise become an INT).
const kFloatAttrs = new Set(['alpha', 'beta', 'epsilon', 'cubic_coeff_a', 'extrapolation_value']);

/** A deterministic PRNG (mulberry32): returns a function giving floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` floats uniform in [-scale, scale) (torch's default Linear/Conv init is ±1/sqrt(fan_in)). */
export function uniform(random, count, scale) {
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = (random() * 2 - 1) * scale;
  return data;
}

/** An int64 tensor's data from JS numbers. */
export const i64 = (...values) => BigInt64Array.from(values, BigInt);
/** A float32 tensor's data from JS numbers. */
export const f32 = (...values) => Float32Array.from(values);

// Raw little-endian bytes (typed arrays are little-endian on every platform Node runs on).
function tensorProto(name, data, dims) {
  const dataType = data instanceof Float32Array ? FLOAT : data instanceof BigInt64Array ? INT64 : 0;
  if (!dataType) throw new Error(`${name}: expected a Float32Array or BigInt64Array`);
  const count = dims.reduce((n, d) => n * d, 1);
  if (count !== data.length) throw new Error(`${name}: ${data.length} values for dims [${dims}]`);
  return { name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function attribute(name, value) {
  const isFloat = (v) => kFloatAttrs.has(name) || !Number.isInteger(v);
  if (value?.data) return { name, type: kAttr.TENSOR, t: tensorProto('', value.data, value.dims) };
  if (typeof value === 'string') return { name, type: kAttr.STRING, s: utf8.encode(value) };
  if (Array.isArray(value)) {
    return value.some(isFloat) ? { name, type: kAttr.FLOATS, floats: value } : { name, type: kAttr.INTS, ints: value };
  }
  if (typeof value === 'number') return isFloat(value) ? { name, type: kAttr.FLOAT, f: value } : { name, type: kAttr.INT, i: value };
  throw new Error(`attribute ${name}: unsupported value ${JSON.stringify(value)}`);
}

// Numbers are fixed dims (dim_value), strings symbolic ones (dim_param).
function valueInfo(name, elemType, dims) {
  const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/** One graph under construction; `toBytes()` gives the serialized ModelProto. */
export class OnnxGraph {
  #nodeNames = new Map();

  constructor(name) {
    this.name = name;
    this.inputs = [];
    this.outputs = [];
    this.initializers = [];
    this.nodes = [];
  }

  input(name, elemType, dims) {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Declares graph output `name` (a value some node produces) with its type and dims. */
  output(name, elemType, dims) {
    this.outputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  initializer(name, data, dims) {
    this.initializers.push(tensorProto(name, data, dims));
    return name;
  }

  /**
   * Adds a node; `outputs` is a list of names or a count (default 1) of "<name>_output_<i>"
   * values. Returns the output name, or the list of names when there are several.
   */
  node(op, inputs, attrs = {}, { name = `/${op}`, outputs = 1 } = {}) {
    const nodeName = this.#unique(name);
    const output = Array.isArray(outputs) ? outputs : Array.from({ length: outputs }, (_, i) => `${nodeName}_output_${i}`);
    const attributes = Object.entries(attrs).map(([key, value]) => attribute(key, value));
    this.nodes.push({ opType: op, name: nodeName, input: inputs, output, attribute: attributes });
    return output.length === 1 ? output[0] : output;
  }

  /** Node helpers named under one module path, like torch's scope names. */
  scope(prefix) {
    return new Scope(this, prefix);
  }

  toBytes() {
    const model = {
      irVersion: 8,
      producerName: 'tessera-tests',
      producerVersion: '1',
      opsetImport: [{ domain: '', version: 17 }],
      graph: { name: this.name, node: this.nodes, initializer: this.initializers, input: this.inputs, output: this.outputs },
    };
    return onnx.ModelProto.encode(model).finish();
  }

  // torch numbers repeated names within a scope: Shape, Shape_1, Shape_2, ...
  #unique(name) {
    const seen = this.#nodeNames.get(name) ?? 0;
    this.#nodeNames.set(name, seen + 1);
    return seen === 0 ? name : `${name}_${seen}`;
  }
}

/** Nodes named "<prefix>/<Op>", Constant nodes, and the Shape -> Gather -> Unsqueeze -> Concat idiom. */
class Scope {
  constructor(graph, prefix) {
    this.graph = graph;
    this.prefix = prefix;
  }

  node(op, inputs, attrs = {}, options = {}) {
    return this.graph.node(op, inputs, attrs, { name: `${this.prefix}/${op}`, ...options });
  }

  constant(data, dims) {
    return this.node('Constant', [], { value: { data, dims } });
  }

  /** Scalar int64 / float constants and a 1-D int64 constant (Unsqueeze axes, shape pieces). */
  int(value) { return this.constant(i64(value), []); }
  float(value) { return this.constant(f32(value), []); }
  ints(values) { return this.constant(i64(...values), [values.length]); }

  /** Dimension `axis` of `x` at run time, as an int64 scalar (x.size(axis) in torch). */
  dim(x, axis) {
    return this.node('Gather', [this.node('Shape', [x]), this.int(axis)], { axis: 0 });
  }

  /** A 1-D int64 shape from run-time scalars (names) and fixed sizes (numbers), via Unsqueeze + Concat. */
  shape(parts) {
    const pieces = parts.map((p) => (typeof p === 'number' ? this.ints([p]) : this.node('Unsqueeze', [p, this.ints([0])])));
    return this.node('Concat', pieces, { axis: 0 });
  }
}
