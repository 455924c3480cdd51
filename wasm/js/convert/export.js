// Tessera model -> ONNX (opset 20), so exactly the same graph and weights can run in
// onnxruntime: older forms the engine also reads (Clip/Squeeze/Reduce/Split attributes)
// become the opset-20 inputs.
import onnxProto from 'onnx-proto';

import { ConvertError } from './errors.js';
import { UniqueNames } from './names.js';
import { attributeInputs, attributeKind, isEngineOp } from './ops.js';
import { kOnnxType, kStoredSizes, tensorBytes, tensorFrom } from './tensor.js';

const { onnx } = onnxProto;
const kAttr = onnx.AttributeProto.AttributeType;
const kOpset = 20;
const kIrVersion = 9;  // the IR version that introduced opset 20
const utf8 = new TextEncoder();

// A graph input or output: its dtype (float32 in version 1) and dims, symbols as dim_param.
function valueInfo(entry, where) {
  if (typeof entry?.name !== 'string' || !Array.isArray(entry.shape)) {
    throw new ConvertError(`${where}: needs a name and a shape`);
  }
  const dtype = entry.dtype ?? 'float32';
  if (!Object.hasOwn(kStoredSizes, dtype)) throw new ConvertError(`${where}: unsupported dtype ${JSON.stringify(dtype)}`);
  const dim = entry.shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return { name: entry.name, type: { tensorType: { elemType: kOnnxType[dtype], shape: { dim } } } };
}

// A tensor attribute of the format ({ dtype, shape, values }) as a TensorProto.
function tensorProto(value, where) {
  if (!Object.hasOwn(kStoredSizes, value?.dtype) || !Array.isArray(value.shape) || !Array.isArray(value.values)) {
    throw new ConvertError(`${where}: a tensor attribute needs a dtype, a shape and values`);
  }
  const tensor = tensorFrom(value.dtype, value.shape, value.values);
  return { dims: value.shape, dataType: kOnnxType[value.dtype], rawData: tensorBytes(tensor) };
}

function initializer(entry, weights, index) {
  const where = `initializers[${index}] "${entry?.name}"`;
  const size = kStoredSizes[entry?.dtype];
  if (!size) throw new ConvertError(`${where}: unsupported dtype ${JSON.stringify(entry?.dtype)}`);
  const { offset, length } = entry;
  if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || offset + length > weights.length) {
    throw new ConvertError(`${where}: bytes [${offset}, ${offset + length}) lie outside the ${weights.length}-byte weights`);
  }
  const count = entry.shape.reduce((n, d) => n * d, 1);
  if (count * size !== length) throw new ConvertError(`${where}: length ${length} does not match shape [${entry.shape}]`);
  return { name: entry.name, dims: entry.shape, dataType: kOnnxType[entry.dtype], rawData: weights.slice(offset, offset + length) };
}

/** AttributeProto writers for each attribute kind of the operator schema. */
export const kAttributeWriters = {
  int: (name, value) => ({ name, type: kAttr.INT, i: value }),
  float: (name, value) => ({ name, type: kAttr.FLOAT, f: value }),
  string: (name, value) => ({ name, type: kAttr.STRING, s: utf8.encode(value) }),
  ints: (name, value) => ({ name, type: kAttr.INTS, ints: value }),
  floats: (name, value) => ({ name, type: kAttr.FLOATS, floats: value }),
  tensor: (name, value, where) => ({ name, type: kAttr.TENSOR, t: tensorProto(value, `${where}: attribute "${name}"`) }),
};

/**
 * Input tensors for attributes the latest opset takes as inputs (schema "attr_inputs"), by
 * attribute kind: a float becomes a float32 scalar, a list of integers an int64 vector.
 */
export const kAttributeInputTensors = {
  float: (value) => tensorFrom('float32', [], [value]),
  floats: (value) => tensorFrom('float32', [value.length], value),
  int: (value) => tensorFrom('int64', [], [value]),
  ints: (value) => tensorFrom('int64', [value.length], value),
};

function attribute(op, name, value, where) {
  const write = kAttributeWriters[attributeKind(op, name)];
  if (!write) throw new ConvertError(`${where}: unknown attribute "${name}"`);
  return write(name, value, where);
}

/**
 * Converts a Tessera model (JSON object + weights bytes, format version 1 or 2) to an ONNX
 * ModelProto (opset 20, initializers as raw_data, inputs and outputs with their dtypes and
 * dims, symbolic dims as dim_param).
 *
 * @param {object} json the model JSON (docs/model-format.md)
 * @param {Uint8Array} [weightsBytes] the weights file's bytes (may be omitted without initializers)
 * @returns {Uint8Array} the .onnx file's bytes
 * @throws {ConvertError} when the JSON is not a Tessera model or refers past the weights
 */
export function exportOnnx(json, weightsBytes = new Uint8Array(0)) {
  if (json?.format !== 'tessera' || (json.version !== 1 && json.version !== 2)) {
    throw new ConvertError('not a Tessera model: expected "format": "tessera" and "version": 1 or 2');
  }
  for (const key of ['inputs', 'outputs', 'nodes']) {
    if (!Array.isArray(json[key])) throw new ConvertError(`model: "${key}" must be a list`);
  }
  const initializers = (json.initializers ?? []).map((entry, i) => initializer(entry, weightsBytes, i));
  const names = new UniqueNames([...initializers.map((t) => t.name), ...json.inputs.map((i) => i.name), ...json.nodes.flatMap((n) => n.outputs ?? [])]);
  const constant = (hint, tensor) => {
    const name = names.unique(hint);
    initializers.push({ name, dims: tensor.shape, dataType: kOnnxType[tensor.dtype], rawData: tensorBytes(tensor) });
    return name;
  };
  const nodes = json.nodes.map((node, index) => {
    const where = `nodes[${index}] (${node.op} "${node.name}")`;
    if (!isEngineOp(node.op)) throw new ConvertError(`${where}: unknown op "${node.op}"`);
    const attrs = { ...(node.attributes ?? {}) };
    const inputs = [...node.inputs];
    const moveToInput = (name, at, tensor) => {
      while (inputs.length < at) inputs.push('');
      inputs[at] = constant(`${node.name}_${name}`, tensor);
      delete attrs[name];
    };
    // Opset 20 takes these as inputs (the schema's attr_inputs); the engine reads either form.
    // The highest input first, so that lower ones fill the omitted slots before it.
    const moved = Object.entries(attributeInputs(node.op)).sort((a, b) => b[1] - a[1]);
    for (const [name, at] of moved) {
      if (attrs[name] !== undefined) moveToInput(name, at, kAttributeInputTensors[attributeKind(node.op, name)](attrs[name]));
    }
    // Opset 18+ needs the part count stated when no sizes are given.
    if (node.op === 'Split' && !inputs[1] && attrs.num_outputs === undefined) attrs.num_outputs = node.outputs.length;
    return {
      opType: node.op,
      name: node.name,
      input: inputs,
      output: node.outputs,
      attribute: Object.entries(attrs).map(([name, value]) => attribute(node.op, name, value, where)),
    };
  });
  const model = {
    irVersion: kIrVersion,
    producerName: 'tessera',
    producerVersion: '0.1.0',
    opsetImport: [{ domain: '', version: kOpset }],
    graph: {
      name: json.name ?? 'tessera',
      node: nodes,
      initializer: initializers,
      input: json.inputs.map((e, i) => valueInfo(e, `inputs[${i}]`)),
      output: json.outputs.map((e, i) => valueInfo(e, `outputs[${i}]`)),
    },
  };
  return onnx.ModelProto.encode(model).finish();
}
