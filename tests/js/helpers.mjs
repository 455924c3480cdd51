// Test helpers: hand-built ONNX models (ModelProto via onnx-proto), reading converted
// initializers back, and checking converted models against onnxruntime-node.
import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import { convertOnnx, exportOnnx } from 'tessera/convert';

const { onnx } = onnxProto;
const A = onnx.AttributeProto.AttributeType;
export const T = onnx.TensorProto.DataType;

/** Marks a number (or list) as a FLOAT(S) attribute even when it is integral (1.0). */
export const float = (v) => ({ float: v });

function attribute(name, value) {
  if (Array.isArray(value?.float)) return { name, type: A.FLOATS, floats: value.float };
  if (value?.float !== undefined) return { name, type: A.FLOAT, f: value.float };
  if (value?.tensor) return { name, type: A.TENSOR, t: value.tensor };
  if (value?.sparse) return { name, type: A.SPARSE_TENSOR, sparseTensor: value.sparse };
  if (typeof value === 'string') return { name, type: A.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) {
    return value.every(Number.isInteger) ? { name, type: A.INTS, ints: value } : { name, type: A.FLOATS, floats: value };
  }
  return Number.isInteger(value) ? { name, type: A.INT, i: value } : { name, type: A.FLOAT, f: value };
}

/** A NodeProto; attribute types follow the JS values (see `float`). */
export function node(op, inputs, outputs, attrs = {}, name = undefined) {
  return {
    opType: op,
    name: name ?? outputs[0],
    input: inputs,
    output: outputs,
    attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
  };
}

/** A TensorProto; `fields` holds the storage, e.g. { floatData: [...] } or { rawData }. */
export function tensor(name, dataType, dims, fields) {
  return { name, dataType, dims, ...fields };
}

/** Little-endian raw_data bytes of `values` written with DataView method `setter`. */
export function raw(values, size, setter) {
  const bytes = new Uint8Array(values.length * size);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view[setter](i * size, v, true));
  return bytes;
}

export const float32Tensor = (name, dims, values) => tensor(name, T.FLOAT, dims, { rawData: raw(values, 4, 'setFloat32') });
export const int64Tensor = (name, dims, values) => tensor(name, T.INT64, dims, { int64Data: values });

function valueInfo([name, dims, elemType = T.FLOAT]) {
  const shape = dims === null ? undefined : {
    dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
  };
  return { name, type: { tensorType: { elemType, shape } } };
}

/**
 * ModelProto bytes. inputs/outputs: [name, dims, elemType?] with numbers or dim_param
 * strings (dims null: no shape); opset: default-domain version.
 */
export function model({ opset = 17, inputs, outputs, nodes, initializers = [], name = 'test', irVersion = 8 }) {
  return onnx.ModelProto.encode({
    irVersion,
    opsetImport: [{ domain: '', version: opset }],
    graph: {
      name,
      node: nodes,
      initializer: initializers,
      input: inputs.map(valueInfo),
      output: outputs.map(valueInfo),
    },
  }).finish();
}

/** The values of initializer `name` in a converted model, as numbers. */
export function initializerValues({ json, weights }, name) {
  const entry = json.initializers.find((i) => i.name === name);
  if (!entry) throw new Error(`no initializer "${name}"`);
  const view = new DataView(weights.buffer, weights.byteOffset + entry.offset, entry.length);
  const size = entry.dtype === 'int64' ? 8 : 4;
  return Array.from({ length: entry.length / size }, (_, i) => {
    if (entry.dtype === 'int64') return Number(view.getBigInt64(i * size, true));
    return entry.dtype === 'int32' ? view.getInt32(i * size, true) : view.getFloat32(i * size, true);
  });
}

/** The initializer feeding input `index` of the converted node with op `op`. */
export function nodeInputValues(result, op, index) {
  const n = result.json.nodes.find((x) => x.op === op);
  return initializerValues(result, n.inputs[index]);
}

/** Deterministic pseudo-random float32 data in [-1, 1) (LCG; the seed is fixed). */
export function randomData(count, seed = 1) {
  const data = new Float32Array(count);
  let s = seed;
  for (let i = 0; i < count; ++i) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = (s / 2 ** 32) * 2 - 1;
  }
  return data;
}

/** Runs ONNX bytes in onnxruntime on `feeds` ({ name: [shape, Float32Array] }); returns { name: tensor }. */
export async function runOrt(bytes, feeds) {
  const session = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });  // old-opset warnings are expected
  const inputs = Object.fromEntries(Object.entries(feeds).map(([k, [shape, data]]) => [k, new ort.Tensor('float32', data, shape)]));
  return session.run(inputs);
}

/** Largest absolute difference between two float arrays of equal length. */
export function maxDifference(a, b) {
  if (a.length !== b.length) throw new Error(`lengths differ: ${a.length} vs ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/**
 * Runs the original ONNX model and its conversion (convert -> export) in onnxruntime on the
 * same random inputs; returns the largest output difference.
 */
export async function conversionDifference(bytes, inputShapes = {}) {
  const { json, weights } = convertOnnx(bytes, { inputShapes });
  const feeds = Object.fromEntries(json.inputs.map((input, i) =>
    [input.name, [input.shape, randomData(input.shape.reduce((a, b) => a * b, 1), i + 1)]]));
  const expected = await runOrt(bytes, feeds);
  const actual = await runOrt(exportOnnx(json, weights), feeds);
  let worst = 0;
  for (const output of json.outputs) {
    if (expected[output.name].dims.join() !== actual[output.name].dims.join()) {
      throw new Error(`output "${output.name}": shape [${expected[output.name].dims}] vs [${actual[output.name].dims}]`);
    }
    worst = Math.max(worst, maxDifference(expected[output.name].data, actual[output.name].data));
  }
  return worst;
}
