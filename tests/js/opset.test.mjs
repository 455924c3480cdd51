// Opset normalisation: each rewrite yields the form docs/model-format.md describes, and where
// onnxruntime runs the old form, the converted model (exported at opset 20) computes the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { convertOnnx } from 'tessera/convert';

import {
  T, conversionDifference, float, float32Tensor, initializerValues, int64Tensor, model, node, randomData,
} from './helpers.mjs';

const ops = (result) => result.json.nodes.map((n) => n.op);
const single = (opset, op, inputs, outputs, attrs, initializers = [], extraOutputs = []) => model({
  opset,
  inputs,
  outputs,
  initializers,
  nodes: [node(op, inputs.map((i) => i[0]).concat(initializers.map((t) => t.name)), outputs.map((o) => o[0]).concat(extraOutputs), attrs)],
});

describe('Slice', () => {
  it('opset 9 attributes become constant starts/ends/axes inputs', async () => {
    const bytes = single(9, 'Slice', [['x', [3, 8]]], [['y', [2, 6]]], { starts: [1, -6], ends: [3, 100], axes: [0, 1] });
    const result = convertOnnx(bytes);
    const slice = result.json.nodes[0];
    assert.equal(slice.inputs.length, 4);
    assert.equal(slice.attributes, undefined);
    assert.deepEqual([1, 2, 3].map((i) => initializerValues(result, slice.inputs[i])), [[1, -6], [3, 100], [0, 1]]);
    assert.equal(await conversionDifference(bytes), 0);
  });

  it('opset 13 negative steps are kept and shaped as ONNX clamps them', async () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', [4, 6]]],
      outputs: [['y', [4, 3]]],
      initializers: [int64Tensor('s', [1], [-1]), int64Tensor('e', [1], [-100]), int64Tensor('a', [1], [1]), int64Tensor('st', [1], [-2])],
      nodes: [node('Slice', ['x', 's', 'e', 'a', 'st'], ['y'])],
    });
    assert.equal(await conversionDifference(bytes), 0);
  });
});

describe('Pad', () => {
  it('opset 2 attributes become pads and constant_value inputs', async () => {
    for (const mode of ['constant', 'reflect', 'edge']) {
      const bytes = single(2, 'Pad', [['x', [1, 2, 4, 4]]], [['y', [1, 2, 7, 7]]], { pads: [0, 0, 1, 2, 0, 0, 2, 1], mode, value: float(0.5) });
      const result = convertOnnx(bytes);
      const pad = result.json.nodes[0];
      assert.deepEqual(initializerValues(result, pad.inputs[1]), [0, 0, 1, 2, 0, 0, 2, 1]);
      assert.deepEqual(initializerValues(result, pad.inputs[2]), [0.5]);
      assert.deepEqual(pad.attributes, { mode });
      assert.equal(await conversionDifference(bytes), 0, mode);
    }
  });
});

