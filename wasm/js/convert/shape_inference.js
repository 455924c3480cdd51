// Output types and shapes of every op the engine runs and every op the converter folds,
// following ONNX (latest opset forms, after opset.js has normalised the node). Dimensions are
// numbers or symbols (symbolic.js); a shape function returns null for a dimension only the
// engine will know, and inferShapes names each such dimension with a fresh symbol.
import { ConvertError } from './errors.js';
import {
  axesOf, broadcastShapes, normalizeAxis, optionalInts, permutation, reducedAxes, shapeRange, shapeValues,
  sliceRanges, splitSizes,
} from './shape_util.js';
import { spatialShapes } from './shape_spatial.js';
import { broadcastDim, dimProduct, dimSum, formatShape, inferredDim, isSymbol } from './symbolic.js';
import { dtypeName, numel } from './tensor.js';

const same = (node, [x]) => [{ dtype: x.dtype, shape: x.shape }];

function broadcast(node, inputs) {
  const present = inputs.filter(Boolean);
  return [{ dtype: present[0].dtype, shape: broadcastShapes(...present.map((t) => t.shape)) }];
}

function compare(node, inputs) {
  return [{ dtype: 'bool', shape: broadcastShapes(inputs[0].shape, inputs[1].shape) }];
}

function logical(node, inputs) {
  return [{ dtype: 'bool', shape: broadcastShapes(...inputs.filter(Boolean).map((t) => t.shape)) }];
}

function withAxis(node, [x]) {
  normalizeAxis(node.attrs.axis ?? -1, x.shape.length);
  return [{ dtype: x.dtype, shape: x.shape }];
}

