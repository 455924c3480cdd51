// Opset normalisation: rewrites nodes of older opsets (and inference-only ops like Dropout)
// into the latest-opset forms docs/model-format.md describes, before shapes are inferred.
import { ConvertError } from './errors.js';
import { isEngineOp, kEngineOps } from './ops.js';
import { normalizeAxis, splitSizes } from './shape_util.js';
import { isStaticShape } from './symbolic.js';
import { numel, tensorFrom } from './tensor.js';

// Cast's "to" was a type name before opset 6.
const kLegacyCastTypes = {
  FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9, FLOAT16: 10,
  DOUBLE: 11, UINT32: 12, UINT64: 13,
};
// Binary ops that had the explicit `broadcast`/`axis` attributes before opset 7.
const kLegacyBroadcastOps = new Set(['Add', 'Sub', 'Mul', 'Div', 'Pow', 'And', 'Or', 'Xor', 'Equal', 'Greater', 'Less']);

/** Ops that are not in the engine's table but that normalizeNode rewrites into engine ops. */
export const kRewrittenOps = new Set(['Dropout', 'Upsample', 'Scatter']);

/** The tensor a Constant node holds (value, value_float(s), value_int(s)). */
export function constantNodeValue(node) {
  const a = node.attrs;
  if (a.value?.tensor) return a.value.tensor;
  if (a.value_float !== undefined) return tensorFrom('float32', [], [a.value_float]);
  if (a.value_floats !== undefined) return tensorFrom('float32', [a.value_floats.length], a.value_floats);
  if (a.value_int !== undefined) return tensorFrom('int64', [], [a.value_int]);
  if (a.value_ints !== undefined) return tensorFrom('int64', [a.value_ints.length], a.value_ints);
  if (a.sparse_value) throw new ConvertError('sparse Constant values are not supported');
  if (a.value_string !== undefined || a.value_strings !== undefined) {
    throw new ConvertError('string constants are not supported');
  }
  throw new ConvertError('Constant has no value');
}

// A new int64 initializer `<node>_<what>` holding `values`; returns its name.
function addInts(ctx, node, what, values) {
  return ctx.addConstant(`${node.name}_${what}`, tensorFrom('int64', [values.length], values));
}

function without(attrs, ...names) {
  const out = { ...attrs };
  for (const name of names) delete out[name];
  return out;
}

// Engine ops (and Dropout) keep the outputs Tessera computes, usually output 0 only; a used
// extra output is an error. Other ops keep theirs (they are folded or reported).
function trimOutputs(node, ctx) {
  const limit = isEngineOp(node.op) ? kEngineOps[node.op].outputs : node.op === 'Dropout' ? 1 : Infinity;
  if (node.outputs.length <= limit) return node;
  node.outputs.forEach((name, i) => {
    if (i >= limit && name && ctx.isUsed(name)) {
      throw new ConvertError(`output ${i} ("${name}") is used, but Tessera computes only output 0 of ${node.op}`);
    }
  });
  return { ...node, outputs: node.outputs.slice(0, limit) };
}

function upsampleToResize(node, ctx) {
  let mode = node.attrs.mode ?? 'nearest';
  if (mode === 'bilinear') mode = 'linear';  // opset-7 Upsample's name for it
  let scales = node.inputs[1];
  if (node.attrs.scales) {
    scales = ctx.addConstant(`${node.name}_scales`, tensorFrom('float32', [node.attrs.scales.length], node.attrs.scales));
  }
  if (!scales) throw new ConvertError('needs scales');
  // Opset-10 Resize and Upsample map output pixels with x_out / scale, flooring for nearest.
  const attrs = { mode, coordinate_transformation_mode: 'asymmetric' };
  if (mode === 'nearest') attrs.nearest_mode = 'floor';
  return [{ ...node, op: 'Resize', inputs: [node.inputs[0], '', scales], attrs }];
}

function resize(node, ctx) {
  if (node.op === 'Upsample' || ctx.opset < 11) return upsampleToResize(node, ctx);
  // roi only matters for tf_crop_and_resize, which Tessera rejects; empty scales mean "use sizes".
  const inputs = [...node.inputs];
  inputs[1] = '';
  for (const i of [2, 3]) {
    const t = inputs[i] ? ctx.value(inputs[i]) : undefined;
    if (t?.data && t.data.length === 0) inputs[i] = '';
  }
  while (inputs.length > 1 && inputs.at(-1) === '') inputs.pop();
  return [{ ...node, inputs }];
}

