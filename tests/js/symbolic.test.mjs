// Symbolic dimensions (model format version 2): dim_params stay symbols, shape arithmetic on
// them stays in the graph for the engine to evaluate when it specialises the model, pinned
// shapes fold it away, and inputs keep their ONNX types. Converted models are exported back
// to ONNX and run in onnxruntime at several input sizes against the original.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import { convertOnnx, ConvertError, exportOnnx } from 'tessera/convert';

import { T, float32Tensor, initializerValues, int64Tensor, maxDifference, model, node, randomData } from './helpers.mjs';

const ops = ({ json }) => json.nodes.map((n) => n.op);

// Runs `bytes` in onnxruntime on feeds { name: [type, dims, data] }.
async function run(bytes, feeds) {
  const session = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
  return session.run(Object.fromEntries(Object.entries(feeds).map(([name, [type, dims, data]]) => [name, new ort.Tensor(type, data, dims)])));
}

// The original model and its conversion (exported back to ONNX) agree on every feed set.
async function assertSameResults(bytes, converted, feedSets) {
  const exported = exportOnnx(converted.json, converted.weights);
  for (const feeds of feedSets) {
    const [expected, actual] = [await run(bytes, feeds), await run(exported, feeds)];
    for (const { name } of converted.json.outputs) {
      assert.deepEqual(actual[name].dims, expected[name].dims, `output ${name}`);
      assert.ok(maxDifference(Array.from(actual[name].data, Number), Array.from(expected[name].data, Number)) < 1e-5, `output ${name}`);
    }
  }
}

const floats = (dims, seed = 1) => ['float32', dims, randomData(dims.reduce((a, b) => a * b, 1), seed)];

// y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])): flatten all but the batch.
const flattenBatch = model({
  opset: 13,
  inputs: [['x', ['N', 3, 4, 5]]],
  outputs: [['y', ['N', 60]]],
  initializers: [int64Tensor('zero', [], [0]), int64Tensor('axes0', [1], [0]), int64Tensor('minus1', [1], [-1])],
  nodes: [
    node('Shape', ['x'], ['s']),
    node('Gather', ['s', 'zero'], ['n'], { axis: 0 }),
    node('Unsqueeze', ['n', 'axes0'], ['n1']),
    node('Concat', ['n1', 'minus1'], ['target'], { axis: 0 }),
    node('Reshape', ['x', 'target'], ['y']),
  ],
});

