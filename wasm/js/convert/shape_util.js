// Shape arithmetic shared by shape inference and constant folding: axes, broadcasting,
// attribute-or-input parameters, and the clamped ranges of Slice. Dimensions may be symbols
// (symbolic.js); a result nobody can name is null.
import { ConvertError } from './errors.js';
import { broadcastDim, formatShape, isSymbol } from './symbolic.js';

/** `axis` in [-rank, rank) as a non-negative axis, or an error naming `what`. */
export function normalizeAxis(axis, rank, what = 'axis') {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    throw new ConvertError(`${what} ${axis} is out of range for rank ${rank}`);
  }
  return axis < 0 ? axis + rank : axis;
}

/** Numpy (multidirectional) broadcast of several shapes. */
export function broadcastShapes(...shapes) {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out = new Array(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; ++i) {
      const o = rank - s.length + i;
      const d = broadcastDim(out[o], s[i]);
      if (d === undefined) {
        throw new ConvertError(`shapes ${shapes.map(formatShape).join(' and ')} do not broadcast`);
      }
      out[o] = d;
    }
  }
  return out;
}

/**
 * The values of a shape-like input (a target shape, sizes, repeats): one entry per element,
 * a number, a symbol or null where only the engine will know it. Needs the input's length.
 */
export function shapeValues(inputs, i, what) {
  const t = inputs[i];
  if (!t) throw new ConvertError(`${what} (input ${i}) is missing`);
  if (t.data) return Array.from(t.data, (v) => Math.trunc(v));
  if (t.elements) return [...t.elements];
  if (t.shape.length > 1) throw new ConvertError(`${what} (input ${i}) must be 1-D, got ${formatShape(t.shape)}`);
  const length = t.shape.length === 0 ? 1 : t.shape[0];
  if (isSymbol(length)) throw new ConvertError(`${what} (input ${i}) has a symbolic length ${JSON.stringify(length)}, so the output rank is unknown`);
  return new Array(length).fill(null);
}

