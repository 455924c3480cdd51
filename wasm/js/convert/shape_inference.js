// Output types and static shapes of every op the engine runs and every op the converter
// folds, following ONNX (latest opset forms, after opset.js has normalised the node).
import { ConvertError } from './errors.js';
import {
  axesOf, broadcastShapes, constantInts, normalizeAxis, optionalInts, permutation, reducedAxes, shapeRange, sliceRanges,
  splitSizes,
} from './shape_util.js';
import { spatialShapes } from './shape_spatial.js';
import { dtypeName, numel } from './tensor.js';

const same = (node, [x]) => [{ dtype: x.dtype, shape: x.shape }];

function broadcast(node, inputs) {
  const present = inputs.filter(Boolean);
  return [{ dtype: present[0].dtype, shape: broadcastShapes(...present.map((t) => t.shape)) }];
}

function compare(node, inputs) {
  return [{ dtype: 'bool', shape: broadcastShapes(inputs[0].shape, inputs[1].shape) }];
}

function withAxis(node, [x]) {
  normalizeAxis(node.attrs.axis ?? -1, x.shape.length);
  return [{ dtype: x.dtype, shape: x.shape }];
}

function reshape(node, [x, shapeInput]) {
  const target = constantInts([x, shapeInput], 1, 'shape');
  const allowZero = node.attrs.allowzero === 1;
  const total = numel(x.shape);
  let inferAt = -1;
  const out = target.map((d, i) => {
    if (d === 0 && !allowZero) {
      if (i >= x.shape.length) throw new ConvertError(`shape[${i}] = 0 copies a dimension the input lacks`);
      return x.shape[i];
    }
    if (d === -1) {
      if (inferAt >= 0) throw new ConvertError('shape has more than one -1');
      inferAt = i;
      return 1;
    }
    if (d < 0) throw new ConvertError(`shape[${i}] = ${d} is invalid`);
    return d;
  });
  if (inferAt >= 0) {
    const known = numel(out);
    if (known === 0 || total % known !== 0) throw new ConvertError(`cannot reshape [${x.shape}] to [${target}]`);
    out[inferAt] = total / known;
  }
  if (numel(out) !== total) throw new ConvertError(`cannot reshape [${x.shape}] (${total} elements) to [${out}]`);
  return [{ dtype: x.dtype, shape: out }];
}

function flatten(node, [x]) {
  const rank = x.shape.length;
  let axis = node.attrs.axis ?? 1;
  if (axis < -rank || axis > rank) throw new ConvertError(`axis ${axis} is out of range for rank ${rank}`);
  if (axis < 0) axis += rank;
  return [{ dtype: x.dtype, shape: [numel(x.shape.slice(0, axis)), numel(x.shape.slice(axis))] }];
}

function transpose(node, [x]) {
  return [{ dtype: x.dtype, shape: permutation(node, x.shape.length).map((p) => x.shape[p]) }];
}

function squeeze(node, inputs) {
  const x = inputs[0];
  const axes = axesOf(node, inputs);
  const rank = x.shape.length;
  const drop = new Set();
  if (axes === undefined) {
    x.shape.forEach((d, i) => d === 1 && drop.add(i));
  } else {
    for (const a of axes) {
      const axis = normalizeAxis(a, rank);
      if (x.shape[axis] !== 1) throw new ConvertError(`cannot squeeze axis ${a} of size ${x.shape[axis]}`);
      drop.add(axis);
    }
  }
  return [{ dtype: x.dtype, shape: x.shape.filter((_, i) => !drop.has(i)) }];
}

function unsqueeze(node, inputs) {
  const x = inputs[0];
  const axes = axesOf(node, inputs);
  if (!axes || axes.length === 0) throw new ConvertError('needs axes');
  const rank = x.shape.length + axes.length;
  const inserted = new Set();
  for (const a of axes) {
    const axis = normalizeAxis(a, rank);
    if (inserted.has(axis)) throw new ConvertError(`axis ${a} is repeated`);
    inserted.add(axis);
  }
  let next = 0;
  return [{ dtype: x.dtype, shape: Array.from({ length: rank }, (_, i) => (inserted.has(i) ? 1 : x.shape[next++])) }];
}