describe('symbolic dimensions', () => {
  it('keep dim_params as symbols through the graph, and the model runs at any size', async () => {
    const bytes = model({
      inputs: [['x', ['batch', 3, 'height', 'width']]],
      outputs: [['y', ['batch', 4, 'height', 'width']]],
      initializers: [float32Tensor('w', [4, 3, 3, 3], randomData(108, 2)), float32Tensor('b', [4], [0.1, 0.2, 0.3, 0.4])],
      nodes: [
        node('Conv', ['x', 'w', 'b'], ['c'], { pads: [1, 1, 1, 1] }),
        node('Relu', ['c'], ['r']),
        node('Add', ['r', 'c'], ['y']),
      ],
    });
    const converted = convertOnnx(bytes);
    assert.equal(converted.json.version, 2);
    assert.deepEqual(converted.json.inputs, [{ name: 'x', dtype: 'float32', shape: ['batch', 3, 'height', 'width'] }]);
    assert.deepEqual(converted.json.outputs, [{ name: 'y', dtype: 'float32', shape: ['batch', 4, 'height', 'width'] }]);
    await assertSameResults(bytes, converted, [{ x: floats([1, 3, 5, 7]) }, { x: floats([2, 3, 8, 4]) }]);
  });

  it('keep a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain as nodes, with the output shape inferred', async () => {
    const converted = convertOnnx(flattenBatch);
    assert.deepEqual(ops(converted), ['Shape', 'Gather', 'Unsqueeze', 'Concat', 'Reshape']);
    assert.deepEqual(converted.json.outputs[0].shape, ['N', 60]);
    await assertSameResults(flattenBatch, converted, [{ x: floats([1, 3, 4, 5]) }, { x: floats([3, 3, 4, 5]) }]);
  });

  it('fold that chain into a constant once the input shape is pinned (format version 1)', () => {
    const converted = convertOnnx(flattenBatch, { inputShapes: { x: [2, 3, 4, 5] } });
    assert.equal(converted.json.version, 1);
    assert.deepEqual(ops(converted), ['Reshape']);
    assert.deepEqual(initializerValues(converted, 'target'), [2, -1]);
    assert.deepEqual(converted.json.outputs[0].shape, [2, 60]);
  });

  it('fold the parts of a shape computation that only read static dimensions', () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', ['N', 3, 4]]],
      outputs: [['y', ['M', 4]]],
      initializers: [int64Tensor('two', [1], [2]), int64Tensor('three', [1], [3]), int64Tensor('minus1', [1], [-1])],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Slice', ['s', 'two', 'three'], ['last']),  // [4]: static although x's batch is not
        node('Concat', ['minus1', 'last'], ['target'], { axis: 0 }),
        node('Reshape', ['x', 'target'], ['y']),
      ],
    });
    const converted = convertOnnx(bytes);
    assert.deepEqual(ops(converted), ['Reshape']);
    assert.deepEqual(initializerValues(converted, 'target'), [-1, 4]);
    // N * 3 rows has no name of its own: the declared dim_param labels it.
    assert.deepEqual(converted.json.outputs[0].shape, ['M', 4]);
  });

  it('name a dimension without value or dim_param "<input>_d<i>", and unknown output sizes after their tensor', () => {
    const bytes = model({
      inputs: [['x', [undefined, 3, 8, 8]]],
      outputs: [['y', null]],
      initializers: [float32Tensor('w', [2, 3, 3, 3], randomData(54, 5))],
      nodes: [node('Conv', ['x', 'w'], ['y'], { strides: [2, 2] })],
    });
    const { json } = convertOnnx(bytes);
    assert.deepEqual(json.inputs[0].shape, ['x_d0', 3, 8, 8]);
    assert.deepEqual(json.outputs[0].shape, ['x_d0', 2, 3, 3]);
    const symbolic = convertOnnx(model({
      inputs: [['x', ['N', 3, 'H', 'W']]],
      outputs: [['y', null]],
      initializers: [float32Tensor('w', [2, 3, 3, 3], randomData(54, 5))],
      nodes: [node('Conv', ['x', 'w'], ['y'], { strides: [2, 2] })],
    }));
    assert.deepEqual(symbolic.json.outputs[0].shape, ['N', 2, 'y_d2', 'y_d3']);
  });

  it('are pinned wherever the pinned input\'s dim_param appears', () => {
    const bytes = model({
      inputs: [['a', ['batch', 4]], ['b', ['batch', 4]]],
      outputs: [['y', ['batch', 4]]],
      nodes: [node('Add', ['a', 'b'], ['y'])],
    });
    const { json } = convertOnnx(bytes, { inputShapes: { a: [2, 4] } });
    assert.equal(json.version, 1);
    assert.deepEqual(json.inputs.map((i) => i.shape), [[2, 4], [2, 4]]);
    assert.deepEqual(json.outputs[0].shape, [2, 4]);
  });
});

describe('opset rewrites on symbolic dimensions', () => {
  it('an opset-11 Softmax over a middle axis, a 1-D Conv and equal Split parts run at any size', async () => {
    const bytes = model({
      opset: 11,
      inputs: [['x', ['batch', 4, 'length']]],
      outputs: [['y', ['batch', 2, 'length']], ['z', ['batch', 2, 'length']], ['s', ['batch', 4, 'length']]],
      initializers: [float32Tensor('w', [4, 4, 3], randomData(48, 7))],
      nodes: [
        node('Conv', ['x', 'w'], ['c'], { pads: [1, 1] }),
        node('Split', ['c'], ['y', 'z'], { axis: 1 }),
        node('Softmax', ['x'], ['s'], { axis: 1 }),
      ],
    });
    const converted = convertOnnx(bytes);
    assert.deepEqual(converted.json.outputs.map((o) => o.shape), [['batch', 2, 'length'], ['batch', 2, 'length'], ['batch', 4, 'length']]);
    assert.ok(ops(converted).includes('Flatten') && ops(converted).includes('Shape'));
    await assertSameResults(bytes, converted, [{ x: floats([1, 4, 5]) }, { x: floats([3, 4, 9]) }]);
  });
});