describe('Softmax before opset 13', () => {
  it('coerces to 2-D as Reshape -> Softmax(axis=-1) -> Reshape when axis is not the last', async () => {
    const bytes = single(11, 'Softmax', [['x', [2, 3, 4]]], [['y', [2, 3, 4]]], { axis: 1 });
    const result = convertOnnx(bytes);
    assert.deepEqual(ops(result), ['Reshape', 'Softmax', 'Reshape']);
    assert.deepEqual(result.json.nodes[1].attributes, { axis: -1 });
    assert.deepEqual(initializerValues(result, result.json.nodes[0].inputs[1]), [2, -1]);
    assert.deepEqual(initializerValues(result, result.json.nodes[2].inputs[1]), [2, 3, 4]);
    assert.ok(await conversionDifference(bytes) < 1e-6);
  });

  it('stays one Softmax when the axis is the last, with the old default axis made explicit', async () => {
    const last = convertOnnx(single(11, 'Softmax', [['x', [2, 3, 4]]], [['y', [2, 3, 4]]], { axis: -1 }));
    assert.deepEqual(ops(last), ['Softmax']);
    assert.deepEqual(last.json.nodes[0].attributes, { axis: 2 });
    const byDefault = single(9, 'Softmax', [['x', [5, 7]]], [['y', [5, 7]]], {});
    assert.deepEqual(convertOnnx(byDefault).json.nodes[0].attributes, { axis: 1 });
    assert.ok(await conversionDifference(byDefault) < 1e-6);
  });

  it('reshapes a rank-3 input without axis (old default 1) and leaves opset 13 alone', async () => {
    assert.deepEqual(ops(convertOnnx(single(12, 'Softmax', [['x', [2, 3, 4]]], [['y', [2, 3, 4]]], {}))), ['Reshape', 'Softmax', 'Reshape']);
    const v13 = single(13, 'Softmax', [['x', [2, 3, 4]]], [['y', [2, 3, 4]]], { axis: 1 });
    assert.deepEqual(convertOnnx(v13).json.nodes.map((n) => [n.op, n.attributes]), [['Softmax', { axis: 1 }]]);
  });
});

describe('Resize and Upsample', () => {
  const scales = () => float32Tensor('scales', [4], [1, 1, 2, 3]);

  it('opset 10 Resize (X, scales) becomes Resize (X, "", scales) with asymmetric coordinates', async () => {
    for (const mode of ['nearest', 'linear']) {
      const bytes = single(10, 'Resize', [['x', [1, 2, 3, 4]]], [['y', [1, 2, 6, 12]]], { mode }, [scales()]);
      const result = convertOnnx(bytes);
      const resize = result.json.nodes[0];
      assert.deepEqual(resize.inputs, ['x', '', 'scales']);
      const expected = { mode, coordinate_transformation_mode: 'asymmetric' };
      if (mode === 'nearest') expected.nearest_mode = 'floor';
      assert.deepEqual(resize.attributes, expected);
      assert.ok(await conversionDifference(bytes) < 1e-6, mode);
    }
  });

  it('Upsample with scales as input (opset 9) or attribute (opset 7) becomes Resize', async () => {
    const v9 = single(9, 'Upsample', [['x', [1, 2, 3, 4]]], [['y', [1, 2, 6, 12]]], { mode: 'nearest' }, [scales()]);
    assert.deepEqual(ops(convertOnnx(v9)), ['Resize']);
    assert.equal(await conversionDifference(v9), 0);
    const v7 = single(7, 'Upsample', [['x', [1, 2, 3, 4]]], [['y', [1, 2, 6, 12]]], { mode: 'linear', scales: float([1, 1, 2, 3]) });
    const result = convertOnnx(v7);
    assert.deepEqual(initializerValues(result, result.json.nodes[0].inputs[2]), [1, 1, 2, 3]);
    assert.ok(await conversionDifference(v7) < 1e-6);
  });

  it('opset 11+ drops roi and empty scales, keeping sizes', async () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', [1, 2, 3, 4]]],
      outputs: [['y', [1, 2, 5, 7]]],
      initializers: [float32Tensor('roi', [0], []), float32Tensor('no_scales', [0], []), int64Tensor('sizes', [4], [1, 2, 5, 7])],
      nodes: [node('Resize', ['x', 'roi', 'no_scales', 'sizes'], ['y'], { mode: 'linear', coordinate_transformation_mode: 'half_pixel', cubic_coeff_a: -0.5 })],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.nodes[0].inputs, ['x', '', '', 'sizes']);
    assert.deepEqual(result.json.nodes[0].attributes, { mode: 'linear', coordinate_transformation_mode: 'half_pixel' });
    assert.ok(await conversionDifference(bytes) < 1e-6);
  });
});

