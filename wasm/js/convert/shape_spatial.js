// Output shapes of the compute ops: Conv, ConvTranspose, pooling, MatMul, Gemm and Resize
// (2-D spatial forms, as the engine runs them). A symbolic input size gives the same symbol
// where the op keeps the size (stride 1 with "same" padding, scale 1), else null (unknown).
import { ConvertError } from './errors.js';
import { broadcastShapes, normalizeAxis, shapeValues } from './shape_util.js';
import { formatShape, isSymbol } from './symbolic.js';

// Two dimensions that must be equal: an error only when both are numbers and differ.
const mismatch = (a, b) => typeof a === 'number' && typeof b === 'number' && a !== b;

function expectRank(t, rank, what) {
  if (t.shape.length !== rank) throw new ConvertError(`${what} must be ${rank}-D, got ${formatShape(t.shape)}`);
}

function listAttr(node, name, fallback, count) {
  const v = node.attrs[name] ?? fallback;
  if (v.length !== count) throw new ConvertError(`attribute "${name}" must be a list of ${count} integers, got ${v.length} values`);
  return v;
}

/** Window geometry of Conv and pooling: one output size per spatial axis. */
function windowOutput(node, spatial, kernel, ceilMode) {
  const strides = listAttr(node, 'strides', [1, 1], 2);
  const dilations = listAttr(node, 'dilations', [1, 1], 2);
  const pads = listAttr(node, 'pads', [0, 0, 0, 0], 4);
  const autoPad = node.attrs.auto_pad ?? 'NOTSET';
  if (autoPad !== 'NOTSET' && node.attrs.pads) throw new ConvertError('attributes "pads" and "auto_pad" exclude each other');
  return spatial.map((size, i) => {
    const span = dilations[i] * (kernel[i] - 1) + 1;
    let out;
    if (isSymbol(size)) {
      const keeps = strides[i] === 1 && (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER' ||
        (autoPad === 'NOTSET' && pads[i] + pads[i + 2] === span - 1) || (autoPad === 'VALID' && span === 1));
      return keeps ? size : null;
    }
    if (autoPad === 'NOTSET') {
      const padded = size + pads[i] + pads[i + 2] - span;
      if (padded < 0) throw new ConvertError(`kernel extent ${span} exceeds the padded input size`);
      out = (ceilMode ? Math.ceil(padded / strides[i]) : Math.floor(padded / strides[i])) + 1;
      // ceil_mode must not start a window in the end padding (ONNX / PyTorch rule).
      if (ceilMode && (out - 1) * strides[i] >= size + pads[i]) out -= 1;
    } else if (autoPad === 'VALID') {
      if (size < span) throw new ConvertError(`kernel extent ${span} exceeds the input size ${size}`);
      out = Math.floor((size - span) / strides[i]) + 1;
    } else {
      out = Math.ceil(size / strides[i]);
    }
    if (out <= 0) throw new ConvertError('output size is not positive');
    return out;
  });
}

function conv(node, [x, w]) {
  expectRank(x, 4, 'input (only 2-D Conv is supported)');
  expectRank(w, 4, 'weights');
  const group = node.attrs.group ?? 1;
  const kernel = listAttr(node, 'kernel_shape', w.shape.slice(2), 2);
  if (mismatch(kernel[0], w.shape[2]) || mismatch(kernel[1], w.shape[3])) {
    throw new ConvertError(`kernel_shape [${kernel}] does not match weights ${formatShape(w.shape)}`);
  }
  const [c, m, cPerGroup] = [x.shape[1], w.shape[0], w.shape[1]];
  const misfit = group <= 0 || (typeof c === 'number' && c % group) || (typeof m === 'number' && m % group) ||
    (typeof cPerGroup === 'number' && mismatch(cPerGroup * group, c));
  if (misfit) {
    throw new ConvertError(`weights ${formatShape(w.shape)} with group ${group} do not fit an input with ${c} channels`);
  }
  return [{ dtype: x.dtype, shape: [x.shape[0], w.shape[0], ...windowOutput(node, x.shape.slice(2), kernel, false)] }];
}

function convTranspose(node, [x, w]) {
  expectRank(x, 4, 'input (only 2-D ConvTranspose is supported)');
  expectRank(w, 4, 'weights');
  const group = node.attrs.group ?? 1;
  if (group <= 0 || mismatch(w.shape[0], x.shape[1]) || (typeof x.shape[1] === 'number' && x.shape[1] % group)) {
    throw new ConvertError(`weights ${formatShape(w.shape)} with group ${group} do not fit an input with ${x.shape[1]} channels`);
  }
  const kernel = listAttr(node, 'kernel_shape', w.shape.slice(2), 2);
  const strides = listAttr(node, 'strides', [1, 1], 2);
  const dilations = listAttr(node, 'dilations', [1, 1], 2);
  const outputPadding = listAttr(node, 'output_padding', [0, 0], 2);
  const pads = listAttr(node, 'pads', [0, 0, 0, 0], 4);
  const autoPad = node.attrs.auto_pad ?? 'NOTSET';
  let spatial;
  if (node.attrs.output_shape) {
    spatial = node.attrs.output_shape.slice(-2);
  } else if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
    spatial = x.shape.slice(2).map((d, i) => (isSymbol(d) ? (strides[i] === 1 ? d : null) : d * strides[i]));
  } else {
    const p = autoPad === 'VALID' ? [0, 0, 0, 0] : pads;
    spatial = x.shape.slice(2).map((d, i) => {
      const extra = outputPadding[i] + dilations[i] * (kernel[i] - 1) + 1 - p[i] - p[i + 2];
      if (isSymbol(d)) return strides[i] === 1 && extra === 1 ? d : null;
      return strides[i] * (d - 1) + extra;
    });
  }
  if (spatial.some((d) => d !== null && d <= 0)) throw new ConvertError(`output size [${spatial}] is not positive`);
  const channels = typeof w.shape[1] === 'number' ? w.shape[1] * group : group === 1 ? w.shape[1] : null;
  return [{ dtype: x.dtype, shape: [x.shape[0], channels, ...spatial] }];
}