function sliceAttributesToInputs(node, ctx) {
  const { starts, ends, axes } = node.attrs;
  if (!starts || !ends) throw new ConvertError('needs the "starts" and "ends" attributes');
  const inputs = [node.inputs[0], addInts(ctx, node, 'starts', starts), addInts(ctx, node, 'ends', ends)];
  if (axes) inputs.push(addInts(ctx, node, 'axes', axes));
  return [{ ...node, inputs, attrs: {} }];
}

function padAttributesToInputs(node, ctx) {
  const pads = node.attrs.pads ?? node.attrs.paddings;
  if (!pads) throw new ConvertError('needs the "pads" attribute');
  const inputs = [node.inputs[0], addInts(ctx, node, 'pads', pads)];
  const value = node.attrs.value ?? 0;
  if (value !== 0) inputs.push(ctx.addConstant(`${node.name}_value`, tensorFrom('float32', [], [value])));
  const attrs = node.attrs.mode ? { mode: node.attrs.mode } : {};
  return [{ ...node, inputs, attrs }];
}

function reshapeAttributeToInput(node, ctx) {
  const shape = node.attrs.shape;
  if (!shape) return [node];
  return [{ ...node, inputs: [node.inputs[0], addInts(ctx, node, 'shape', shape)], attrs: without(node.attrs, 'shape') }];
}

// Before opset 13, Softmax-like ops coerce the input to 2-D [prod(:axis), prod(axis:)] and
// normalise each row; that equals the opset-13 op only when axis is the last dimension.
// With symbolic dimensions, Flatten makes the 2-D form and Shape gives the shape back.
function coercedSoftmax(node, ctx) {
  const x = ctx.value(node.inputs[0]);
  const rank = x.shape.length;
  const axis = normalizeAxis(node.attrs.axis ?? 1, rank);
  if (axis === rank - 1) return [{ ...node, attrs: { ...node.attrs, axis } }];
  const flat = ctx.uniqueTensorName(`${node.outputs[0]}_2d_in`);
  const flatOut = ctx.uniqueTensorName(`${node.outputs[0]}_2d`);
  const toNode = (op, inputs, outputs, attrs, hint) => ({ op, domain: '', name: ctx.uniqueNodeName(`${node.name}_${hint}`), inputs, outputs, attrs });
  if (!isStaticShape(x.shape)) {
    const shape = ctx.uniqueTensorName(`${node.outputs[0]}_shape`);
    return [
      toNode('Flatten', [node.inputs[0]], [flat], { axis }, 'to_2d'),
      { ...node, inputs: [flat], outputs: [flatOut], attrs: { axis: -1 } },
      toNode('Shape', [node.inputs[0]], [shape], {}, 'shape'),
      toNode('Reshape', [flatOut, shape], [node.outputs[0]], {}, 'from_2d'),
    ];
  }
  const rows = numel(x.shape.slice(0, axis));
  return [
    toNode('Reshape', [node.inputs[0], addInts(ctx, node, 'shape_2d', [rows, -1])], [flat], {}, 'to_2d'),
    { ...node, inputs: [flat], outputs: [flatOut], attrs: { axis: -1 } },
    toNode('Reshape', [flatOut, addInts(ctx, node, 'shape', x.shape)], [node.outputs[0]], {}, 'from_2d'),
  ];
}

// Opset < 7: with broadcast=1, B aligns with A starting at `axis` (default: trailing, as numpy).
function legacyBroadcast(node, ctx) {
  const { broadcast, axis } = node.attrs;
  const plain = { ...node, attrs: without(node.attrs, 'broadcast', 'axis') };
  if (!broadcast) return [plain];
  const a = ctx.value(node.inputs[0]).shape;
  const b = ctx.value(node.inputs[1]);
  const start = axis === undefined ? a.length - b.shape.length : normalizeAxis(axis, a.length);
  const trailing = a.length - start - b.shape.length;
  if (trailing < 0) throw new ConvertError(`cannot broadcast [${b.shape}] into [${a}] at axis ${axis}`);
  if (trailing === 0) return [plain];
  const shape = [...b.shape, ...new Array(trailing).fill(1)];
  if (b.data) {
    const name = ctx.addConstant(`${node.inputs[1]}_broadcast`, { ...b, shape });
    return [{ ...plain, inputs: [node.inputs[0], name] }];
  }
  const shaped = ctx.uniqueTensorName(`${node.inputs[1]}_broadcast`);
  // Trailing axes of size 1: a Reshape to a constant shape, or an Unsqueeze for symbolic dims.
  const lift = isStaticShape(b.shape)
    ? { op: 'Reshape', inputs: [node.inputs[1], addInts(ctx, node, 'broadcast_shape', shape)] }
    : { op: 'Unsqueeze', inputs: [node.inputs[1], addInts(ctx, node, 'broadcast_axes', shape.map((_, i) => i).slice(b.shape.length))] };
  return [
    { ...lift, domain: '', name: ctx.uniqueNodeName(`${node.name}_broadcast`), outputs: [shaped], attrs: {} },
    { ...plain, inputs: [node.inputs[0], shaped] },
  ];
}