describe('typed graph inputs', () => {
  it('int64 token ids keep their type, and ConstantOfShape writes its value as a tensor attribute', async () => {
    const bytes = model({
      opset: 13,
      inputs: [['ids', ['batch', 'sequence'], T.INT64]],
      outputs: [['y', ['batch', 'sequence', 4]], ['ones', ['batch', 'sequence'], T.INT64]],
      initializers: [float32Tensor('table', [10, 4], randomData(40, 3))],
      nodes: [
        node('Gather', ['table', 'ids'], ['y'], { axis: 0 }),
        node('Shape', ['ids'], ['s']),
        node('ConstantOfShape', ['s'], ['ones'], { value: { tensor: int64Tensor('', [1], [1]) } }),
      ],
    });
    const converted = convertOnnx(bytes);
    const { json } = converted;
    assert.equal(json.version, 2);
    assert.deepEqual(json.inputs, [{ name: 'ids', dtype: 'int64', shape: ['batch', 'sequence'] }]);
    assert.deepEqual(json.outputs, [
      { name: 'y', dtype: 'float32', shape: ['batch', 'sequence', 4] },
      { name: 'ones', dtype: 'int64', shape: ['batch', 'sequence'] },
    ]);
    assert.deepEqual(json.nodes.find((n) => n.op === 'ConstantOfShape').attributes, { value: { dtype: 'int64', shape: [1], values: [1] } });
    const ids = (dims, values) => ({ ids: ['int64', dims, BigInt64Array.from(values, BigInt)] });
    await assertSameResults(bytes, converted, [ids([1, 3], [0, 9, 4]), ids([2, 2], [1, 2, 3, 4])]);
  });

  it('an input of a type the format lacks is an error naming the input', () => {
    const bytes = model({
      inputs: [['pixels', [1, 3], T.FLOAT16]],
      outputs: [['y', [1, 3], T.FLOAT16]],
      nodes: [node('Relu', ['pixels'], ['y'])],
    });
    assert.throws(() => convertOnnx(bytes), (e) => {
      assert.ok(e instanceof ConvertError);
      assert.match(e.message, /^graph input "pixels" has type float16; Tessera's graph inputs are float32, int64, int32, bool, uint8$/);
      return true;
    });
  });

  it('a bool mask computed at run time stays a run-time tensor', async () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', ['n']], ['mask', ['n'], T.BOOL]],
      outputs: [['y', ['n']]],
      initializers: [float32Tensor('zero', [], [0])],
      nodes: [node('Not', ['mask'], ['keep']), node('Where', ['keep', 'x', 'zero'], ['y'])],
    });
    const converted = convertOnnx(bytes);
    assert.deepEqual(ops(converted), ['Not', 'Where']);
    assert.equal(converted.json.inputs[1].dtype, 'bool');
    await assertSameResults(bytes, converted, [{ x: floats([3]), mask: ['bool', [3], [true, false, true]] }]);
  });
});

describe('exportOnnx of a version-2 model', () => {
  it('writes symbols as dim_param and keeps the boundary types', () => {
    const bytes = model({
      inputs: [['ids', ['batch', 7], T.INT64]],
      outputs: [['y', ['batch', 7, 4]]],
      initializers: [float32Tensor('table', [10, 4], randomData(40, 3))],
      nodes: [node('Gather', ['table', 'ids'], ['y'], { axis: 0 })],
    });
    const { json, weights } = convertOnnx(bytes);
    const exported = onnxProto.onnx.ModelProto.decode(exportOnnx(json, weights));
    const [input] = exported.graph.input;
    assert.equal(input.type.tensorType.elemType, T.INT64);
    assert.deepEqual(input.type.tensorType.shape.dim.map((d) => d.dimParam || Number(d.dimValue)), ['batch', 7]);
    const [output] = exported.graph.output;
    assert.equal(output.type.tensorType.elemType, T.FLOAT);
    assert.deepEqual(output.type.tensorType.shape.dim.map((d) => d.dimParam || Number(d.dimValue)), ['batch', 7, 4]);
  });
});