function concat(node, inputs) {
  const present = inputs.filter(Boolean);
  if (node.attrs.axis === undefined) throw new ConvertError('attribute "axis" is required');
  const rank = present[0].shape.length;
  const axis = normalizeAxis(node.attrs.axis, rank);
  const out = [...present[0].shape];
  out[axis] = 0;
  for (const t of present) {
    if (t.shape.length !== rank || t.shape.some((d, i) => i !== axis && d !== out[i])) {
      throw new ConvertError(`inputs [${present.map((p) => p.shape).join('], [')}] cannot be concatenated on axis ${node.attrs.axis}`);
    }
    out[axis] += t.shape[axis];
  }
  return [{ dtype: present[0].dtype, shape: out }];
}

function split(node, inputs) {
  const x = inputs[0];
  const axis = normalizeAxis(node.attrs.axis ?? 0, x.shape.length);
  const sizes = splitSizes(node, inputs, x.shape[axis], node.outputs.length);
  return sizes.map((s) => ({ dtype: x.dtype, shape: x.shape.map((d, i) => (i === axis ? s : d)) }));
}

function slice(node, inputs) {
  const x = inputs[0];
  const ranges = sliceRanges(
    x.shape,
    constantInts(inputs, 1, 'starts'),
    constantInts(inputs, 2, 'ends'),
    optionalInts(inputs, 3, 'axes'),
    optionalInts(inputs, 4, 'steps'),
  );
  return [{ dtype: x.dtype, shape: ranges.map((r) => r.count) }];
}

function gather(node, [data, indices]) {
  const axis = normalizeAxis(node.attrs.axis ?? 0, data.shape.length);
  if (!indices.data) throw new ConvertError('indices (input 1) must be a constant, but they are computed at run time');
  for (const i of indices.data) {
    if (i < -data.shape[axis] || i >= data.shape[axis]) {
      throw new ConvertError(`index ${i} is out of range for axis ${axis} of size ${data.shape[axis]}`);
    }
  }
  const shape = [...data.shape.slice(0, axis), ...indices.shape, ...data.shape.slice(axis + 1)];
  return [{ dtype: data.dtype, shape }];
}

function expand(node, inputs) {
  const target = constantInts(inputs, 1, 'shape');
  return [{ dtype: inputs[0].dtype, shape: broadcastShapes(inputs[0].shape, target) }];
}

function tile(node, inputs) {
  const repeats = constantInts(inputs, 1, 'repeats');
  if (repeats.length !== inputs[0].shape.length) throw new ConvertError('repeats must have one entry per axis');
  return [{ dtype: inputs[0].dtype, shape: inputs[0].shape.map((d, i) => d * repeats[i]) }];
}

function pad(node, inputs) {
  const x = inputs[0];
  const rank = x.shape.length;
  const pads = constantInts(inputs, 1, 'pads');
  const axes = (optionalInts(inputs, 3, 'axes') ?? x.shape.map((_, i) => i)).map((a) => normalizeAxis(a, rank));
  if (pads.length !== 2 * axes.length) throw new ConvertError(`pads has ${pads.length} values for ${axes.length} axes`);
  const shape = [...x.shape];
  axes.forEach((axis, i) => {
    shape[axis] += pads[i] + pads[i + axes.length];
  });
  if (shape.some((d) => d < 0)) throw new ConvertError(`pads [${pads}] make the shape [${shape}] negative`);
  return [{ dtype: x.dtype, shape }];
}

function reduce(node, inputs) {
  const x = inputs[0];
  const reduced = reducedAxes(node, inputs, x.shape.length);
  const keep = (node.attrs.keepdims ?? 1) !== 0;
  const shape = [];
  x.shape.forEach((d, i) => {
    if (!reduced.has(i)) shape.push(d);
    else if (keep) shape.push(1);
  });
  return [{ dtype: x.dtype, shape }];
}

function cast(node, [x]) {
  if (node.attrs.to === undefined) throw new ConvertError('attribute "to" is required');
  return [{ dtype: dtypeName(node.attrs.to), shape: x.shape }];
}

function shapeOp(node, [x]) {
  const [start, end] = shapeRange(node.attrs, x.shape.length);
  return [{ dtype: 'int64', shape: [end - start] }];
}

function constantOfShape(node, inputs) {
  const shape = constantInts(inputs, 0, 'shape');
  if (shape.some((d) => d < 0)) throw new ConvertError(`shape [${shape}] has a negative dimension`);
  return [{ dtype: node.attrs.value?.tensor?.dtype ?? 'float32', shape }];
}

