// The operators Tessera accepts (docs/model-format.md's operator table): the attributes the
// loader knows for each, which values it supports, which ONNX attributes the converter may
// drop, and which inputs are shape-like (constant integers).
import { ConvertError } from './errors.js';

const window2d = { kernel_shape: 'ints', strides: 'ints', pads: 'ints', auto_pad: 'string', dilations: 'ints' };
const kAutoPad = ['NOTSET', 'SAME_UPPER', 'SAME_LOWER', 'VALID'];
const always = () => true;
// Legacy attributes of opset 1 elementwise ops; they never changed results.
const legacy = { consumed_inputs: always };
const reduce = {
  attrs: { axes: 'ints', keepdims: 'int', noop_with_empty_axes: 'int' },
  shapeInputs: [1],
};

/**
 * Per op: `attrs` (name -> 'int' | 'float' | 'string' | 'ints' | 'floats'), `values`
 * (supported values of an attribute), `drop` (ONNX attributes absent from the format, with
 * the test that dropping one keeps the op's inference result), `shapeInputs` (inputs that
 * must be constant int64) and `outputs` (how many outputs Tessera computes; default 1).
 */
export const kEngineOps = {
  Conv: { attrs: { ...window2d, group: 'int' }, values: { auto_pad: kAutoPad } },
  Gemm: { attrs: { alpha: 'float', beta: 'float', transA: 'int', transB: 'int' }, drop: { broadcast: always } },
  MatMul: {},
  Add: { drop: legacy }, Sub: { drop: legacy }, Mul: { drop: legacy }, Div: { drop: legacy }, Pow: {},
  Relu: { drop: legacy },
  LeakyRelu: { attrs: { alpha: 'float' }, drop: legacy },
  Sigmoid: { drop: legacy },
  Tanh: { drop: legacy },
  HardSigmoid: { attrs: { alpha: 'float', beta: 'float' }, drop: legacy },
  HardSwish: {},
  Erf: {},
  Gelu: { attrs: { approximate: 'string' }, values: { approximate: ['none', 'tanh'] } },
  Sqrt: { drop: legacy },
  Clip: { attrs: { min: 'float', max: 'float' }, drop: legacy },
  Softmax: { attrs: { axis: 'int' } },
  LayerNormalization: { attrs: { axis: 'int', epsilon: 'float' }, drop: { stash_type: (v) => v === 1 }, outputs: 3 },
  BatchNormalization: {
    attrs: { epsilon: 'float' },
    drop: {
      momentum: always,  // a training parameter
      is_test: always,  // inference is what we convert for
      consumed_inputs: always,
      training_mode: (v) => v === 0,
      spatial: (v) => v === 1,  // spatial=0 normalises per activation, which Tessera does not
    },
  },
  // storage_order only lays out the Indices output, which Tessera does not compute.
  MaxPool: { attrs: { ...window2d, ceil_mode: 'int' }, values: { auto_pad: kAutoPad }, drop: { storage_order: always } },
  AveragePool: { attrs: { ...window2d, ceil_mode: 'int', count_include_pad: 'int' }, values: { auto_pad: kAutoPad } },
  GlobalAveragePool: {},
  ReduceMean: reduce,
  ReduceSum: reduce, ReduceMax: reduce, ReduceMin: reduce, ReduceProd: reduce, ReduceL1: reduce, ReduceL2: reduce,
  ReduceLogSum: reduce, ReduceLogSumExp: reduce, ReduceSumSquare: reduce,
  Concat: { attrs: { axis: 'int' } },
  Reshape: { attrs: { allowzero: 'int' }, shapeInputs: [1], drop: legacy },
  Flatten: { attrs: { axis: 'int' } },
  Transpose: { attrs: { perm: 'ints' } },
  Squeeze: { attrs: { axes: 'ints' }, shapeInputs: [1] },
  Unsqueeze: { attrs: { axes: 'ints' }, shapeInputs: [1] },
  Identity: {},
  ConvTranspose: {
    attrs: { ...window2d, group: 'int', output_padding: 'ints', output_shape: 'ints' },
    values: { auto_pad: kAutoPad },
  },
  Resize: {
    attrs: {
      mode: 'string', coordinate_transformation_mode: 'string', nearest_mode: 'string',
      keep_aspect_ratio_policy: 'string', exclude_outside: 'int', antialias: 'int', axes: 'ints',
    },
    values: {
      mode: ['nearest', 'linear'],
      coordinate_transformation_mode: ['half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric'],
      nearest_mode: ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'],
      keep_aspect_ratio_policy: ['stretch', 'not_larger', 'not_smaller'],
      exclude_outside: [0],
      antialias: [0],
    },
    // Only the cubic mode reads cubic_coeff_a and only tf_crop_and_resize reads
    // extrapolation_value; both modes are rejected above.
    drop: { cubic_coeff_a: always, extrapolation_value: always },
    shapeInputs: [3],
  },
  Slice: { shapeInputs: [1, 2, 3, 4] },
  Gather: { attrs: { axis: 'int' }, shapeInputs: [1] },
  Cast: { attrs: { to: 'int' }, values: { to: [1] }, drop: { saturate: always } },  // saturate: float8 targets only
  Pad: { attrs: { mode: 'string' }, values: { mode: ['constant', 'reflect', 'edge'] }, shapeInputs: [1, 3] },
  Split: { attrs: { axis: 'int', split: 'ints', num_outputs: 'int' }, shapeInputs: [1], outputs: Infinity },
  Expand: { shapeInputs: [1] },
};

