// exportOnnx: Tessera models (zoo models and hand-written JSON) become ONNX opset-20 models
// that onnxruntime runs, and converting them back gives the same graph.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import onnxProto from 'onnx-proto';
import { convertOnnx, ConvertError, exportOnnx } from 'tessera/convert';

import { maxDifference, randomData, runOrt } from './helpers.mjs';

const kZoo = new URL('../../build/models/tessera-zoo', import.meta.url).pathname;

function feedsFor(json) {
  return Object.fromEntries(json.inputs.map((input, i) => [input.name, [input.shape, randomData(input.shape.reduce((a, b) => a * b, 1), i + 3)]]));
}

function weightsOf(values) {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return bytes;
}

// Legacy forms the engine reads (Clip/Squeeze/ReduceMean/Split attributes) next to opset-20 ones.
const kHandWritten = {
  format: 'tessera',
  version: 1,
  name: 'forms',
  inputs: [{ name: 'x', dtype: 'float32', shape: [1, 4] }],
  outputs: [{ name: 'y', dtype: 'float32', shape: [1, 2] }, { name: 'z', dtype: 'float32', shape: [1] }],
  initializers: [{ name: 'w', dtype: 'float32', shape: [4], offset: 0, length: 16 }],
  nodes: [
    { op: 'Clip', name: 'clip', inputs: ['x'], outputs: ['c'], attributes: { min: -1, max: 1 } },
    { op: 'Mul', name: 'scale', inputs: ['c', 'w'], outputs: ['m'] },
    { op: 'Split', name: 'split', inputs: ['m'], outputs: ['a', 'b'], attributes: { axis: 1, split: [2, 2] } },
    { op: 'Add', name: 'add', inputs: ['a', 'b'], outputs: ['y'] },
    { op: 'ReduceMean', name: 'mean', inputs: ['m'], outputs: ['r'], attributes: { axes: [1], keepdims: 0 } },
    { op: 'Unsqueeze', name: 'unsq', inputs: ['r'], outputs: ['u'], attributes: { axes: [1] } },
    { op: 'Squeeze', name: 'sq', inputs: ['u'], outputs: ['z'], attributes: { axes: [1] } },
  ],
};

describe('exportOnnx', () => {
  it('writes an opset-20 model with raw_data initializers and static float32 boundaries', () => {
    const model = onnxProto.onnx.ModelProto.decode(exportOnnx(kHandWritten, weightsOf([1, 2, 3, 4])));
    assert.deepEqual(model.opsetImport.map((o) => [o.domain, Number(o.version)]), [['', 20]]);
    const w = model.graph.initializer.find((t) => t.name === 'w');
    assert.equal(w.rawData.length, 16);
    const input = model.graph.input[0].type.tensorType;
    assert.equal(input.elemType, 1);
    assert.deepEqual(input.shape.dim.map((d) => Number(d.dimValue)), [1, 4]);
  });

  it('turns legacy attribute forms into opset-20 inputs that onnxruntime runs', async () => {
    const out = await runOrt(exportOnnx(kHandWritten, weightsOf([1, 2, 3, 4])), { x: [[1, 4], Float32Array.from([-2, -0.5, 0.5, 2])] });
    // c = [-1, -0.5, 0.5, 1]; m = c * w = [-1, -1, 1.5, 4]
    assert.deepEqual(Array.from(out.y.data), [0.5, 3]);
    assert.deepEqual(Array.from(out.z.data), [0.875]);
  });

  it('refuses what is not a Tessera model or points past its weights', () => {
    assert.throws(() => exportOnnx({ format: 'onnx' }), ConvertError);
    assert.throws(() => exportOnnx(kHandWritten, new Uint8Array(8)), /initializers\[0\] "w": bytes \[0, 16\) lie outside the 8-byte weights/);
    const unknown = { ...kHandWritten, nodes: [{ op: 'NonMaxSuppression', name: 't', inputs: ['x'], outputs: ['y'] }] };
    assert.throws(() => exportOnnx(unknown, weightsOf([1, 2, 3, 4])), /nodes\[0\] \(NonMaxSuppression "t"\): unknown op "NonMaxSuppression"/);
  });
});

describe('zoo models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-zoo-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const built = existsSync(kZoo) && spawnSync(kZoo, ['tiny', '-o', dir]).status === 0;
  const models = built ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];

  it('exist (build/models/tessera-zoo tiny)', { skip: built ? false : 'the zoo tool is not built' }, () => {
    assert.ok(models.length > 0);
  });

  for (const file of models) {
    it(`${file}: runs in onnxruntime and converts back to the same graph`, async () => {
      const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const weights = readFileSync(join(dir, json.weights ?? file.replace(/\.json$/, '.bin')));
      const exported = exportOnnx(json, weights);
      const feeds = feedsFor(json);
      const out = await runOrt(exported, feeds);
      for (const o of json.outputs) {
        assert.deepEqual(out[o.name].dims, o.shape);
        assert.ok(out[o.name].data.every(Number.isFinite));
      }
      const back = convertOnnx(exported, { name: json.name });
      assert.deepEqual(back.json.outputs, json.outputs);
      assert.deepEqual(back.json.inputs, json.inputs);
      assert.deepEqual(back.json.nodes, json.nodes);
      const entries = (m) => m.initializers.map(({ name, dtype, shape }) => ({ name, dtype, shape }));
      assert.deepEqual(entries(back.json), entries(json));
      const again = await runOrt(exportOnnx(back.json, back.weights), feeds);
      for (const o of json.outputs) assert.equal(maxDifference(out[o.name].data, again[o.name].data), 0);
    });
  }
});
