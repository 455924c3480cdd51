// convertOnnx on hand-built graphs: initializer storage forms, Constant nodes, dynamic
// dimensions, shape-subgraph folding, dead code, naming and the emitted JSON layout.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { convertOnnx } from 'tessera/convert';

import {
  T, conversionDifference, float, float32Tensor, initializerValues, int64Tensor, model, node, nodeInputValues, raw, tensor,
} from './helpers.mjs';

// x [2, 3] + c: the converted Add's input 1 shows how constant c was decoded.
function addConstant(c, extraNodes = []) {
  return model({
    inputs: [['x', [2, 3]]],
    outputs: [['y', [2, 3]]],
    initializers: [c],
    nodes: [...extraNodes, node('Add', ['x', extraNodes.length ? 'c_float' : c.name], ['y'])],
  });
}

function halfBits(v) {
  const table = { 0.5: 0x3800, 1: 0x3c00, '-2': 0xc000, 65504: 0x7bff, 0.099975586: 0x2e66, 3: 0x4200 };
  return table[v];
}

describe('initializer storage forms', () => {
  it('reads float32 from raw_data and from float_data', () => {
    const values = [1.5, -2, 0.25, 3, 4, 5];
    for (const c of [float32Tensor('c', [2, 3], values), tensor('c', T.FLOAT, [2, 3], { floatData: values })]) {
      const result = convertOnnx(addConstant(c));
      assert.deepEqual(nodeInputValues(result, 'Add', 1), values);
      assert.deepEqual(result.json.initializers[0], { name: 'c', dtype: 'float32', shape: [2, 3], offset: 0, length: 24 });
    }
  });

  it('converts float16, bfloat16 and double initializers to float32', () => {
    const halves = [0.5, 1, -2, 65504, 3, 1];
    const cases = [
      tensor('c', T.FLOAT16, [2, 3], { int32Data: halves.map(halfBits) }),
      tensor('c', T.FLOAT16, [2, 3], { rawData: raw(halves.map(halfBits), 2, 'setUint16') }),
      tensor('c', T.BFLOAT16, [2, 3], { int32Data: [0x3f00, 0x3f80, 0xc000, 0x4040, 0x4080, 0x40a0] }),
      tensor('c', T.BFLOAT16, [2, 3], { rawData: raw([0x3f00, 0x3f80, 0xc000, 0x4040, 0x4080, 0x40a0], 2, 'setUint16') }),
      tensor('c', T.DOUBLE, [2, 3], { doubleData: [0.5, 1, -2, 3, 4, 5] }),
      tensor('c', T.DOUBLE, [2, 3], { rawData: raw([0.5, 1, -2, 3, 4, 5], 8, 'setFloat64') }),
    ];
    const expected = [halves, halves, [0.5, 1, -2, 3, 4, 5], [0.5, 1, -2, 3, 4, 5], [0.5, 1, -2, 3, 4, 5], [0.5, 1, -2, 3, 4, 5]];
    cases.forEach((c, i) => {
      const result = convertOnnx(addConstant(c));
      assert.equal(result.json.initializers[0].dtype, 'float32');
      assert.deepEqual(nodeInputValues(result, 'Add', 1), expected[i], `case ${i}`);
    });
  });

  it('reads small integer types from int32_data and raw_data (folded through Cast)', () => {
    const values = [1, 0, 2, 3, 1, 5];
    const cases = [
      [T.INT8, { int32Data: [-1, 0, 2, -3, 1, 5] }, [-1, 0, 2, -3, 1, 5]],
      [T.INT8, { rawData: Uint8Array.from([0xff, 0, 2, 0xfd, 1, 5]) }, [-1, 0, 2, -3, 1, 5]],
      [T.UINT8, { int32Data: [255, 0, 2, 3, 1, 5] }, [255, 0, 2, 3, 1, 5]],
      [T.INT16, { int32Data: [-300, 0, 2, 3, 1, 5] }, [-300, 0, 2, 3, 1, 5]],
      [T.INT16, { rawData: raw([-300, 0, 2, 3, 1, 5], 2, 'setInt16') }, [-300, 0, 2, 3, 1, 5]],
      [T.UINT16, { int32Data: [65535, 0, 2, 3, 1, 5] }, [65535, 0, 2, 3, 1, 5]],
      [T.BOOL, { int32Data: [1, 0, 1, 1, 1, 0] }, [1, 0, 1, 1, 1, 0]],
      [T.BOOL, { rawData: Uint8Array.from([1, 0, 1, 1, 1, 0]) }, [1, 0, 1, 1, 1, 0]],
      [T.INT32, { int32Data: values }, values],
      [T.INT32, { rawData: raw(values, 4, 'setInt32') }, values],
      [T.INT64, { int64Data: values }, values],
      [T.INT64, { rawData: raw(values.map(BigInt), 8, 'setBigInt64') }, values],
      [T.UINT32, { uint64Data: values }, values],
      [T.UINT64, { uint64Data: values }, values],
      [T.UINT64, { rawData: raw(values.map(BigInt), 8, 'setBigUint64') }, values],
    ];
    for (const [dataType, fields, expected] of cases) {
      const cast = node('Cast', ['c'], ['c_float'], { to: T.FLOAT });
      const result = convertOnnx(addConstant(tensor('c', dataType, [2, 3], fields), [cast]));
      assert.deepEqual(result.json.nodes.map((n) => n.op), ['Add'], `type ${dataType}`);
      assert.deepEqual(nodeInputValues(result, 'Add', 1), expected, `type ${dataType}`);
    }
  });

  it('keeps int32 shape tensors as int64 initializers', () => {
    const bytes = model({
      inputs: [['x', [2, 3]]],
      outputs: [['y', [3, 2]]],
      initializers: [tensor('shape', T.INT32, [2], { int32Data: [3, -1] })],
      nodes: [node('Reshape', ['x', 'shape'], ['y'])],
    });
    const result = convertOnnx(bytes);
    assert.equal(result.json.initializers[0].dtype, 'int64');
    assert.deepEqual(initializerValues(result, 'shape'), [3, -1]);
  });

  it('rejects external data with a clear message', () => {
    const c = tensor('w', T.FLOAT, [2, 3], { dataLocation: 1, externalData: [{ key: 'location', value: 'w.bin' }] });
    assert.throws(() => convertOnnx(addConstant(c)), /initializer "w" keeps its data in an external file \("w.bin"\)/);
  });

  it('rejects data whose size does not match the shape', () => {
    const c = tensor('c', T.FLOAT, [2, 3], { floatData: [1, 2] });
    assert.throws(() => convertOnnx(addConstant(c)), /initializer "c": holds 2 values, its shape \[2,3\] needs 6/);
  });
});

