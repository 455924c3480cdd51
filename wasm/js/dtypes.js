// Element types across the JS API, its host worker and the C API (codes as in c_api.h).

/** dtype -> C API code and typed array class. bool travels as one byte per value (0/1). */
export const DTYPES = {
  float32: { code: 0, array: Float32Array },
  int64: { code: 1, array: BigInt64Array },
  int32: { code: 2, array: Int32Array },
  bool: { code: 3, array: Uint8Array },
  uint8: { code: 4, array: Uint8Array },
};

/**
 * The dtype a typed array holds, given the dtype the model declares (a Uint8Array feeds a
 * bool or a uint8 input); null for arrays Tessera does not take.
 */
export function dtypeOfArray(data, declared) {
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof BigInt64Array) return 'int64';
  if (data instanceof Int32Array) return 'int32';
  if (data instanceof Uint8Array) return declared === 'bool' ? 'bool' : 'uint8';
  return null;
}
