// Constant folding: evaluates a node whose inputs are all constants, so shape computations
// (Shape -> Gather -> Concat -> Reshape, ...) become int64 initializers. Output shapes come
// from shape inference; this file only fills in the values.
import { ConvertError } from './errors.js';
import {
  constantInts, normalizeAxis, optionalInts, permutation, reducedAxes, shapeRange, sliceRanges, stridesOf,
} from './shape_util.js';
import { isFloatType, makeTensor, numel, roundToHalf } from './tensor.js';

// For each output element, the flat index it reads from a broadcast input.
function broadcastIndex(inShape, outShape) {
  const n = numel(outShape);
  const offset = outShape.length - inShape.length;
  const inStrides = stridesOf(inShape);
  const steps = outShape.map((d, i) => (i < offset || inShape[i - offset] === 1 ? 0 : inStrides[i - offset]));
  const index = new Float64Array(n);
  const counter = new Array(outShape.length).fill(0);
  let at = 0;
  for (let k = 0; k < n; ++k) {
    index[k] = at;
    for (let d = outShape.length - 1; d >= 0; --d) {
      at += steps[d];
      if (++counter[d] < outShape[d]) break;
      at -= steps[d] * outShape[d];
      counter[d] = 0;
    }
  }
  return index;
}

function elementwise(inputs, out, fn) {
  const maps = inputs.map((t) => broadcastIndex(t.shape, out.shape));
  const result = makeTensor(out.dtype, out.shape);
  const args = new Array(inputs.length);
  for (let k = 0; k < result.data.length; ++k) {
    for (let j = 0; j < inputs.length; ++j) args[j] = inputs[j].data[maps[j][k]];
    result.data[k] = fn(...args);
  }
  return result;
}

function integerDivide(a, b) {
  if (b === 0) throw new ConvertError('integer division by zero while folding constants');
  return Math.trunc(a / b);
}

function binaryFunction(op, dtype, attrs) {
  const integer = !isFloatType(dtype);
  switch (op) {
    case 'Add': case 'Sum': return (a, b) => a + b;
    case 'Sub': return (a, b) => a - b;
    case 'Mul': return (a, b) => a * b;
    case 'Div': return integer ? integerDivide : (a, b) => a / b;
    case 'Pow': return (a, b) => a ** b;
    case 'Mod':
      if (attrs.fmod || !integer) return (a, b) => a % b;
      return (a, b) => {
        const r = a % b;
        return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
      };
    case 'Min': return Math.min;
    case 'Max': return Math.max;
    case 'And': return (a, b) => +(a && b);
    case 'Or': return (a, b) => +(a || b);
    case 'Xor': return (a, b) => +(!a !== !b);
    case 'Equal': return (a, b) => +(a === b);
    case 'Less': return (a, b) => +(a < b);
    case 'Greater': return (a, b) => +(a > b);
    case 'LessOrEqual': return (a, b) => +(a <= b);
    case 'GreaterOrEqual': return (a, b) => +(a >= b);
    default: return undefined;
  }
}

