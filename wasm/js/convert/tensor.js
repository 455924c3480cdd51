// Constant tensors during conversion: ONNX data types, TensorProto decoding in every storage
// form, and the little-endian bytes Tessera stores. Plain JS (no Node APIs) so it runs in browsers.
import { ConvertError } from './errors.js';

/** ONNX TensorProto.DataType numbers by the names used here. */
export const kOnnxType = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, string: 8, bool: 9,
  float16: 10, float64: 11, uint32: 12, uint64: 13, complex64: 14, complex128: 15, bfloat16: 16,
  float8e4m3fn: 17, float8e4m3fnuz: 18, float8e5m2: 19, float8e5m2fnuz: 20, uint4: 21, int4: 22,
};
const kTypeName = Object.fromEntries(Object.entries(kOnnxType).map(([name, id]) => [id, name]));

/** The name of ONNX data type `id` ("float32", "int64", ...), or "type <id>". */
export function dtypeName(id) {
  return kTypeName[id] ?? `type ${id}`;
}

const kFloatTypes = new Set(['float32', 'float16', 'bfloat16', 'float64']);
const kIntegerTypes = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool']);

/** True for the float types (float32, float16, bfloat16, float64). */
export const isFloatType = (dtype) => kFloatTypes.has(dtype);
const isIntegerType = (dtype) => kIntegerTypes.has(dtype);

/** Element count of `shape` ([] is a scalar: 1). */
export function numel(shape) {
  return shape.reduce((n, d) => n * d, 1);
}

/**
 * A constant tensor. Float32 data lives in a Float32Array (so arithmetic rounds like the
 * engine's); every other numeric type in a Float64Array, exact up to 2^53, which covers
 * shape arithmetic (INT64_MAX-style sentinels stay huge and are saturated when written).
 */
export function makeTensor(dtype, shape, data) {
  const n = numel(shape);
  const values = data ?? (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n));
  if (values.length !== n) throw new Error(`internal: ${values.length} values for shape [${shape}]`);
  return { dtype, shape: [...shape], data: values };
}

/** A tensor of `dtype` holding `values` (a JS array or typed array). */
export function tensorFrom(dtype, shape, values) {
  const data = dtype === 'float32' ? Float32Array.from(values) : Float64Array.from(values);
  return makeTensor(dtype, shape, data);
}

/** Converts protobufjs int64 values (numbers or Long objects) to numbers. */
export function toNumber(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return value.toNumber();
}