// The engine's windows are 2-D: a 1-D Conv, ConvTranspose or pool runs as 2-D on
// [N, C, 1, L] (constant weights get the extra axis too), then drops the axis again.
const kWindowOps = new Set(['Conv', 'ConvTranspose', 'MaxPool', 'AveragePool']);

function windowTo2d(node, ctx) {
  const x = ctx.value(node.inputs[0]);
  const inputs = [...node.inputs];
  const lift = (hint, name, shape) => {
    const out = ctx.uniqueTensorName(hint);
    nodes.push({ op: 'Reshape', domain: '', name: ctx.uniqueNodeName(`${node.name}_to_2d`), inputs: [name, addInts(ctx, node, `${hint}_shape`, shape)], outputs: [out], attrs: {} });
    return out;
  };
  const nodes = [];
  // [N, C, L] -> [N, C, 1, L]; with symbolic dims, 0 copies N and C and -1 is L.
  const to2d = isStaticShape(x.shape) ? [x.shape[0], x.shape[1], 1, x.shape[2]] : [0, 0, 1, -1];
  inputs[0] = lift(`${node.outputs[0]}_2d_in`, node.inputs[0], to2d);
  if (node.op === 'Conv' || node.op === 'ConvTranspose') {
    const w = ctx.value(node.inputs[1]);
    if (!w.data) throw new ConvertError('1-D weights must be an initializer');
    inputs[1] = ctx.addConstant(`${node.inputs[1]}_2d`, { ...w, shape: [w.shape[0], w.shape[1], 1, w.shape[2]] });
  }
  const a = node.attrs;
  const attrs = { ...a };
  const widen = (name, fill) => { if (a[name]) attrs[name] = [fill, ...a[name]]; };
  widen('kernel_shape', 1);
  widen('strides', 1);
  widen('dilations', 1);
  widen('output_padding', 0);
  widen('output_shape', 1);
  if (a.pads) attrs.pads = [0, a.pads[0], 0, a.pads[1]];
  const out2d = ctx.uniqueTensorName(`${node.outputs[0]}_2d`);
  nodes.push({ ...node, inputs, outputs: [out2d], attrs });
  nodes.push({ op: 'Squeeze', domain: '', name: ctx.uniqueNodeName(`${node.name}_from_2d`), inputs: [out2d, addInts(ctx, node, 'squeeze_axes', [2])], outputs: [node.outputs[0]], attrs: {} });
  return nodes;
}

// Before opset 7, a 1-D PRelu slope of C values is per channel (axis 1); numpy broadcasting
// wants it shaped [C, 1, ...].
function channelSlope(node, ctx) {
  const x = ctx.value(node.inputs[0]);
  const slope = ctx.value(node.inputs[1]);
  const trailing = x.shape.length - 2;
  if (slope.shape.length !== 1 || trailing <= 0 || slope.shape[0] === 1) return [node];
  const shape = [slope.shape[0], ...new Array(trailing).fill(1)];
  if (slope.data) return [{ ...node, inputs: [node.inputs[0], ctx.addConstant(`${node.inputs[1]}_per_channel`, { ...slope, shape })] }];
  const shaped = ctx.uniqueTensorName(`${node.inputs[1]}_per_channel`);
  const axes = addInts(ctx, node, 'slope_axes', shape.map((_, i) => i).slice(1));
  return [
    { op: 'Unsqueeze', domain: '', name: ctx.uniqueNodeName(`${node.name}_slope`), inputs: [node.inputs[1], axes], outputs: [shaped], attrs: {} },
    { ...node, inputs: [node.inputs[0], shaped] },
  ];
}

