// The ONNX backend test data Debian ships (libonnx-testdata): discovery and decoding.
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';

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
export const dataTypeName = (t) => Object.keys(DataType).find((k) => DataType[k] === t) ?? String(t);

/** Float32 values of a FLOAT TensorProto (raw_data or float_data). */
export function floatValues(tensor) {
  if (tensor.rawData && tensor.rawData.length > 0) {
    const bytes = Uint8Array.from(tensor.rawData);
    return new Float32Array(bytes.buffer, 0, bytes.length / 4);
  }
  return Float32Array.from(tensor.floatData);
}

export const dims = (tensor) => tensor.dims.map(Number);

/** The model with `tensors` (TensorProtos named like graph inputs) turned into initializers. */
export function bakeInputs(model, tensors) {
  const names = new Set(tensors.map((t) => t.name));
  model.graph.input = model.graph.input.filter((i) => !names.has(i.name));
  model.graph.initializer.push(...tensors);
  return onnx.ModelProto.encode(model).finish();
}