/** Row-major strides of `shape`. */
export function stridesOf(shape) {
  const strides = new Array(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; --i) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

/** The integer values of constant input `i`, or an error saying it must be constant. */
export function constantInts(inputs, i, what) {
  const t = inputs[i];
  if (!t) throw new ConvertError(`${what} (input ${i}) is missing`);
  if (!t.data) throw new ConvertError(`${what} (input ${i}) must be a constant (the converter needs its values), but it is computed in the graph`);
  return Array.from(t.data, (v) => Math.trunc(v));
}

/** Values of a constant input, or undefined when the optional input is omitted. */
export function optionalInts(inputs, i, what) {
  return inputs[i] ? constantInts(inputs, i, what) : undefined;
}

/**
 * Axes given either as input 1 (newer opsets) or as the "axes" attribute (older), or
 * undefined when neither is present.
 */
export function axesOf(node, inputs, index = 1) {
  const fromInput = optionalInts(inputs, index, 'axes');
  if (fromInput && node.attrs.axes !== undefined) throw new ConvertError('axes are given both as input and attribute');
  return fromInput ?? node.attrs.axes;
}

/** The [start, end) range of dimensions a Shape op (opset 15 start/end) returns. */
export function shapeRange(attrs, rank) {
  const bound = (v) => Math.min(Math.max(v < 0 ? v + rank : v, 0), rank);
  const start = bound(attrs.start ?? 0);
  return [start, Math.max(start, bound(attrs.end ?? rank))];
}

/** The permutation of a Transpose: its "perm" attribute, or reversed axes. */
export function permutation(node, rank) {
  const perm = node.attrs.perm ?? Array.from({ length: rank }, (_, i) => rank - 1 - i);
  if (perm.length !== rank || new Set(perm.map((p) => normalizeAxis(p, rank, 'perm entry'))).size !== rank) {
    throw new ConvertError(`perm [${perm}] is not a permutation of ${rank} axes`);
  }
  return perm.map((p) => normalizeAxis(p, rank));
}

/** The axes a Reduce* node reduces (input or attribute; none means all unless noop_with_empty_axes). */
export function reducedAxes(node, inputs, rank) {
  const axes = axesOf(node, inputs) ?? [];
  const reduced = new Set();
  if (axes.length === 0 && !node.attrs.noop_with_empty_axes) {
    for (let i = 0; i < rank; ++i) reduced.add(i);
  }
  for (const a of axes) {
    const axis = normalizeAxis(a, rank);
    if (reduced.has(axis)) throw new ConvertError(`axis ${a} is repeated`);
    reduced.add(axis);
  }
  return reduced;
}

function clamp(v, lo, hi) {
  return Math.min(Math.max(v, lo), hi);
}

// The element count of a slice [start, end) by `step` of a symbolic dimension `d`: `d` for
// the whole axis (forward from 0, or backward from the end), 1 for a single element that
// exists whatever d is, else null. `start` and `end` may be the symbol d itself.
function symbolicCount(d, start, end, step) {
  const huge = (v) => typeof v === 'number' && v >= 2 ** 31;
  const tiny = (v) => typeof v === 'number' && v <= -(2 ** 31);
  if (start === null || end === null) return null;
  if (step === 1 && start === 0 && (end === d || huge(end))) return d;
  if (step === -1 && (start === -1 || huge(start)) && tiny(end)) return d;
  if (step > 0 && typeof start === 'number' && typeof end === 'number' && start >= 0 && end >= 0) {
    // Both from the front: the count only depends on d when the slice could reach past it.
    if (end <= start) return 0;
    if (end - start <= 1 && start === 0) return 1;
  }
  if (step > 0 && start === -1 && (end === d || huge(end))) return 1;
  return null;
}

/**
 * Per-axis ranges of a Slice as ONNX clamps them: for each dimension of `shape`,
 * { start, step, count } (untouched axes are whole). On a symbolic dimension, `start` and
 * `count` may be null (unknown) or, for count, the symbol; `starts` and `ends` may hold
 * symbols and nulls too.
 */
export function sliceRanges(shape, starts, ends, axes, steps) {
  const rank = shape.length;
  if (starts.length !== ends.length) throw new ConvertError('starts and ends differ in length');
  const axisList = axes ?? starts.map((_, i) => i);
  const stepList = steps ?? starts.map(() => 1);
  if (axisList.length !== starts.length || stepList.length !== starts.length) {
    throw new ConvertError('starts, ends, axes and steps differ in length');
  }
  const ranges = shape.map((d) => ({ start: 0, step: 1, count: d }));
  const seen = new Set();
  axisList.forEach((a, i) => {
    const axis = normalizeAxis(a, rank, 'Slice axis');
    if (seen.has(axis)) throw new ConvertError(`Slice axis ${a} is repeated`);
    seen.add(axis);
    const d = shape[axis];
    const step = stepList[i];
    if (step === 0) throw new ConvertError('Slice step 0 is invalid');
    if (typeof step !== 'number') throw new ConvertError('Slice steps must be constants');
    if (typeof d !== 'number' || typeof starts[i] !== 'number' || typeof ends[i] !== 'number') {
      ranges[axis] = { start: null, step, count: symbolicCount(d, starts[i], ends[i], step) };
      return;
    }
    let start = starts[i] < 0 ? starts[i] + d : starts[i];
    let end = ends[i] < 0 ? ends[i] + d : ends[i];
    if (step > 0) {
      start = clamp(start, 0, d);
      end = clamp(end, 0, d);
    } else {
      start = clamp(start, 0, d - 1);
      end = clamp(end, -1, d - 1);
    }
    const count = Math.max(0, Math.ceil((end - start) / step));
    ranges[axis] = { start, step, count };
  });
  return ranges;
}

/** The output sizes of a Split: from input 1, the "split" attribute, or equal parts. */
export function splitSizes(node, inputs, dim, outputCount) {
  const sizes = inputs[1] ? shapeValues(inputs, 1, 'split') : node.attrs.split;
  if (sizes) {
    if (sizes.length !== outputCount) throw new ConvertError(`split has ${sizes.length} sizes for ${outputCount} outputs`);
    const numeric = sizes.every((v) => typeof v === 'number');
    if (numeric && typeof dim === 'number' && sizes.reduce((a, b) => a + b, 0) !== dim) throw new ConvertError(`split sizes [${sizes}] do not add up to ${dim}`);
    return sizes;
  }
  const parts = node.attrs.num_outputs ?? outputCount;
  if (parts !== outputCount) throw new ConvertError(`num_outputs is ${parts} but the node has ${outputCount} outputs`);
  if (typeof dim !== 'number') return new Array(parts).fill(parts === 1 ? dim : null);
  // Opset 18: every part but the last has ceil(dim / parts) elements.
  const size = Math.ceil(dim / parts);
  if (node.attrs.num_outputs === undefined && dim % parts !== 0) {
    throw new ConvertError(`cannot split ${dim} into ${parts} equal parts`);
  }
  return Array.from({ length: parts }, (_, i) => Math.max(0, Math.min(size, dim - i * size)));
}