// float16 bits -> float.
function halfToFloat(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

const scratch = new DataView(new ArrayBuffer(4));
function bfloat16ToFloat(bits) {
  scratch.setUint32(0, bits << 16);
  return scratch.getFloat32(0);
}

/** Rounds `value` to the nearest float16 (ties to even), as a Cast to FLOAT16 does. */
export function roundToHalf(value) {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.abs(value);
  if (magnitude >= 65520) return Math.sign(value) * Infinity;
  // Spacing of float16 values around `magnitude` (subnormals below 2^-14 share 2^-24).
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent -= 1;  // log2 may round up just below a power of 2
  const step = 2 ** (Math.max(exponent, -14) - 10);
  const q = magnitude / step;
  let r = Math.round(q);
  if (q - Math.floor(q) === 0.5 && r % 2 === 1) r -= 1;
  return Math.sign(value) * r * step;
}

// Raw little-endian element readers; a DataView keeps this right on any host and alignment.
const kRawReaders = {
  float32: [4, (v, o) => v.getFloat32(o, true)],
  float64: [8, (v, o) => v.getFloat64(o, true)],
  float16: [2, (v, o) => halfToFloat(v.getUint16(o, true))],
  bfloat16: [2, (v, o) => bfloat16ToFloat(v.getUint16(o, true))],
  int8: [1, (v, o) => v.getInt8(o)],
  uint8: [1, (v, o) => v.getUint8(o)],
  bool: [1, (v, o) => (v.getUint8(o) ? 1 : 0)],
  int16: [2, (v, o) => v.getInt16(o, true)],
  uint16: [2, (v, o) => v.getUint16(o, true)],
  int32: [4, (v, o) => v.getInt32(o, true)],
  uint32: [4, (v, o) => v.getUint32(o, true)],
  int64: [8, (v, o) => Number(v.getBigInt64(o, true))],
  uint64: [8, (v, o) => Number(v.getBigUint64(o, true))],
};

// Which repeated field holds each type when raw_data is not used (onnx.proto's comments).
function typedField(proto, dtype) {
  switch (dtype) {
    case 'float32': return proto.floatData;
    case 'float64': return proto.doubleData;
    case 'int64': return proto.int64Data;
    case 'uint32': case 'uint64': return proto.uint64Data;
    default: return proto.int32Data;  // int8/16/32, uint8/16, bool, and float16/bfloat16 bits
  }
}

function convertTypedValue(dtype, value) {
  const v = toNumber(value);
  if (dtype === 'float16') return halfToFloat(v & 0xffff);
  if (dtype === 'bfloat16') return bfloat16ToFloat(v & 0xffff);
  if (dtype === 'bool') return v ? 1 : 0;
  return v;
}

/**
 * Decodes an ONNX TensorProto (as decoded by onnx-proto) into a tensor. float16, bfloat16
 * and float64 become float32, the only float type Tessera stores; integer types keep their
 * type (shape arithmetic needs it) and are written as int64.
 */
export function tensorFromProto(proto, what) {
  const dtype = dtypeName(proto.dataType);
  const label = `${what} "${proto.name ?? ''}"`;
  if (proto.dataLocation === 1 || (proto.externalData && proto.externalData.length)) {
    const location = (proto.externalData ?? []).find((e) => e.key === 'location')?.value;
    throw new ConvertError(
      `${label} keeps its data in an external file${location ? ` ("${location}")` : ''}; ` +
        'convert a self-contained model (save it with all tensors inside the .onnx file)');
  }
  if (proto.segment) throw new ConvertError(`${label}: segmented tensors are not supported`);
  if (!kRawReaders[dtype]) throw new ConvertError(`${label} has data type ${dtype}, which Tessera cannot store`);
  const shape = (proto.dims ?? []).map(toNumber);
  if (shape.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ConvertError(`${label} has invalid dims [${shape}]`);
  }
  const n = numel(shape);
  const [size, read] = kRawReaders[dtype];
  const raw = proto.rawData;
  const values = raw && raw.length ? undefined : typedField(proto, dtype) ?? [];
  if (values && values.length !== n) {
    throw new ConvertError(`${label}: holds ${values.length} values, its shape [${shape}] needs ${n}`);
  }
  if (!values && raw.length !== n * size) {
    throw new ConvertError(`${label}: raw_data holds ${raw.length} bytes, its shape [${shape}] of ${dtype} needs ${n * size}`);
  }
  const out = makeTensor(isFloatType(dtype) ? 'float32' : dtype, shape);
  if (!values) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < n; ++i) out.data[i] = read(view, i * size);
    return out;
  }
  for (let i = 0; i < n; ++i) out.data[i] = convertTypedValue(dtype, values[i]);
  return out;
}

const kInt64Max = 2n ** 63n - 1n;
const kInt64Min = -(2n ** 63n);
/** Bytes per element of the types Tessera stores. */
export const kStoredSizes = { float32: 4, int64: 8, int32: 4, bool: 1, uint8: 1 };

/**
 * The dtype Tessera stores `tensor` as: "float32" for float kinds, its own type for int64,
 * int32, bool and uint8, "int64" for other integers.
 */
export function storedType(tensor) {
  if (isFloatType(tensor.dtype)) return 'float32';
  if (Object.hasOwn(kStoredSizes, tensor.dtype)) return tensor.dtype;
  if (isIntegerType(tensor.dtype)) return 'int64';
  throw new ConvertError(`constant of type ${tensor.dtype} cannot be stored`);
}

/** Little-endian bytes of `tensor` as Tessera stores it (storedType; int64 saturated). */
export function tensorBytes(tensor) {
  const type = storedType(tensor);
  const size = kStoredSizes[type];
  const bytes = new Uint8Array(tensor.data.length * size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < tensor.data.length; ++i) {
    const v = tensor.data[i];
    switch (type) {
      case 'float32': view.setFloat32(i * size, v, true); break;
      case 'int32': view.setInt32(i * size, Math.trunc(v), true); break;
      case 'bool': view.setUint8(i * size, v ? 1 : 0); break;
      case 'uint8': view.setUint8(i * size, Math.trunc(v)); break;
      default: {
        let big = BigInt(Math.trunc(v));
        if (big > kInt64Max) big = kInt64Max;
        if (big < kInt64Min) big = kInt64Min;
        view.setBigInt64(i * size, big, true);
      }
    }
  }
  return bytes;
}