/** True when Tessera runs `op` (default ONNX domain). */
export function isEngineOp(op, domain = '') {
  return domain === '' && Object.hasOwn(kEngineOps, op);
}

/** Inputs of `op` that must be constant integer tensors. */
export function shapeInputs(op) {
  return kEngineOps[op]?.shapeInputs ?? [];
}

function describe(value) {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function typeMatches(kind, value) {
  switch (kind) {
    case 'int': return Number.isInteger(value);
    case 'float': return typeof value === 'number';
    case 'string': return typeof value === 'string';
    case 'ints': return Array.isArray(value) && value.every(Number.isInteger);
    case 'floats': return Array.isArray(value) && value.every((v) => typeof v === 'number');
    default: return false;
  }
}

/** Checks that the attributes of engine node `node` the format lists have the listed types. */
export function checkAttributeTypes(node) {
  const spec = kEngineOps[node.op];
  for (const [name, value] of Object.entries(node.attrs)) {
    const kind = spec.attrs?.[name];
    if (kind && !typeMatches(kind, value)) {
      throw new ConvertError(`attribute "${name}" must be ${kind === 'int' ? 'an integer' : `of type ${kind}`}, got ${describe(value)}`);
    }
  }
}

/**
 * The attributes of an engine node as the format lists them: checks supported values, drops
 * ONNX attributes that do not change inference, and rejects the rest.
 */
export function engineAttributes(node) {
  checkAttributeTypes(node);
  const spec = kEngineOps[node.op];
  const out = {};
  for (const [name, value] of Object.entries(node.attrs)) {
    if (spec.attrs?.[name]) {
      const allowed = spec.values?.[name];
      if (allowed && !allowed.includes(value)) {
        throw new ConvertError(`attribute "${name}" = ${describe(value)} is not supported (Tessera supports ${allowed.map(describe).join(', ')})`);
      }
      out[name] = value;
    } else if (spec.drop?.[name]) {
      if (!spec.drop[name](value)) throw new ConvertError(`attribute "${name}" = ${describe(value)} is not supported`);
    } else {
      throw new ConvertError(`attribute "${name}" is not supported by Tessera's ${node.op}`);
    }
  }
  return out;
}

/** The ONNX attribute type of `op`'s attribute `name` ('int', 'float', ...). */
export function attributeKind(op, name) {
  return kEngineOps[op]?.attrs?.[name];
}
