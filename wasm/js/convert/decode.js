// ONNX protobuf -> the converter's plain graph: nodes with JS attribute values, constant
// tensors, and boundary tensors with their declared (possibly symbolic) dimensions.
import onnxProto from 'onnx-proto';

import { ConvertError } from './errors.js';
import { dtypeName, tensorFromProto, toNumber } from './tensor.js';

const { onnx } = onnxProto;
const kAttr = onnx.AttributeProto.AttributeType;
const utf8 = new TextDecoder();

/** Decodes ModelProto bytes, turning protobuf failures into one readable error. */
function decodeModelProto(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new ConvertError('expected the ONNX model as a Uint8Array');
  if (bytes.length === 0) throw new ConvertError('not an ONNX model: the file is empty');
  let model;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (e) {
    throw new ConvertError(`not a valid ONNX model (the file is truncated or not ONNX protobuf): ${e.message}`);
  }
  if (!model.graph) throw new ConvertError('not an ONNX model: it has no graph');
  return model;
}

// The type an attribute holds; very old models leave `type` unset, so look at the fields.
function attributeType(a) {
  if (a.type) return a.type;
  if (a.floats?.length) return kAttr.FLOATS;
  if (a.ints?.length) return kAttr.INTS;
  if (a.strings?.length) return kAttr.STRINGS;
  if (a.t) return kAttr.TENSOR;
  if (a.g) return kAttr.GRAPH;
  if (a.s?.length) return kAttr.STRING;
  if (a.f) return kAttr.FLOAT;
  return kAttr.INT;
}

/** Attribute value as plain JS: numbers, strings, arrays, tensors; graphs stay opaque. */
function attributeValue(a, where) {
  switch (attributeType(a)) {
    case kAttr.FLOAT: return a.f;
    case kAttr.INT: return toNumber(a.i);
    case kAttr.STRING: return utf8.decode(a.s);
    case kAttr.FLOATS: return [...a.floats];
    case kAttr.INTS: return a.ints.map(toNumber);
    case kAttr.STRINGS: return a.strings.map((s) => utf8.decode(s));
    case kAttr.TENSOR: return { tensor: tensorFromProto(a.t, `${where} attribute "${a.name}"`) };
    case kAttr.SPARSE_TENSOR: return { sparse: true };
    case kAttr.GRAPH: case kAttr.GRAPHS: return { graph: true };
    default: return { unsupported: attributeType(a) };
  }
}

function boundary(info) {
  const tensorType = info.type?.tensorType;
  const dims = tensorType?.shape
    ? tensorType.shape.dim.map((d) => (d.value === 'dimValue' ? toNumber(d.dimValue) : d.dimParam || null))
    : null;
  return { name: info.name, dtype: tensorType ? dtypeName(tensorType.elemType) : 'unknown', dims };
}

/**
 * The model as the converter's graph:
 * { name, opset, inputs: [{name, dtype, dims}], outputs: [...], constants: Map(name -> tensor),
 *   nodes: [{op, domain, name, inputs, outputs, attrs}] }.
 * `dims` entries are numbers, dim_param strings, or null for unnamed dynamic dimensions.
 */
export function decodeModel(bytes) {
  const model = decodeModelProto(bytes);
  const graph = model.graph;
  const opsetEntry = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === 'ai.onnx');
  // Models from before opset imports existed are opset 1.
  const opset = opsetEntry ? toNumber(opsetEntry.version) : 1;
  const constants = new Map();
  for (const t of graph.initializer ?? []) {
    if (!t.name) throw new ConvertError('an initializer has no name');
    constants.set(t.name, tensorFromProto(t, 'initializer'));
  }
  for (const s of graph.sparseInitializer ?? []) {
    throw new ConvertError(`sparse initializer "${s.values?.name ?? ''}" is not supported`);
  }
  const nodes = (graph.node ?? []).map((n, index) => {
    const where = `node ${index} (${n.opType})`;
    const attrs = {};
    for (const a of n.attribute ?? []) attrs[a.name] = attributeValue(a, where);
    return {
      op: n.opType,
      domain: n.domain && n.domain !== 'ai.onnx' ? n.domain : '',
      name: n.name ?? '',
      inputs: [...(n.input ?? [])],
      outputs: [...(n.output ?? [])],
      attrs,
    };
  });
  return {
    name: graph.name || '',
    opset,
    // IR < 4 lists initializers among the inputs too; those are constants, not inputs.
    inputs: (graph.input ?? []).filter((i) => !constants.has(i.name)).map(boundary),
    outputs: (graph.output ?? []).map(boundary),
    constants,
    nodes,
  };
}