function pool(node, [x]) {
  expectRank(x, 4, 'input (only 2-D pooling is supported)');
  if (!node.attrs.kernel_shape) throw new ConvertError('attribute "kernel_shape" is required');
  const kernel = listAttr(node, 'kernel_shape', [], 2);
  const spatial = windowOutput(node, x.shape.slice(2), kernel, (node.attrs.ceil_mode ?? 0) !== 0);
  return [{ dtype: x.dtype, shape: [x.shape[0], x.shape[1], ...spatial] }];
}

function globalPool(node, [x]) {
  if (x.shape.length < 3) throw new ConvertError(`input must have spatial dimensions, got ${formatShape(x.shape)}`);
  return [{ dtype: x.dtype, shape: [x.shape[0], x.shape[1], ...x.shape.slice(2).map(() => 1)] }];
}

function matmul(node, [a, b]) {
  if (a.shape.length === 0 || b.shape.length === 0) throw new ConvertError('MatMul inputs must have rank >= 1');
  const sa = a.shape.length === 1 ? [1, a.shape[0]] : a.shape;
  const sb = b.shape.length === 1 ? [b.shape[0], 1] : b.shape;
  if (mismatch(sa.at(-1), sb.at(-2))) throw new ConvertError(`inner dimensions differ: ${formatShape(a.shape)} x ${formatShape(b.shape)}`);
  const batch = broadcastShapes(sa.slice(0, -2), sb.slice(0, -2));
  const shape = [...batch];
  if (a.shape.length > 1) shape.push(sa.at(-2));
  if (b.shape.length > 1) shape.push(sb.at(-1));
  return [{ dtype: a.dtype, shape }];
}

function gemm(node, [a, b, c]) {
  expectRank(a, 2, 'A');
  expectRank(b, 2, 'B');
  const [m, k] = node.attrs.transA ? [a.shape[1], a.shape[0]] : a.shape;
  const [kb, n] = node.attrs.transB ? [b.shape[1], b.shape[0]] : b.shape;
  if (mismatch(k, kb)) throw new ConvertError(`inner dimensions differ: A' is [${m}, ${k}], B' is [${kb}, ${n}]`);
  if (c && broadcastShapes(c.shape, [m, n]).some((d, i) => mismatch(d, [m, n][i]))) {
    throw new ConvertError(`C ${formatShape(c.shape)} does not broadcast to [${m}, ${n}]`);
  }
  return [{ dtype: a.dtype, shape: [m, n] }];
}

function resize(node, inputs) {
  const x = inputs[0];
  const rank = x.shape.length;
  const axes = (node.attrs.axes ?? x.shape.map((_, i) => i)).map((a) => normalizeAxis(a, rank));
  const scales = inputs[2];
  const shape = [...x.shape];
  if (scales && inputs[3]) throw new ConvertError('scales and sizes exclude each other');
  if (scales) {
    if (scales.shape.length !== 1 || scales.shape[0] !== axes.length) {
      throw new ConvertError(`scales has ${scales.shape.length === 1 ? scales.shape[0] : formatShape(scales.shape)} values for ${axes.length} axes`);
    }
    axes.forEach((axis, i) => {
      const scale = scales.data?.[i];
      if (scale === undefined) {
        shape[axis] = null;  // computed when the model is specialised
        return;
      }
      if (!(scale > 0)) throw new ConvertError(`scale ${scale} is not positive`);
      // float32 product, truncated, as onnxruntime computes it
      if (isSymbol(x.shape[axis])) shape[axis] = Math.fround(scale) === 1 ? x.shape[axis] : null;
      else shape[axis] = Math.floor(Math.fround(x.shape[axis] * scale));
    });
  } else if (inputs[3]) {
    const sizes = shapeValues(inputs, 3, 'sizes');
    if (sizes.length !== axes.length) throw new ConvertError(`sizes has ${sizes.length} values for ${axes.length} axes`);
    const policy = node.attrs.keep_aspect_ratio_policy ?? 'stretch';
    if (policy === 'stretch') {
      axes.forEach((axis, i) => { shape[axis] = sizes[i]; });
    } else if (sizes.every((d) => typeof d === 'number') && axes.every((axis) => typeof x.shape[axis] === 'number')) {
      const ratios = axes.map((axis, i) => sizes[i] / x.shape[axis]);
      const scale = policy === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
      axes.forEach((axis) => { shape[axis] = Math.floor(scale * x.shape[axis] + 0.5); });
    } else {
      axes.forEach((axis) => { shape[axis] = null; });
    }
  } else {
    throw new ConvertError('needs scales (input 2) or sizes (input 3)');
  }
  if (shape.some((d) => typeof d === 'number' && d <= 0)) throw new ConvertError(`output shape [${shape}] is not positive`);
  return [{ dtype: x.dtype, shape }];
}

/** Shape functions of the compute ops, by op type. */
export const spatialShapes = {
  Conv: conv, ConvTranspose: convTranspose, MaxPool: pool, AveragePool: pool, GlobalAveragePool: globalPool,
  MatMul: matmul, Gemm: gemm, Resize: resize,
};
