// The ONNX backend test data Debian ships (libonnx-testdata): discovery and decoding.
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';

import { dtypeName } from '../../wasm/js/convert/tensor.js';

const { onnx } = onnxProto;

export const SUITE_ROOT = '/usr/share/libonnx-testdata/data';
export const SUITE_DIRS = ['node', 'pytorch-converted', 'pytorch-operator'];

/** Every test directory: { name, dir, group }. */
export function discoverTests(root = SUITE_ROOT) {
  const tests = [];
  for (const group of SUITE_DIRS) {
    const base = path.join(root, group);
    if (!fs.existsSync(base)) continue;
    for (const name of fs.readdirSync(base).sort()) {
      const dir = path.join(base, name);
      if (fs.existsSync(path.join(dir, 'model.onnx'))) tests.push({ name, dir, group });
    }
  }
  return tests;
}

export function decodeModel(dir) {
  return onnx.ModelProto.decode(fs.readFileSync(path.join(dir, 'model.onnx')));
}

/** The data sets of a test: [{ inputs: [TensorProto], outputs: [TensorProto] }]. */
export function readDataSets(dir) {
  const sets = [];
  for (const entry of fs.readdirSync(dir).sort()) {
    if (!entry.startsWith('test_data_set_')) continue;
    const setDir = path.join(dir, entry);
    const read = (prefix) => fs.readdirSync(setDir)
      .filter((f) => f.startsWith(prefix) && f.endsWith('.pb'))
      .sort((a, b) => Number(a.slice(prefix.length, -3)) - Number(b.slice(prefix.length, -3)))
      .map((f) => onnx.TensorProto.decode(fs.readFileSync(path.join(setDir, f))));
    sets.push({ inputs: read('input_'), outputs: read('output_') });
  }
  return sets;
}

export const DataType = onnx.TensorProto.DataType;
/** The converter's name of an ONNX data type number: "float32", "int64", "float64", ... */
export const dataTypeName = (t) => dtypeName(t);

export const dims = (tensor) => tensor.dims.map(Number);
const numel = (shape) => shape.reduce((n, d) => n * d, 1);

/**
 * The kind of value a graph input or output (ValueInfoProto) holds: "tensor", "sequence",
 * "optional", "map" or "sparse tensor", and for tensors the converter's dtype name.
 */
export function valueType(info) {
  const type = info.type ?? {};
  if (type.tensorType) return { kind: 'tensor', dtype: dtypeName(type.tensorType.elemType) };
  if (type.sequenceType) return { kind: 'sequence' };
  if (type.optionalType) return { kind: 'optional' };
  if (type.mapType) return { kind: 'map' };
  if (type.sparseTensorType) return { kind: 'sparse tensor' };
  return { kind: 'unknown' };
}

// The typed array that holds each of Tessera's tensor types, element by element (bool as one
// byte), exactly: int64 as BigInt64Array, so no value is rounded through a double.
const kArrays = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array, uint8: Uint8Array };

/** Is `dtype` (converter name) one of the types Tessera's tensors have? */
export const isTesseraType = (dtype) => Object.hasOwn(kArrays, dtype);

/**
 * The values of a TensorProto of one of Tessera's types as a typed array of that type
 * (raw_data as little-endian bytes, or the typed repeated field onnx.proto assigns it).
 */
export function tensorValues(tensor) {
  const dtype = dtypeName(tensor.dataType);
  const Typed = kArrays[dtype];
  if (!Typed) throw new Error(`tensor "${tensor.name}" is ${dtype}, not one of Tessera's types`);
  const n = numel(dims(tensor));
  let values;
  if (tensor.rawData && tensor.rawData.length > 0) {
    const bytes = Uint8Array.from(tensor.rawData);  // a copy: aligned for any element size
    values = new Typed(bytes.buffer, 0, bytes.length / Typed.BYTES_PER_ELEMENT);
  } else if (dtype === 'float32') {
    values = Float32Array.from(tensor.floatData);
  } else if (dtype === 'int64') {
    values = BigInt64Array.from(tensor.int64Data, (v) => BigInt(typeof v === 'number' ? v : v.toString()));
  } else {
    values = Typed.from(tensor.int32Data);  // int32, uint8 and bool live in int32_data
  }
  if (values.length !== n) {
    throw new Error(`tensor "${tensor.name}" holds ${values.length} values, its dims [${dims(tensor)}] need ${n}`);
  }
  return values;
}

/** The raw little-endian bytes of a tensor's values, as `tessera run --input` reads them. */
export function tensorBytes(tensor) {
  const values = tensorValues(tensor);
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** The values of a raw output file of `dtype`, as tensorValues returns them. */
export function valuesFromBytes(bytes, dtype) {
  const Typed = kArrays[dtype];
  if (!Typed) throw new Error(`output dtype ${dtype} is not one of Tessera's types`);
  if (bytes.length % Typed.BYTES_PER_ELEMENT !== 0) throw new Error(`${bytes.length} bytes are not whole ${dtype} values`);
  const copy = Uint8Array.from(bytes);
  return new Typed(copy.buffer, 0, copy.length / Typed.BYTES_PER_ELEMENT);
}

/** The model with `tensors` (TensorProtos named like graph inputs) turned into initializers. */
export function bakeInputs(model, tensors) {
  const names = new Set(tensors.map((t) => t.name));
  model.graph.input = model.graph.input.filter((i) => !names.has(i.name));
  model.graph.initializer.push(...tensors);
  return onnx.ModelProto.encode(model).finish();
}