describe('inference-only rewrites', () => {
  it('Dropout becomes Identity; a used mask output is an error', async () => {
    const bytes = single(12, 'Dropout', [['x', [2, 3]]], [['y', [2, 3]]], { seed: 3 }, [], ['mask']);
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['Identity', ['x'], ['y']]]);
    assert.equal(await conversionDifference(bytes), 0);
    const used = model({
      opset: 12,
      inputs: [['x', [2, 3]]],
      outputs: [['y', [2, 3]], ['m', [2, 3]]],
      nodes: [node('Dropout', ['x'], ['y', 'mask']), node('Cast', ['mask'], ['m'], { to: T.FLOAT })],
    });
    assert.throws(() => convertOnnx(used), /output 1 \("mask"\) is used, but Tessera computes only output 0 of Dropout/);
  });

  it('BatchNormalization drops spatial=1, is_test and momentum but rejects spatial=0', async () => {
    const params = ['s', 'b', 'm', 'v'].map((n, i) => float32Tensor(n, [3], [1 + i, 0.5, 2]));
    const bytes = single(7, 'BatchNormalization', [['x', [2, 3, 4, 4]]], [['y', [2, 3, 4, 4]]], { spatial: 1, epsilon: 0.001, momentum: 0.8 }, params);
    assert.deepEqual(convertOnnx(bytes).json.nodes[0].attributes, { epsilon: 0.001 });
    assert.ok(await conversionDifference(bytes) < 1e-5);
    const v6 = single(6, 'BatchNormalization', [['x', [2, 3, 4, 4]]], [['y', [2, 3, 4, 4]]], { is_test: 1 }, params);
    assert.equal(convertOnnx(v6).json.nodes[0].attributes, undefined);
    const perActivation = single(7, 'BatchNormalization', [['x', [2, 3, 4, 4]]], [['y', [2, 3, 4, 4]]], { spatial: 0 }, params);
    assert.throws(() => convertOnnx(perActivation), /attribute "spatial" = 0 is not supported/);
  });

  it('MaxPool drops an unused Indices output (and storage_order) but rejects a used one', () => {
    const pooled = (outputs, nodes = []) => model({
      opset: 12,
      inputs: [['x', [1, 2, 4, 4]]],
      outputs,
      nodes: [node('MaxPool', ['x'], ['y', 'idx'], { kernel_shape: [2, 2], strides: [2, 2], storage_order: 0 }), ...nodes],
    });
    const result = convertOnnx(pooled([['y', [1, 2, 2, 2]]]));
    assert.deepEqual(result.json.nodes[0].outputs, ['y']);
    assert.deepEqual(result.json.nodes[0].attributes, { kernel_shape: [2, 2], strides: [2, 2] });
    assert.throws(() => convertOnnx(pooled([['y', [1, 2, 2, 2]], ['idx', [1, 2, 2, 2], T.INT64]])), /output 1 \("idx"\) is used/);
  });
});