function reshape(node, [x, shapeInput]) {
  const target = shapeValues([x, shapeInput], 1, 'shape');
  const allowZero = node.attrs.allowzero === 1;
  let inferAt = -1;
  const out = target.map((d, i) => {
    if (d === null) return null;
    if (isSymbol(d)) return d;
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
    const known = out.filter((_, i) => i !== inferAt);
    try {
      out[inferAt] = inferredDim(x.shape, known);
    } catch {
      throw new ConvertError(`cannot reshape ${formatShape(x.shape)} to [${target}]`);
    }
  }
  const total = dimProduct(x.shape);
  const result = dimProduct(out);
  if (typeof total === 'number' && typeof result === 'number' && result !== total) {
    throw new ConvertError(`cannot reshape [${x.shape}] (${total} elements) to [${out}]`);
  }
  return [{ dtype: x.dtype, shape: out }];
}

function flatten(node, [x]) {
  const rank = x.shape.length;
  let axis = node.attrs.axis ?? 1;
  if (axis < -rank || axis > rank) throw new ConvertError(`axis ${axis} is out of range for rank ${rank}`);
  if (axis < 0) axis += rank;
  return [{ dtype: x.dtype, shape: [dimProduct(x.shape.slice(0, axis)), dimProduct(x.shape.slice(axis))] }];
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
    const symbols = x.shape.filter(isSymbol);
    if (symbols.length) {
      throw new ConvertError(`squeezes every dimension of size 1 of ${formatShape(x.shape)} without axes; the symbolic ones may or may not be 1 (pin them with inputShapes / --input-shape)`);
    }
    x.shape.forEach((d, i) => d === 1 && drop.add(i));
  } else {
    for (const a of axes) {
      const axis = normalizeAxis(a, rank);
      // A symbolic dimension is taken to be 1 here; the engine checks it.
      if (typeof x.shape[axis] === 'number' && x.shape[axis] !== 1) throw new ConvertError(`cannot squeeze axis ${a} of size ${x.shape[axis]}`);
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
  for (const t of present) {
    const fits = t.shape.length === rank && t.shape.every((d, i) =>
      i === axis || d === out[i] || isSymbol(d) || isSymbol(out[i]));
    if (!fits) {
      throw new ConvertError(`inputs ${present.map((p) => formatShape(p.shape)).join(', ')} cannot be concatenated on axis ${node.attrs.axis}`);
    }
    // Where one input has a number and another a symbol, the number is what the symbol must be.
    t.shape.forEach((d, i) => { if (i !== axis && typeof d === 'number') out[i] = d; });
  }
  out[axis] = dimSum(present.map((t) => t.shape[axis]));
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
  // Axes or steps computed in the graph: the rank stays, every size is the engine's to know.
  if ([3, 4].some((i) => inputs[i] && !inputs[i].data)) return [{ dtype: x.dtype, shape: x.shape.map(() => null) }];
  const ranges = sliceRanges(
    x.shape,
    shapeValues(inputs, 1, 'starts'),
    shapeValues(inputs, 2, 'ends'),
    optionalInts(inputs, 3, 'axes'),
    optionalInts(inputs, 4, 'steps'),
  );
  return [{ dtype: x.dtype, shape: ranges.map((r) => r.count) }];
}

function gather(node, [data, indices]) {
  const axis = normalizeAxis(node.attrs.axis ?? 0, data.shape.length);
  const size = data.shape[axis];
  if (indices.data && typeof size === 'number') {
    for (const i of indices.data) {
      if (i < -size || i >= size) throw new ConvertError(`index ${i} is out of range for axis ${axis} of size ${size}`);
    }
  }
  const shape = [...data.shape.slice(0, axis), ...indices.shape, ...data.shape.slice(axis + 1)];
  return [{ dtype: data.dtype, shape }];
}

function gatherElements(node, [data, indices]) {
  normalizeAxis(node.attrs.axis ?? 0, data.shape.length);
  if (indices.shape.length !== data.shape.length) throw new ConvertError(`indices ${formatShape(indices.shape)} and data ${formatShape(data.shape)} differ in rank`);
  return [{ dtype: data.dtype, shape: indices.shape }];
}

function gatherND(node, [data, indices]) {
  const batch = node.attrs.batch_dims ?? 0;
  const k = indices.shape.at(-1);
  if (typeof k !== 'number') throw new ConvertError(`the last dimension of indices ${formatShape(indices.shape)} must be a number`);
  if (batch + k > data.shape.length) throw new ConvertError(`indices ${formatShape(indices.shape)} index past the rank of data ${formatShape(data.shape)}`);
  return [{ dtype: data.dtype, shape: [...indices.shape.slice(0, -1), ...data.shape.slice(batch + k)] }];
}

function expand(node, inputs) {
  const x = inputs[0].shape;
  const target = shapeValues(inputs, 1, 'shape');
  const rank = Math.max(x.length, target.length);
  const shape = Array.from({ length: rank }, (_, i) => {
    const xd = i < rank - x.length ? 1 : x[i - (rank - x.length)];
    const td = i < rank - target.length ? 1 : target[i - (rank - target.length)];
    // An unknown target entry: the input's dimension if it is a number other than 1 (the
    // entry must then be 1 or equal), else unknown.
    if (td === null) return typeof xd === 'number' && xd !== 1 ? xd : null;
    const d = broadcastDim(xd, td);
    if (d === undefined) throw new ConvertError(`shapes ${formatShape(x)} and [${target}] do not broadcast`);
    return d;
  });
  return [{ dtype: inputs[0].dtype, shape }];
}

function tile(node, inputs) {
  const repeats = shapeValues(inputs, 1, 'repeats');
  if (repeats.length !== inputs[0].shape.length) throw new ConvertError('repeats must have one entry per axis');
  return [{ dtype: inputs[0].dtype, shape: inputs[0].shape.map((d, i) => dimProduct([d, repeats[i]])) }];
}

function pad(node, inputs) {
  const x = inputs[0];
  const rank = x.shape.length;
  const pads = shapeValues(inputs, 1, 'pads');
  const axes = (optionalInts(inputs, 3, 'axes') ?? x.shape.map((_, i) => i)).map((a) => normalizeAxis(a, rank));
  if (pads.length !== 2 * axes.length) throw new ConvertError(`pads has ${pads.length} values for ${axes.length} axes`);
  const shape = [...x.shape];
  axes.forEach((axis, i) => {
    const [before, after] = [pads[i], pads[i + axes.length]];
    if (typeof before !== 'number' || typeof after !== 'number') shape[axis] = null;
    else if (typeof shape[axis] === 'number') shape[axis] += before + after;
    else if (before + after !== 0) shape[axis] = null;
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

function argReduce(node, [x]) {
  const axis = normalizeAxis(node.attrs.axis ?? 0, x.shape.length);
  const keep = (node.attrs.keepdims ?? 1) !== 0;
  const shape = keep ? x.shape.map((d, i) => (i === axis ? 1 : d)) : x.shape.filter((_, i) => i !== axis);
  return [{ dtype: 'int64', shape }];
}

function topK(node, inputs) {
  const x = inputs[0];
  const axis = normalizeAxis(node.attrs.axis ?? -1, x.shape.length);
  const [k] = shapeValues(inputs, 1, 'k');
  if (typeof k === 'number' && typeof x.shape[axis] === 'number' && (k < 0 || k > x.shape[axis])) {
    throw new ConvertError(`k = ${k} is out of range for axis ${axis} of size ${x.shape[axis]}`);
  }
  const shape = x.shape.map((d, i) => (i === axis ? k : d));
  return [{ dtype: x.dtype, shape }, { dtype: 'int64', shape }];
}

function oneHot(node, inputs) {
  const [indices, , values] = inputs;
  const [depth] = shapeValues(inputs, 1, 'depth');
  const rank = indices.shape.length + 1;
  const axis = normalizeAxis(node.attrs.axis ?? -1, rank);
  const shape = [...indices.shape.slice(0, axis), depth === null ? null : depth, ...indices.shape.slice(axis)];
  return [{ dtype: values.dtype, shape }];
}

function nonZero(node, [x]) {
  return [{ dtype: 'int64', shape: [x.shape.length, null] }];
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
  const shape = shapeValues(inputs, 0, 'shape');
  if (shape.some((d) => typeof d === 'number' && d < 0)) throw new ConvertError(`shape [${shape}] has a negative dimension`);
  return [{ dtype: node.attrs.value?.tensor?.dtype ?? 'float32', shape }];
}

function range(node, inputs) {
  const [start, limit, delta] = [0, 1, 2].map((i) => {
    const t = inputs[i];
    if (t.shape.length > 1 || (t.shape.length === 1 && t.shape[0] !== 1)) throw new ConvertError(`input ${i} must be a scalar`);
    return t.data ? t.data[0] : t.elements?.[0] ?? null;
  });
  if (delta === 0) throw new ConvertError('delta is 0');
  const numeric = [start, limit, delta].every((v) => typeof v === 'number');
  // Range(0, n, 1) with n a symbol counts n elements.
  const length = numeric ? Math.max(Math.ceil((limit - start) / delta), 0) : start === 0 && delta === 1 && isSymbol(limit) ? limit : null;
  return [{ dtype: inputs[0].dtype, shape: [length] }];
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

function trilu(node, [x]) {
  if (x.shape.length < 2) throw new ConvertError(`input must have rank >= 2, got ${formatShape(x.shape)}`);
  return [{ dtype: x.dtype, shape: x.shape }];
}

function depthToSpace(node, [x]) {
  if (x.shape.length !== 4) throw new ConvertError(`input must be 4-D, got ${formatShape(x.shape)}`);
  const b = node.attrs.blocksize;
  if (!(b > 0)) throw new ConvertError('attribute "blocksize" must be positive');
  const [n, c, h, w] = x.shape;
  if (typeof c === 'number' && c % (b * b)) throw new ConvertError(`channels ${c} do not divide by blocksize^2 = ${b * b}`);
  const channels = typeof c === 'number' ? c / (b * b) : b === 1 ? c : null;
  return [{ dtype: x.dtype, shape: [n, channels, dimProduct([h, b]), dimProduct([w, b])] }];
}

function spaceToDepth(node, [x]) {
  if (x.shape.length !== 4) throw new ConvertError(`input must be 4-D, got ${formatShape(x.shape)}`);
  const b = node.attrs.blocksize;
  if (!(b > 0)) throw new ConvertError('attribute "blocksize" must be positive');
  const [n, c, h, w] = x.shape;
  const down = (d) => {
    if (typeof d !== 'number') return b === 1 ? d : null;
    if (d % b) throw new ConvertError(`spatial size ${d} does not divide by blocksize ${b}`);
    return d / b;
  };
  return [{ dtype: x.dtype, shape: [n, dimProduct([c, b * b]), down(h), down(w)] }];
}

// Einsum: each input's letters (with "..." for broadcast batch dimensions) name its axes; the
// output lists letters after "->", else every letter used once, in alphabetical order.
function einsum(node, inputs) {
  const equation = (node.attrs.equation ?? '').replace(/\s/g, '');
  const [lhs, rhs] = equation.split('->');
  const terms = lhs.split(',');
  if (terms.length !== inputs.length) throw new ConvertError(`equation "${equation}" has ${terms.length} operands for ${inputs.length} inputs`);
  const sizes = new Map();
  let ellipsis = [];
  terms.forEach((term, i) => {
    const shape = inputs[i].shape;
    const [head, tail] = term.includes('...') ? term.split('...') : [term, null];
    const letters = tail === null ? [...head] : [...head, ...tail];
    const batchRank = shape.length - letters.length;
    if (batchRank < 0 || (tail === null && batchRank !== 0)) throw new ConvertError(`operand ${i} "${term}" does not fit shape ${formatShape(shape)}`);
    if (tail !== null) ellipsis = broadcastShapes(ellipsis, shape.slice(head.length, head.length + batchRank));
    const dims = [...shape.slice(0, head.length), ...shape.slice(head.length + batchRank)];
    letters.forEach((letter, j) => {
      if (!/[A-Za-z]/.test(letter)) throw new ConvertError(`equation "${equation}" has an invalid label "${letter}"`);
      const seen = sizes.get(letter);
      const d = dims[j];
      if (seen === undefined || seen === 1 || (isSymbol(seen) && typeof d === 'number' && d !== 1)) sizes.set(letter, d);
      else if (typeof seen === 'number' && typeof d === 'number' && d !== seen && d !== 1) {
        throw new ConvertError(`label "${letter}" has sizes ${seen} and ${d}`);
      }
    });
  });
  let output;
  if (rhs !== undefined) {
    output = rhs;
  } else {
    const counts = new Map();
    for (const letter of terms.join('').replace(/\.\.\./g, '')) counts.set(letter, (counts.get(letter) ?? 0) + 1);
    output = `${lhs.includes('...') ? '...' : ''}${[...counts].filter(([, n]) => n === 1).map(([l]) => l).sort().join('')}`;
  }
  const shape = [];
  const [head, tail] = output.includes('...') ? output.split('...') : [output, null];
  for (const letter of head) {
    if (!sizes.has(letter)) throw new ConvertError(`output label "${letter}" is not an input label`);
    shape.push(sizes.get(letter));
  }
  if (tail !== null) {
    shape.push(...ellipsis);
    for (const letter of tail) {
      if (!sizes.has(letter)) throw new ConvertError(`output label "${letter}" is not an input label`);
      shape.push(sizes.get(letter));
    }
  }
  return [{ dtype: inputs[0].dtype, shape }];
}

const kUnary = [
  'Relu', 'LeakyRelu', 'Sigmoid', 'Tanh', 'HardSigmoid', 'HardSwish', 'Erf', 'Gelu', 'Sqrt', 'Clip', 'Identity',
  'Neg', 'Abs', 'Floor', 'Ceil', 'Round', 'Exp', 'Log', 'Reciprocal', 'Sign', 'Sin', 'Cos', 'Softplus', 'Elu', 'Selu',
  'Mish', 'CumSum', 'InstanceNormalization', 'GroupNormalization', 'ScatterND', 'ScatterElements',
];
const kBinary = ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Mod', 'Min', 'Max', 'Sum', 'Mean', 'PRelu'];
const kLogical = ['And', 'Or', 'Xor', 'Not'];
const kCompare = ['Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual'];
const kReduce = [
  'ReduceMean', 'ReduceSum', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum',
  'ReduceLogSumExp', 'ReduceSumSquare',
];

const kShapeFunctions = {
  ...Object.fromEntries(kUnary.map((op) => [op, same])),
  ...Object.fromEntries(kBinary.map((op) => [op, broadcast])),
  ...Object.fromEntries(kLogical.map((op) => [op, logical])),
  ...Object.fromEntries(kCompare.map((op) => [op, compare])),
  ...Object.fromEntries(kReduce.map((op) => [op, reduce])),
  Softmax: withAxis, LogSoftmax: withAxis, Hardmax: withAxis, LayerNormalization: layerNormalization,
  BatchNormalization: same,
  Reshape: reshape, Flatten: flatten, Transpose: transpose, Squeeze: squeeze, Unsqueeze: unsqueeze,
  Concat: concat, Split: split, Slice: slice, Gather: gather, GatherElements: gatherElements, GatherND: gatherND,
  Expand: expand, Tile: tile, Pad: pad, Cast: cast, Shape: shapeOp, Size: () => [{ dtype: 'int64', shape: [] }],
  ConstantOfShape: constantOfShape, Range: range, Where: where, ArgMax: argReduce, ArgMin: argReduce, TopK: topK,
  OneHot: oneHot, NonZero: nonZero, Trilu: trilu, DepthToSpace: depthToSpace, SpaceToDepth: spaceToDepth,
  Einsum: einsum,
  ...spatialShapes,
};

/** True when the converter knows the output shapes of `op`. */
export function hasShapeFunction(op) {
  return Object.hasOwn(kShapeFunctions, op);
}

// Inputs each op needs (after opset.js's rewrites); ops not listed need one.
const kRequiredInputs = {
  ...Object.fromEntries([...kBinary, ...kCompare, ...kLogical].map((op) => [op, 2])),
  Min: 1, Max: 1, Sum: 1, Mean: 1, Concat: 1, Not: 1,
  Conv: 2, ConvTranspose: 2, MatMul: 2, Gemm: 2, Reshape: 2, Expand: 2, Tile: 2, Gather: 2, Pad: 2,
  GatherElements: 2, GatherND: 2, ScatterND: 3, ScatterElements: 3, CumSum: 2, TopK: 2, OneHot: 3,
  LayerNormalization: 2, BatchNormalization: 5, InstanceNormalization: 3, GroupNormalization: 3,
  Slice: 3, Where: 3, Range: 3,
};
const kMaxElements = 2 ** 31;

/**
 * Output types and shapes of `node` given its inputs ({ dtype, shape, data?, elements? } or
 * null for an omitted optional input). Throws ConvertError for inputs the op cannot take.
 * `fresh(hint)` returns a new symbol for a dimension only the engine will know.
 */
export function inferShapes(node, inputs, fresh) {
  const required = kRequiredInputs[node.op] ?? 1;
  for (let i = 0; i < required; ++i) {
    if (!inputs[i]) throw new ConvertError(`input ${i} is required (${node.op} takes at least ${required})`);
  }
  const outputs = kShapeFunctions[node.op](node, inputs);
  if (outputs.length < node.outputs.length) throw new ConvertError(`has ${node.outputs.length} outputs; ${node.op} computes ${outputs.length}`);
  return outputs.map((o, k) => {
    if (o.shape.some((d) => d !== null && !isSymbol(d) && (!Number.isInteger(d) || d < 0))) {
      throw new ConvertError(`inferred an invalid output shape [${o.shape}]`);
    }
    const numeric = o.shape.filter((d) => typeof d === 'number');
    if (numel(numeric) > kMaxElements) throw new ConvertError(`output [${o.shape}] holds more than 2^31 elements`);
    const name = node.outputs[k] || `${node.name}_${k}`;
    return { ...o, shape: o.shape.map((d, i) => (d === null ? fresh(`${name}_d${i}`) : d)) };
  });
}