function range(node, inputs) {
  const [start, limit, delta] = [0, 1, 2].map((i) => {
    const t = inputs[i];
    if (!t?.data || t.data.length !== 1) throw new ConvertError(`input ${i} must be a constant scalar`);
    return t.data[0];
  });
  if (delta === 0) throw new ConvertError('delta is 0');
  return [{ dtype: inputs[0].dtype, shape: [Math.max(Math.ceil((limit - start) / delta), 0)] }];
}

// Y, and the optional Mean and InvStdDev with the normalised axes reduced to 1.
function layerNormalization(node, [x]) {
  const axis = normalizeAxis(node.attrs.axis ?? -1, x.shape.length);
  const statistics = x.shape.map((d, i) => (i >= axis ? 1 : d));
  return [{ dtype: x.dtype, shape: x.shape }, ...node.outputs.slice(1).map(() => ({ dtype: x.dtype, shape: statistics }))];
}

function where(node, [cond, x, y]) {
  return [{ dtype: x.dtype, shape: broadcastShapes(cond.shape, x.shape, y.shape) }];
}

const kUnary = [
  'Relu', 'LeakyRelu', 'Sigmoid', 'Tanh', 'HardSigmoid', 'HardSwish', 'Erf', 'Gelu', 'Sqrt', 'Clip', 'Identity',
  'Neg', 'Abs', 'Floor', 'Ceil', 'Round', 'Exp', 'Log', 'Reciprocal', 'Sign', 'Not',
];
const kBinary = ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Mod', 'And', 'Or', 'Xor', 'Min', 'Max', 'Sum', 'Mean'];
const kCompare = ['Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual'];
const kReduce = [
  'ReduceMean', 'ReduceSum', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum',
  'ReduceLogSumExp', 'ReduceSumSquare',
];

const kShapeFunctions = {
  ...Object.fromEntries(kUnary.map((op) => [op, same])),
  ...Object.fromEntries(kBinary.map((op) => [op, broadcast])),
  ...Object.fromEntries(kCompare.map((op) => [op, compare])),
  ...Object.fromEntries(kReduce.map((op) => [op, reduce])),
  Softmax: withAxis, LogSoftmax: withAxis, Hardmax: withAxis, LayerNormalization: layerNormalization,
  BatchNormalization: same,
  Reshape: reshape, Flatten: flatten, Transpose: transpose, Squeeze: squeeze, Unsqueeze: unsqueeze,
  Concat: concat, Split: split, Slice: slice, Gather: gather, Expand: expand, Tile: tile, Pad: pad,
  Cast: cast, Shape: shapeOp, Size: () => [{ dtype: 'int64', shape: [] }],
  ConstantOfShape: constantOfShape, Range: range, Where: where,
  ...spatialShapes,
};

/** True when the converter knows the output shapes of `op`. */
export function hasShapeFunction(op) {
  return Object.hasOwn(kShapeFunctions, op);
}

// Inputs each op needs (after opset.js's rewrites); ops not listed need one.
const kRequiredInputs = {
  ...Object.fromEntries([...kBinary, ...kCompare].map((op) => [op, 2])),
  Min: 1, Max: 1, Sum: 1, Mean: 1, Concat: 1,
  Conv: 2, ConvTranspose: 2, MatMul: 2, Gemm: 2, Reshape: 2, Expand: 2, Tile: 2, Gather: 2, Pad: 2,
  LayerNormalization: 2, BatchNormalization: 5, Slice: 3, Where: 3, Range: 3,
};
const kMaxElements = 2 ** 31;

/**
 * Output types and shapes of `node` given its inputs ({ dtype, shape, data? } or null for an
 * omitted optional input). Throws ConvertError for inputs the op cannot take.
 */
export function inferShapes(node, inputs) {
  const required = kRequiredInputs[node.op] ?? 1;
  for (let i = 0; i < required; ++i) {
    if (!inputs[i]) throw new ConvertError(`input ${i} is required (${node.op} takes at least ${required})`);
  }
  const outputs = kShapeFunctions[node.op](node, inputs);
  if (outputs.length < node.outputs.length) throw new ConvertError(`has ${node.outputs.length} outputs; ${node.op} computes ${outputs.length}`);
  for (const o of outputs) {
    if (o.shape.some((d) => !Number.isInteger(d) || d < 0)) {
      throw new ConvertError(`inferred an invalid output shape [${o.shape}]`);
    }
    if (numel(o.shape) > kMaxElements) throw new ConvertError(`output [${o.shape}] holds more than 2^31 elements`);
  }
  return outputs;
}