describe('Constant nodes', () => {
  it('turn value, value_float(s) and value_int(s) into initializers', () => {
    const bytes = model({
      inputs: [['x', [2, 3]]],
      outputs: [['y', [3, 2]]],
      nodes: [
        node('Constant', [], ['a'], { value: { tensor: float32Tensor('', [3], [1, 2, 3]) } }),
        node('Constant', [], ['b'], { value_float: 0.5 }),
        node('Constant', [], ['c'], { value_floats: [0.25, 0.75, 1.5] }),
        node('Constant', [], ['shape'], { value_ints: [3, 2] }),
        node('Constant', [], ['one'], { value_int: 1 }),
        node('Add', ['x', 'a'], ['t1']),
        node('Mul', ['t1', 'b'], ['t2']),
        node('Sub', ['t2', 'c'], ['t3']),
        node('Reshape', ['t3', 'shape'], ['y']),
      ],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.nodes.map((n) => n.op), ['Add', 'Mul', 'Sub', 'Reshape']);
    assert.deepEqual(initializerValues(result, 'a'), [1, 2, 3]);
    assert.deepEqual(initializerValues(result, 'b'), [0.5]);
    assert.deepEqual(result.json.initializers.find((i) => i.name === 'b').shape, []);
    assert.deepEqual(initializerValues(result, 'c'), [0.25, 0.75, 1.5]);
    assert.deepEqual(initializerValues(result, 'shape'), [3, 2]);
    assert.equal(result.json.initializers.find((i) => i.name === 'one'), undefined, 'unused constants are dropped');
  });

  it('rejects sparse Constant values', () => {
    const bytes = model({
      inputs: [['x', [2]]],
      outputs: [['y', [2]]],
      nodes: [
        node('Constant', [], ['s'], { sparse_value: { sparse: { values: float32Tensor('v', [1], [1]), indices: int64Tensor('i', [1], [0]), dims: [2] } } }),
        node('Add', ['x', 's'], ['y']),
      ],
    });
    assert.throws(() => convertOnnx(bytes), /sparse Constant values are not supported/);
  });
});

describe('dynamic dimensions', () => {
  const dynamic = model({
    inputs: [['x', ['N', 3, 'H', 8]]],
    outputs: [['y', ['N', 3, 'H', 8]]],
    nodes: [node('Relu', ['x'], ['y'])],
  });

  it('are kept as symbols (format version 2)', () => {
    const { json } = convertOnnx(dynamic);
    assert.equal(json.version, 2);
    assert.deepEqual(json.inputs, [{ name: 'x', dtype: 'float32', shape: ['N', 3, 'H', 8] }]);
    assert.deepEqual(json.outputs, [{ name: 'y', dtype: 'float32', shape: ['N', 3, 'H', 8] }]);
  });

  it('are fixed by inputShapes, and outputs carry the inferred static shape (format version 1)', () => {
    const { json } = convertOnnx(dynamic, { inputShapes: { x: [2, 3, 5, 8] } });
    assert.equal(json.version, 1);
    assert.deepEqual(json.inputs, [{ name: 'x', dtype: 'float32', shape: [2, 3, 5, 8] }]);
    assert.deepEqual(json.outputs, [{ name: 'y', dtype: 'float32', shape: [2, 3, 5, 8] }]);
  });

  it('reject shapes that contradict static dimensions or name unknown inputs', () => {
    assert.throws(() => convertOnnx(dynamic, { inputShapes: { x: [1, 4, 5, 8] } }), /dimension 1 is 3 in the model, but the given shape \[1,4,5,8\] says 4/);
    assert.throws(() => convertOnnx(dynamic, { inputShapes: { x: [1, 3, 5] } }), /has rank 4, but its given shape \[1,3,5\] has rank 3/);
    assert.throws(() => convertOnnx(dynamic, { inputShapes: { image: [1, 3, 5, 8] } }), /inputShapes names "image", which is not a graph input \(inputs: "x"\)/);
  });

  it('reject declared output shapes that disagree with inference', () => {
    const bytes = model({ inputs: [['x', [2, 3]]], outputs: [['y', [3, 2]]], nodes: [node('Relu', ['x'], ['y'])] });
    assert.throws(() => convertOnnx(bytes), /graph output "y" is declared as \[3, 2\] but computes \[2,3\]/);
  });
});

describe('shape subgraphs', () => {
  it('fold a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain into one int64 initializer', () => {
    const bytes = model({
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
    const result = convertOnnx(bytes, { inputShapes: { x: [2, 3, 4, 5] } });
    assert.deepEqual(result.json.nodes.map((n) => n.op), ['Reshape']);
    assert.deepEqual(result.json.initializers.map((i) => [i.name, i.dtype, i.shape]), [['target', 'int64', [2]]]);
    assert.deepEqual(initializerValues(result, 'target'), [2, -1]);
    assert.deepEqual(result.json.outputs[0].shape, [2, 60]);
  });

  it('fold Cast, Slice, integer arithmetic, Range, ConstantOfShape, Equal, Where and Expand', () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', [2, 6, 4]]],
      outputs: [['y', [3, 2, 6, 8]]],
      initializers: [
        int64Tensor('start1', [1], [1]), int64Tensor('end3', [1], [3]), int64Tensor('two', [], [2]),
        int64Tensor('zero', [], [0]), int64Tensor('one', [], [1]), int64Tensor('r_limit', [], [3]),
      ],
      nodes: [
        node('Shape', ['x'], ['s']),
        node('Cast', ['s'], ['s32'], { to: T.INT32 }),
        node('Cast', ['s32'], ['s64'], { to: T.INT64 }),
        node('Slice', ['s64', 'start1', 'end3'], ['hw']),  // [6, 4]
        node('Div', ['hw', 'two'], ['half']),  // [3, 2]
        node('Mul', ['half', 'two'], ['dbl']),  // [6, 4]
        node('ReduceProd', ['dbl'], ['prod'], { keepdims: 0 }),  // 24
        node('Range', ['zero', 'r_limit', 'one'], ['range']),  // [0, 1, 2]
        node('ConstantOfShape', ['two_vec'], ['ones'], { value: { tensor: int64Tensor('', [1], [1]) } }),
        node('Constant', [], ['two_vec'], { value_ints: [1] }),
        node('Equal', ['range', 'one'], ['is_one']),  // [0, 1, 0]
        node('Where', ['is_one', 'prod', 'range'], ['picked']),  // [0, 24, 2]
        node('Gather', ['s', 'zero'], ['batch']),
        node('Unsqueeze', ['batch', 'zero_axes'], ['batch1']),
        node('Constant', [], ['zero_axes'], { value_ints: [0] }),
        node('Slice', ['picked', 'end_minus', 'big'], ['tail']),  // [24, 2]
        node('Constant', [], ['end_minus'], { value_ints: [1] }),
        node('Constant', [], ['big'], { value_ints: [9e15] }),
        node('Div', ['tail', 'ones'], ['tail1']),
        node('Concat', ['batch1', 'tail1'], ['target0'], { axis: 0 }),  // [2, 24, 2]
        node('Constant', [], ['fix'], { value_ints: [1, 4, 8] }),
        node('Div', ['target0', 'fix'], ['target']),  // [2, 6, 0]
        node('Reshape', ['x', 'target'], ['r']),  // 0 copies dim 2 -> [2, 6, 4]
        node('Constant', [], ['expand_to'], { value_ints: [3, 1, 1, 1] }),
        node('Expand', ['r_tile', 'expand_to'], ['y']),
        node('Concat', ['r', 'r'], ['r_tile'], { axis: 2 }),
      ],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.nodes.map((n) => n.op), ['Reshape', 'Concat', 'Expand']);
    assert.deepEqual(initializerValues(result, 'target'), [2, 6, 0]);
    assert.deepEqual(initializerValues(result, 'expand_to'), [3, 1, 1, 1]);
    assert.deepEqual(result.json.outputs[0].shape, [3, 2, 6, 8]);
  });

  it('folds small float constant chains to what onnxruntime computes', async () => {
    const bytes = model({
      opset: 13,
      inputs: [['x', [4, 3]]],
      outputs: [['y', [4, 3]]],
      initializers: [
        float32Tensor('c', [2, 3], [0.5, -1.25, 2, 3.5, -0.75, 1]), int64Tensor('reps', [2], [2, 2]),
        int64Tensor('rows', [4], [0, 3, -1, 1]), int64Tensor('split', [2], [1, 2]),
        int64Tensor('st', [1], [0]), int64Tensor('en', [1], [3]), int64Tensor('ax', [1], [1]),
      ],
      nodes: [
        node('Transpose', ['c'], ['ct'], { perm: [1, 0] }),  // [3, 2]
        node('Tile', ['ct', 'reps'], ['tiled']),  // [6, 4]
        node('Gather', ['tiled', 'rows'], ['g'], { axis: 0 }),  // [4, 4]
        node('Slice', ['g', 'st', 'en', 'ax'], ['s']),  // [4, 3]
        node('Split', ['s', 'split'], ['s1', 's2'], { axis: 1 }),
        node('Concat', ['s2', 's1'], ['sc'], { axis: 1 }),
        node('Abs', ['sc'], ['abs']),
        node('Sqrt', ['abs'], ['sq']),
        node('Max', ['sc', 'sq'], ['mx']),
        node('Exp', ['mx'], ['e']),
        node('ReduceSum', ['e', 'st'], ['rs'], { keepdims: 1 }),
        node('Div', ['e', 'rs'], ['d']),
        node('Where', ['cond', 'd', 'sc'], ['w']),
        node('Greater', ['sc', 'zero'], ['cond']),
        node('Constant', [], ['zero'], { value_float: float(0) }),
        node('Add', ['x', 'w'], ['y']),
      ],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.nodes.map((n) => n.op), ['Add']);
    assert.ok(await conversionDifference(bytes) < 1e-6);
  });

  it('leaves large float computations on constants to the engine', () => {
    const big = Array.from({ length: 5000 }, (_, i) => i);
    const bytes = model({
      inputs: [['x', [5000]]],
      outputs: [['y', [5000]]],
      initializers: [float32Tensor('w', [5000], big), float32Tensor('s', [], [2])],
      nodes: [node('Mul', ['w', 's'], ['ws']), node('Add', ['x', 'ws'], ['y'])],
    });
    assert.deepEqual(convertOnnx(bytes).json.nodes.map((n) => n.op), ['Mul', 'Add']);
  });
});

describe('graph hygiene', () => {
  it('drops dead nodes and initializers, names nameless nodes <op>_<index> and makes duplicates unique', () => {
    const bytes = model({
      inputs: [['x', [2, 3]]],
      outputs: [['y', [2, 3]]],
      initializers: [float32Tensor('unused_w', [1], [1]), float32Tensor('b', [1], [1])],
      nodes: [
        node('Relu', ['x'], ['r'], {}, ''),
        node('Sigmoid', ['x'], ['dead'], {}, 'dead_branch'),
        node('Add', ['dead', 'unused_w'], ['dead2'], {}, 'dead_add'),
        node('Add', ['r', 'b'], ['t'], {}, 'same'),
        node('Tanh', ['t'], ['y'], {}, 'same'),
      ],
    });
    const { json } = convertOnnx(bytes);
    assert.deepEqual(json.nodes.map((n) => [n.op, n.name]), [['Relu', 'Relu_0'], ['Add', 'same'], ['Tanh', 'same_1']]);
    assert.deepEqual(json.initializers.map((i) => i.name), ['b']);
  });

  it('aligns initializer offsets to 64 bytes and sizes them exactly', () => {
    const bytes = model({
      inputs: [['x', [3]]],
      outputs: [['y', [3]]],
      initializers: [float32Tensor('a', [3], [1, 2, 3]), float32Tensor('b', [3], [4, 5, 6]), float32Tensor('c', [1], [7])],
      nodes: [node('Add', ['x', 'a'], ['t']), node('Mul', ['t', 'b'], ['u']), node('Sub', ['u', 'c'], ['y'])],
    });
    const result = convertOnnx(bytes);
    assert.deepEqual(result.json.initializers.map((i) => [i.offset, i.length]), [[0, 12], [64, 12], [128, 4]]);
    assert.equal(result.weights.length, 132);
    assert.deepEqual(initializerValues(result, 'b'), [4, 5, 6]);
  });

  it('emits the format header, weights file name and float attributes as written', () => {
    const bytes = model({
      inputs: [['x', [2, 3]]],
      outputs: [['y', [2, 3]]],
      nodes: [node('LeakyRelu', ['x'], ['y'], { alpha: 0.1 })],
    });
    const { json } = convertOnnx(bytes, { name: 'leaky model' });
    assert.equal(json.format, 'tessera');
    assert.equal(json.version, 1);
    assert.equal(json.name, 'leaky model');
    assert.equal(json.weights, 'leaky_model.bin');
    assert.deepEqual(json.nodes[0].attributes, { alpha: 0.1 });
  });

  it('computes an output that depends on constants alone through an Identity', () => {
    const bytes = model({
      inputs: [['x', [2]]],
      outputs: [['y', [2]], ['k', [2]]],
      initializers: [float32Tensor('a', [2], [1, 2])],
      nodes: [node('Relu', ['x'], ['y']), node('Neg', ['a'], ['k'])],
    });
    const result = convertOnnx(bytes);
    const identity = result.json.nodes.find((n) => n.op === 'Identity');
    assert.deepEqual(identity.outputs, ['k']);
    assert.deepEqual(initializerValues(result, identity.inputs[0]), [-1, -2]);
  });
});
