// Writes a converted graph as docs/model-format.md's JSON object plus one weights buffer
// (64-byte aligned initializers), and formats that JSON one entry per line.
import { ConvertError } from './errors.js';
import { attributeKind } from './ops.js';
import { storedType, tensorBytes } from './tensor.js';

const kAlignment = 64;

/** A file-system-safe stem for `name` (used for <stem>.json and <stem>.bin). */
export function fileStem(name) {
  return (name || 'model').replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** The shortest decimal that reads back as the same float32 (1e-5, not 9.99999974737875e-6). */
function shortestFloat(value) {
  const f = Math.fround(value);
  for (let digits = 1; digits < 9; ++digits) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) return candidate;
  }
  return f;
}

// A tensor attribute as the format writes it: { dtype, shape, values }.
function jsonTensor(tensor) {
  const dtype = storedType(tensor);
  const values = Array.from(tensor.data, (v) => (dtype === 'float32' ? shortestFloat(v) : dtype === 'bool' ? +!!v : v));
  return { dtype, shape: tensor.shape, values };
}

function jsonAttributes(node) {
  const out = {};
  for (const [name, value] of Object.entries(node.attrs)) {
    const kind = attributeKind(node.op, name);
    if (kind === 'tensor') {
      out[name] = jsonTensor(value.tensor);
    } else if (kind === 'float' || kind === 'floats') {
      const values = kind === 'float' ? [value] : value;
      if (values.some((v) => !Number.isFinite(v))) {
        // An infinite Clip bound bounds nothing; elsewhere JSON cannot carry it.
        if (node.op === 'Clip') continue;
        throw new ConvertError(`node "${node.name}" (${node.op}): attribute "${name}" is not finite`);
      }
      out[name] = kind === 'float' ? shortestFloat(value) : value.map(shortestFloat);
    } else {
      out[name] = value;
    }
  }
  return out;
}

/**
 * The Tessera model for `graph` (graph.js): `{ json, weights }`, where json follows
 * docs/model-format.md (format version graph.version) and weights holds every initializer
 * at a 64-byte aligned offset.
 */
export function emitModel(graph, name) {
  const initializers = [];
  const chunks = [];
  let offset = 0;
  for (const [tensorName, tensor] of graph.constants) {
    if (tensor.data.length === 0) {
      throw new ConvertError(`constant "${tensorName}" has shape [${tensor.shape}] with no elements, which Tessera cannot store`);
    }
    const bytes = tensorBytes(tensor);
    offset = Math.ceil(offset / kAlignment) * kAlignment;
    initializers.push({ name: tensorName, dtype: storedType(tensor), shape: tensor.shape, offset, length: bytes.length });
    chunks.push([offset, bytes]);
    offset += bytes.length;
  }
  const weights = new Uint8Array(offset);
  for (const [at, bytes] of chunks) weights.set(bytes, at);
  const json = {
    format: 'tessera',
    version: graph.version,
    name,
    weights: `${fileStem(name)}.bin`,
    inputs: graph.inputs.map((i) => ({ name: i.name, dtype: i.dtype, shape: i.shape })),
    outputs: graph.outputs.map((o) => ({ name: o.name, dtype: o.dtype, shape: o.shape })),
    initializers,
    nodes: graph.nodes.map((node) => {
      const inputs = [...node.inputs];
      while (inputs.length && inputs.at(-1) === '') inputs.pop();  // trailing omitted inputs say nothing
      const entry = { op: node.op, name: node.name, inputs, outputs: node.outputs };
      const attributes = jsonAttributes(node);
      if (Object.keys(attributes).length) entry.attributes = attributes;
      return entry;
    }),
  };
  return { json, weights };
}

/** Model JSON text with one line per input, output, initializer and node (readable diffs). */
export function stringifyModel(json) {
  const lines = Object.entries(json).map(([key, value]) => {
    if (!Array.isArray(value) || value.length === 0) return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return `  ${JSON.stringify(key)}: [\n${value.map((v) => `    ${JSON.stringify(v)}`).join(',\n')}\n  ]`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}