function roundHalfEven(v) {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const kUnary = {
  Identity: (v) => v, Neg: (v) => -v, Abs: Math.abs, Floor: Math.floor, Ceil: Math.ceil, Round: roundHalfEven,
  Exp: Math.exp, Log: Math.log, Reciprocal: (v) => 1 / v, Sign: Math.sign, Not: (v) => +!v, Sqrt: Math.sqrt,
  Relu: (v) => Math.max(v, 0),
};

const kIntRanges = {
  int8: [8, true], int16: [16, true], int32: [32, true], uint8: [8, false], uint16: [16, false], uint32: [32, false],
};

/** Converts one value to `dtype` as ONNX Cast does (truncation toward zero for integers). */
function castValue(v, dtype) {
  if (dtype === 'float16') return roundToHalf(Math.fround(v));
  if (dtype === 'bfloat16') return Math.fround(v);
  if (isFloatType(dtype)) return v;
  if (dtype === 'bool') return v ? 1 : 0;
  if (Number.isNaN(v)) return 0;
  const t = Math.trunc(v);
  const range = kIntRanges[dtype];
  if (!range) return t;
  const [bits, signed] = range;
  const wrapped = ((t % 2 ** bits) + 2 ** bits) % 2 ** bits;
  return signed && wrapped >= 2 ** (bits - 1) ? wrapped - 2 ** bits : wrapped;
}

function withData(out, data) {
  const t = makeTensor(out.dtype, out.shape);
  t.data.set(data);
  return t;
}

function transpose(node, [x], out) {
  const inStrides = stridesOf(x.shape);
  return gatherStrided(x, out, permutation(node, x.shape.length).map((p) => inStrides[p]), 0);
}

// Reads x at base + sum(counter[d] * steps[d]) for each output position in order.
function gatherStrided(x, out, steps, base) {
  const result = makeTensor(out.dtype, out.shape);
  const counter = new Array(out.shape.length).fill(0);
  let at = base;
  for (let k = 0; k < result.data.length; ++k) {
    result.data[k] = x.data[at];
    for (let d = out.shape.length - 1; d >= 0; --d) {
      at += steps[d];
      if (++counter[d] < out.shape[d]) break;
      at -= steps[d] * out.shape[d];
      counter[d] = 0;
    }
  }
  return result;
}

function slice(node, inputs, out) {
  const x = inputs[0];
  const ranges = sliceRanges(x.shape, constantInts(inputs, 1, 'starts'), constantInts(inputs, 2, 'ends'),
    optionalInts(inputs, 3, 'axes'), optionalInts(inputs, 4, 'steps'));
  const strides = stridesOf(x.shape);
  const base = ranges.reduce((b, r, d) => b + r.start * strides[d], 0);
  return gatherStrided(x, out, ranges.map((r, d) => r.step * strides[d]), base);
}

// Copies x's blocks along `axis`: `pick(j)` is the source index along axis for output slot j.
function alongAxis(x, out, axis, pick) {
  const outer = numel(x.shape.slice(0, axis));
  const inner = numel(x.shape.slice(axis + 1));
  const count = out.shape[axis];
  const result = makeTensor(out.dtype, out.shape);
  let k = 0;
  for (let o = 0; o < outer; ++o) {
    for (let j = 0; j < count; ++j) {
      const from = (o * x.shape[axis] + pick(j)) * inner;
      for (let i = 0; i < inner; ++i) result.data[k++] = x.data[from + i];
    }
  }
  return result;
}

function gather(node, [data, indices], out) {
  const axis = normalizeAxis(node.attrs.axis ?? 0, data.shape.length);
  const size = data.shape[axis];
  const outer = numel(data.shape.slice(0, axis));
  const inner = numel(data.shape.slice(axis + 1));
  const result = makeTensor(out.dtype, out.shape);
  let k = 0;
  for (let o = 0; o < outer; ++o) {
    for (const raw of indices.data) {
      const from = (o * size + (raw < 0 ? raw + size : raw)) * inner;
      for (let i = 0; i < inner; ++i) result.data[k++] = data.data[from + i];
    }
  }
  return result;
}

function concat(node, inputs, out) {
  const present = inputs.filter(Boolean);
  const axis = normalizeAxis(node.attrs.axis, out.shape.length);
  const outer = numel(out.shape.slice(0, axis));
  const result = makeTensor(out.dtype, out.shape);
  let k = 0;
  for (let o = 0; o < outer; ++o) {
    for (const t of present) {
      const block = numel(t.shape.slice(axis));
      for (let i = 0; i < block; ++i) result.data[k++] = t.data[o * block + i];
    }
  }
  return result;
}

function split(node, [x], outs) {
  const axis = normalizeAxis(node.attrs.axis ?? 0, x.shape.length);
  let start = 0;
  return outs.map((out) => {
    const first = start;
    start += out.shape[axis];
    return alongAxis(x, out, axis, (j) => first + j);
  });
}

function tile(node, [x], out) {
  const index = new Float64Array(numel(out.shape));
  const outStrides = stridesOf(out.shape);
  const inStrides = stridesOf(x.shape);
  for (let k = 0; k < index.length; ++k) {
    let rest = k;
    let at = 0;
    for (let d = 0; d < out.shape.length; ++d) {
      const c = Math.floor(rest / outStrides[d]);
      rest -= c * outStrides[d];
      at += (c % x.shape[d]) * inStrides[d];
    }
    index[k] = at;
  }
  return withData(out, Array.from(index, (i) => x.data[i]));
}

const kReducers = {
  ReduceSum: [0, (acc, v) => acc + v, (acc) => acc],
  ReduceMean: [0, (acc, v) => acc + v, (acc, n) => acc / n],
  ReduceMax: [-Infinity, Math.max, (acc) => acc],
  ReduceMin: [Infinity, Math.min, (acc) => acc],
  ReduceProd: [1, (acc, v) => acc * v, (acc) => acc],
  ReduceL1: [0, (acc, v) => acc + Math.abs(v), (acc) => acc],
  ReduceL2: [0, (acc, v) => acc + v * v, Math.sqrt],
  ReduceLogSum: [0, (acc, v) => acc + v, Math.log],
  ReduceLogSumExp: [0, (acc, v) => acc + Math.exp(v), Math.log],
  ReduceSumSquare: [0, (acc, v) => acc + v * v, (acc) => acc],
};

function reduce(node, inputs, out) {
  const x = inputs[0];
  const rank = x.shape.length;
  const reduced = reducedAxes(node, inputs, rank);
  const [init, step, finish] = kReducers[node.op];
  const keptShape = x.shape.map((d, i) => (reduced.has(i) ? 1 : d));
  const keptStrides = stridesOf(keptShape);
  const inStrides = stridesOf(x.shape);
  const acc = new Float64Array(numel(keptShape)).fill(init);
  for (let k = 0; k < x.data.length; ++k) {
    let rest = k;
    let at = 0;
    for (let d = 0; d < rank; ++d) {
      const c = Math.floor(rest / inStrides[d]);
      rest -= c * inStrides[d];
      if (!reduced.has(d)) at += c * keptStrides[d];
    }
    acc[at] = step(acc[at], x.data[k]);
  }
  const n = x.data.length / Math.max(acc.length, 1);
  return withData(out, Array.from(acc, (a) => finish(a, n)));
}

function clip(node, inputs, out) {
  const lo = inputs[1]?.data[0] ?? node.attrs.min ?? -Infinity;
  const hi = inputs[2]?.data[0] ?? node.attrs.max ?? Infinity;
  return withData(out, Array.from(inputs[0].data, (v) => Math.min(Math.max(v, lo), hi)));
}

const reshaped = (node, [x], out) => withData(out, x.data);

const kEvaluators = {
  Reshape: reshaped, Flatten: reshaped, Squeeze: reshaped, Unsqueeze: reshaped,
  Cast: (node, [x], out) => withData(out, Array.from(x.data, (v) => castValue(v, out.dtype))),
  Transpose: transpose, Slice: slice, Gather: gather, Concat: concat, Tile: tile, Clip: clip,
  Expand: (node, [x], out) => elementwise([x], out, (v) => v),
  Where: (node, inputs, out) => elementwise(inputs, out, (c, a, b) => (c ? a : b)),
  Shape: (node, [x], out) => withData(out, x.shape.slice(...shapeRange(node.attrs, x.shape.length))),
  Size: (node, [x], out) => withData(out, [numel(x.shape)]),
  ConstantOfShape: (node, inputs, out) => {
    const t = makeTensor(out.dtype, out.shape);
    t.data.fill(node.attrs.value?.tensor?.data[0] ?? 0);
    return t;
  },
  Range: (node, [start, , delta], out) => withData(out, Array.from({ length: out.shape[0] }, (_, i) => start.data[0] + i * delta.data[0])),
  Mean: (node, inputs, out) => {
    const sum = inputs.reduce((acc, t) => elementwise([acc, t], out, (a, b) => a + b));
    return withData(out, Array.from(sum.data, (v) => v / inputs.length));
  },
  ...Object.fromEntries(Object.keys(kReducers).map((op) => [op, reduce])),
};

/** True when the converter can evaluate `op` on constant inputs. */
export function canEvaluate(op) {
  return op === 'Split' || Object.hasOwn(kEvaluators, op) || Object.hasOwn(kUnary, op) || binaryFunction(op, 'float32', {}) !== undefined;
}

/** Output tensors of `node` from constant `inputs`; `outs` are the inferred output types/shapes. */
export function evaluate(node, inputs, outs) {
  if (node.op === 'Split') return split(node, inputs, outs);
  const out = outs[0];
  if (kEvaluators[node.op]) return [kEvaluators[node.op](node, inputs, out)];
  if (kUnary[node.op]) return [withData(out, Array.from(inputs[0].data, kUnary[node.op]))];
  const fn = binaryFunction(node.op, inputs[0].dtype, node.attrs);
  const present = inputs.filter(Boolean);
  return [present.reduce((acc, t) => elementwise([acc, t], { dtype: out.dtype, shape: out.shape }, fn))];
}