// Opset 18's GroupNormalization scales and shifts per group; opset 21 (the engine's form)
// per channel: repeat each group's constant scale and bias over its channels.
function perChannelGroupNorm(node, ctx) {
  const x = ctx.value(node.inputs[0]);
  const groups = node.attrs.num_groups;
  const channels = x.shape[1];
  if (typeof channels !== 'number' || !(groups > 0) || channels % groups) {
    throw new ConvertError(`needs a channel count (${channels}) that divides into num_groups = ${groups}`);
  }
  const inputs = [...node.inputs];
  for (const i of [1, 2]) {
    const t = ctx.value(node.inputs[i]);
    if (!t?.data) throw new ConvertError(`input ${i} must be a constant to expand it from groups to channels (opset < 21)`);
    if (t.data.length !== groups) throw new ConvertError(`input ${i} has ${t.data.length} values for ${groups} groups`);
    const perChannel = Array.from({ length: channels }, (_, c) => t.data[Math.floor(c / (channels / groups))]);
    inputs[i] = ctx.addConstant(`${node.inputs[i]}_per_channel`, tensorFrom(t.dtype, [channels], perChannel));
  }
  return [{ ...node, inputs }];
}

/**
 * Rewrites `node` into the forms the engine reads. `ctx` gives the model's default-domain
 * `opset`, `value(name)` ({dtype, shape, data?}), `isUsed(name)`, `addConstant(hint, tensor)`,
 * `uniqueTensorName(hint)` and `uniqueNodeName(hint)`. Returns the replacement nodes.
 */
export function normalizeNode(node, ctx) {
  if (node.domain !== '') return [node];
  node = trimOutputs(node, ctx);
  const { op, attrs } = node;
  if (op === 'Dropout') return [{ ...node, op: 'Identity', inputs: [node.inputs[0]], attrs: {} }];
  if (kWindowOps.has(op) && ctx.value(node.inputs[0]).shape.length === 3) return windowTo2d(node, ctx);
  if (op === 'Upsample' || op === 'Resize') return resize(node, ctx);
  if (op === 'Slice' && ctx.opset < 10) return sliceAttributesToInputs(node, ctx);
  if (op === 'Pad' && ctx.opset < 11) return padAttributesToInputs(node, ctx);
  if (op === 'Reshape' && ctx.opset < 5) return reshapeAttributeToInput(node, ctx);
  if (['Softmax', 'LogSoftmax', 'Hardmax'].includes(op) && ctx.opset < 13) return coercedSoftmax(node, ctx);
  if (kLegacyBroadcastOps.has(op) && (attrs.broadcast !== undefined || attrs.axis !== undefined)) {
    return legacyBroadcast(node, ctx);
  }
  if (op === 'Cast' && typeof attrs.to === 'string') {
    const to = kLegacyCastTypes[attrs.to.toUpperCase()];
    if (to === undefined) throw new ConvertError(`Cast to "${attrs.to}" is not supported`);
    return [{ ...node, attrs: { ...attrs, to } }];
  }
  if ((op.startsWith('Reduce') || op === 'Squeeze') && ctx.value(node.inputs[1] || '')?.data?.length === 0) {
    // An empty axes tensor means the same as no axes input.
    return [{ ...node, inputs: [node.inputs[0]] }];
  }
  if (op === 'Concat' && attrs.axis === undefined && ctx.opset < 4) return [{ ...node, attrs: { axis: 1 } }];
  if (op === 'Split' && !node.inputs[1] && !attrs.split && attrs.num_outputs === undefined) {
    // Equal parts by output count (before opset 18): state the sizes, as every reader takes
    // them, or, on a symbolic dimension, the part count.
    const x = ctx.value(node.inputs[0]);
    const dim = x.shape[normalizeAxis(attrs.axis ?? 0, x.shape.length)];
    if (typeof dim !== 'number') return [{ ...node, attrs: { ...attrs, num_outputs: node.outputs.length } }];
    return [{ ...node, attrs: { ...attrs, split: splitSizes(node, [x], dim, node.outputs.length) } }];
  }
  if (op === 'TopK' && attrs.k !== undefined) {
    // Opset 1-9: k is an attribute.
    return [{ ...node, inputs: [node.inputs[0], addInts(ctx, node, 'k', [attrs.k])], attrs: without(attrs, 'k') }];
  }
  if (op === 'Scatter') return [{ ...node, op: 'ScatterElements' }];  // its opset 9-10 name
  if (op === 'GroupNormalization' && ctx.opset < 21) return perChannelGroupNorm(node, ctx);
  if (op === 'PRelu' && ctx.opset < 7) return channelSlope(node, ctx);
  return [node];
}
