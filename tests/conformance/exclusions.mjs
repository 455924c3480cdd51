// Backend tests of claimed ops that Tessera deliberately does not run, each with the
// reason that goes into docs/conformance.md. Keep every rule narrow and its reason true:
// a test that Tessera should run but does not is a failure, not an exclusion.
import { isTesseraType } from './suite.mjs';

/**
 * Tests excluded by name: what they exercise is outside what Tessera implements (the operator
 * schema's notes say which data types each op takes: float32 unless they say otherwise). The
 * runner still runs these tests and fails when one passes, so no rule outlives its reason.
 */
export const exclusions = [
  {
    match: /^test_(convtranspose_3d|averagepool_3d_default|maxpool_3d_default|Conv3d.*|AvgPool3d.*|MaxPool3d.*)$/,
    reason: '3-D convolution and pooling are not supported (1-D and 2-D are)',
  },
  { match: /^test_batchnorm_.*_training_mode$/, reason: 'training mode (running statistics as outputs)' },
  {
    match: /^test_(reshape_allowzero_reordered|slice_start_out_of_bounds|split_zero_size_splits|tril_zero|triu_zero|constantofshape_int_shape_zero)$/,
    reason: 'zero-size tensors: Tessera dimensions are positive',
  },
  { match: /^test_resize_.*cubic.*$/, reason: 'cubic interpolation is not supported' },
  { match: /^test_resize_tf_crop_and_resize$/, reason: 'tf_crop_and_resize coordinates are not supported' },
  { match: /^test_maxpool_with_argmax_.*$/, reason: 'MaxPool\'s Indices output: Tessera computes output 0 only' },
  { match: /^test_maxpool_2d_uint8$/, reason: 'uint8 pooling: MaxPool takes float32' },
];

/** The exclusion reason for a test name, or null. */
export function exclusionReason(testName) {
  for (const rule of exclusions) {
    if (rule.match.test(testName)) return rule.reason;
  }
  return null;
}

/**
 * The exclusion reason for a graph input fed at run time or a graph output whose value is
 * `{ kind, dtype }` (suite.mjs valueType), or null when Tessera's tensors can hold it. Tessera's
 * values are tensors of float32, int64, int32, bool or uint8; other types (float64, float16,
 * int8, strings, ...) and sequences, optionals and maps are not in the engine.
 */
export function typeExclusionReason({ kind, dtype }) {
  if (kind !== 'tensor') return `${kind} values (Tessera's values are tensors)`;
  if (!isTesseraType(dtype)) return `${dtype} data (not one of Tessera's tensor types)`;
  return null;
}