describe('legacy forms', () => {
  it('opset-6 broadcast with axis reshapes a constant B to align with A', () => {
    const bytes = single(6, 'Add', [['x', [2, 3, 4, 5]]], [['y', [2, 3, 4, 5]]], { broadcast: 1, axis: 1 }, [float32Tensor('b', [3], [1, 2, 3])]);
    const result = convertOnnx(bytes);
    assert.equal(result.json.nodes[0].attributes, undefined);
    const b = result.json.initializers.find((i) => i.name === result.json.nodes[0].inputs[1]);
    assert.deepEqual(b.shape, [3, 1, 1]);
    assert.deepEqual(initializerValues(result, b.name), [1, 2, 3]);
  });

  it('opset-6 broadcast of a run-time B inserts a Reshape', () => {
    const bytes = model({
      opset: 6,
      inputs: [['x', [2, 3, 4]], ['b', [2, 3]]],
      outputs: [['y', [2, 3, 4]]],
      nodes: [node('Mul', ['x', 'b'], ['y'], { broadcast: 1, axis: 0 })],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(ops(result), ['Reshape', 'Mul']);
    assert.deepEqual(initializerValues(result, result.json.nodes[0].inputs[1]), [2, 3, 1]);
  });

  it('opset-1 Reshape shape attribute becomes an input; opset-1 Cast type names become numbers', () => {
    const reshape = convertOnnx(single(1, 'Reshape', [['x', [2, 6]]], [['y', [3, 4]]], { shape: [3, 4] }));
    assert.deepEqual(initializerValues(reshape, reshape.json.nodes[0].inputs[1]), [3, 4]);
    const cast = convertOnnx(single(1, 'Cast', [['x', [2, 6]]], [['y', [2, 6]]], { to: 'FLOAT' }));
    assert.deepEqual(cast.json.nodes[0].attributes, { to: 1 });
  });

  it('Clip keeps opset-6 attributes and takes opset-11 bounds from Constant nodes', async () => {
    const v6 = single(6, 'Clip', [['x', [2, 6]]], [['y', [2, 6]]], { min: -0.5, max: 0.25 });
    assert.deepEqual(convertOnnx(v6).json.nodes[0].attributes, { min: -0.5, max: 0.25 });
    assert.equal(await conversionDifference(v6), 0);
    const v11 = model({
      opset: 11,
      inputs: [['x', [2, 6]]],
      outputs: [['y', [2, 6]]],
      nodes: [
        node('Constant', [], ['lo'], { value: { tensor: float32Tensor('', [], [0]) } }),
        node('Constant', [], ['hi'], { value: { tensor: float32Tensor('', [], [6]) } }),
        node('Clip', ['x', 'lo', 'hi'], ['y']),
      ],
    });
    const result = convertOnnx(v11);
    assert.deepEqual(result.json.nodes[0].inputs, ['x', 'lo', 'hi']);
    assert.equal(await conversionDifference(v11), 0);
  });

  it('Squeeze, Unsqueeze and Reduce axes work as attributes and as inputs', async () => {
    const cases = [
      single(11, 'Squeeze', [['x', [2, 1, 3, 1]]], [['y', [2, 3, 1]]], { axes: [1] }),
      single(13, 'Squeeze', [['x', [2, 1, 3, 1]]], [['y', [2, 3, 1]]], {}, [int64Tensor('axes', [1], [1])]),
      single(11, 'Unsqueeze', [['x', [2, 3]]], [['y', [2, 1, 3, 1]]], { axes: [1, -1] }),
      single(13, 'Unsqueeze', [['x', [2, 3]]], [['y', [1, 2, 3]]], {}, [int64Tensor('axes', [1], [0])]),
      single(11, 'ReduceSum', [['x', [2, 3, 4]]], [['y', [2, 4]]], { axes: [1], keepdims: 0 }),
      single(18, 'ReduceMean', [['x', [2, 3, 4]]], [['y', [2, 3, 1]]], {}, [int64Tensor('axes', [1], [-1])]),
      single(18, 'ReduceLogSumExp', [['x', [2, 3, 4]]], [['y', [1, 1, 1]]], {}),
    ];
    for (const bytes of cases) assert.ok(await conversionDifference(bytes) < 1e-5);
  });

  it('an empty axes input means no axes', async () => {
    const bytes = single(18, 'ReduceMean', [['x', [2, 3, 4]]], [['y', [1, 1, 1]]], {}, [int64Tensor('axes', [0], [])]);
    assert.deepEqual(convertOnnx(bytes).json.nodes[0].inputs, ['x']);
    assert.ok(await conversionDifference(bytes) < 1e-6);
  });

  it('Split sizes work as attribute, input, num_outputs and equal parts', async () => {
    const outputs = [['a', [2, 2]], ['b', [2, 4]]];
    const cases = [
      single(11, 'Split', [['x', [2, 6]]], outputs, { axis: 1, split: [2, 4] }),
      single(13, 'Split', [['x', [2, 6]]], outputs, { axis: 1 }, [int64Tensor('split', [2], [2, 4])]),
      single(18, 'Split', [['x', [2, 6]]], [['a', [2, 3]], ['b', [2, 3]]], { axis: 1, num_outputs: 2 }),
      single(13, 'Split', [['x', [2, 6]]], [['a', [1, 6]], ['b', [1, 6]]], {}),
    ];
    for (const bytes of cases) assert.equal(await conversionDifference(bytes), 0);
    // Equal parts are made explicit, so no reader has to guess them.
    assert.deepEqual(convertOnnx(cases[3]).json.nodes[0].attributes, { split: [1, 1] });
  });
});

describe('compute ops', () => {
  it('infer the shapes onnxruntime computes for Conv, ConvTranspose, pooling, Gemm, MatMul and more', async () => {
    const w = (name, shape) => float32Tensor(name, shape, randomData(shape.reduce((a, b) => a * b, 1), 7));
    const bytes = model({
      opset: 17,
      inputs: [['x', [1, 4, 9, 11]]],
      outputs: [['y', [1, 2]], ['z', [1, 3, 9, 11]]],
      initializers: [
        w('cw', [6, 2, 3, 3]), w('cb', [6]), w('tw', [4, 1, 2, 2]), w('gw', [2, 24]), w('gb', [2]), w('ln_s', [11]),
        int64Tensor('flat', [2], [1, -1]), int64Tensor('pads', [8], [0, 0, 1, 0, 0, 0, 0, 1]),
      ],
      nodes: [
        node('Conv', ['x', 'cw', 'cb'], ['c'], { group: 2, strides: [2, 2], pads: [1, 1, 1, 1], dilations: [1, 2] }),
        node('MaxPool', ['c'], ['p'], { kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1 }),
        node('AveragePool', ['c'], ['q'], { kernel_shape: [2, 2], auto_pad: 'SAME_UPPER', count_include_pad: 1 }),
        node('GlobalAveragePool', ['q'], ['g']),
        node('Mul', ['p', 'g'], ['pg']),
        node('Reshape', ['pg', 'flat'], ['f']),
        node('Gemm', ['f', 'gw', 'gb'], ['y'], { transB: 1, alpha: 0.5 }),
        node('ConvTranspose', ['x', 'tw'], ['t'], { group: 2, strides: [2, 2], pads: [1, 0, 0, 1], output_padding: [1, 0] }),
        node('Pad', ['t', 'pads'], ['tp'], { mode: 'edge' }),
        node('LayerNormalization', ['x', 'ln_s'], ['ln'], { epsilon: 1e-3 }),
        node('Transpose', ['ln'], ['lt'], { perm: [0, 1, 3, 2] }),
        node('MatMul', ['lt', 'ln'], ['mm']),
        node('ReduceMax', ['mm'], ['mx'], { axes: [1, 2], keepdims: 1 }),
        node('Slice', ['tp', 'starts', 'ends', 'slice_axes'], ['z0']),
        node('Constant', [], ['slice_axes'], { value_ints: [2, 3] }),
        node('Constant', [], ['starts'], { value_ints: [0, 0] }),
        node('Constant', [], ['ends'], { value_ints: [9, 11] }),
        node('Concat', ['z0', 'z0', 'z0'], ['zc'], { axis: 1 }),
        node('ReduceMean', ['zc'], ['zm'], { axes: [1], keepdims: 1 }),
        node('Mul', ['zm', 'mx'], ['zmx']),
        node('Expand', ['zmx', 'expand_to'], ['z']),
        node('Constant', [], ['expand_to'], { value_ints: [1, 3, 1, 1] }),
      ],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.outputs.map((o) => o.shape), [[1, 2], [1, 3, 9, 11]]);
    assert.ok(await conversionDifference(bytes) < 1e-4);
  });
});
