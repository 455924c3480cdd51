// Typed tensors for op tests: from a list of values, seeded random ones of any dtype, integer
// values held in any dtype (one expectation serves every dtype), and back to a vector for
// exact comparison.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tests/support/op_model.h"

namespace tessera::testing {

template <class T>
Tensor tensor_of(DType dtype, Dims dims, const std::vector<T>& values) {
  return Tensor::of("", std::move(dims), dtype, values.data());
}

inline Tensor int64s(Dims dims, const std::vector<int64_t>& values) { return tensor_of(DType::kInt64, dims, values); }
inline Tensor int32s(Dims dims, const std::vector<int32_t>& values) { return tensor_of(DType::kInt32, dims, values); }
inline Tensor bools(Dims dims, const std::vector<uint8_t>& values) { return tensor_of(DType::kBool, dims, values); }
inline Tensor floats(Dims dims, const std::vector<float>& values) { return tensor_of(DType::kFloat32, dims, values); }

// Integers in [lo, hi] (clamped to the dtype's range; bool: 0 / 1); floats uniform in [lo, hi].
inline Tensor random_tensor(std::mt19937& rng, DType dtype, Dims dims, int64_t lo, int64_t hi) {
  Tensor t = Tensor::spec("", std::move(dims), dtype);
  t.bytes.resize(static_cast<size_t>(t.element_count()) * dtype_size(dtype));
  if (dtype == DType::kBool) lo = 0, hi = 1;
  if (dtype == DType::kUInt8) lo = std::max<int64_t>(lo, 0), hi = std::min<int64_t>(hi, 255);
  std::uniform_int_distribution<int64_t> ints(lo, hi);
  std::uniform_real_distribution<float> reals(static_cast<float>(lo), static_cast<float>(hi));
  // Only the span of the tensor's own element type is non-empty.
  for (float& v : t.values<float>()) v = reals(rng);
  for (int64_t& v : t.values<int64_t>()) v = ints(rng);
  for (int32_t& v : t.values<int32_t>()) v = static_cast<int32_t>(ints(rng));
  for (uint8_t& v : t.values<uint8_t>()) v = static_cast<uint8_t>(ints(rng));
  return t;
}

// Integer-valued floats in [lo, hi]: sums and products of a few of them are exact on every
// ISA, so what compares or truncates them is exact too.
inline Tensor random_whole_floats(std::mt19937& rng, Dims dims, int64_t lo, int64_t hi) {
  Tensor t = random_tensor(rng, DType::kFloat32, std::move(dims), lo, hi);
  for (float& v : t.values<float>()) v = std::round(v);
  return t;
}

template <class T>
std::vector<T> values_of(const Tensor& t) {
  const auto v = t.values<T>();
  return {v.begin(), v.end()};
}

// A tensor of `dtype` holding integer `values`: converted exactly, except that bool holds
// v & 1 (so its elements vary as the values do) and uint8 v mod 256.
inline Tensor converted(const Dims& dims, DType dtype, const std::vector<int64_t>& values) {
  Tensor t = Tensor::spec("", dims, dtype);
  t.bytes.resize(values.size() * dtype_size(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = values[i];
    switch (dtype) {
      case DType::kFloat32: t.values<float>()[i] = static_cast<float>(v); break;
      case DType::kInt64: t.values<int64_t>()[i] = v; break;
      case DType::kInt32: t.values<int32_t>()[i] = static_cast<int32_t>(v); break;
      case DType::kBool: t.values<uint8_t>()[i] = static_cast<uint8_t>(v & 1); break;
      case DType::kUInt8: t.values<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    }
  }
  return t;
}

// What `converted` makes of `values` in `dtype`, read back as int64.
inline std::vector<int64_t> held_as(DType dtype, std::vector<int64_t> values) {
  for (int64_t& v : values) {
    if (dtype == DType::kBool) v &= 1;
    if (dtype == DType::kUInt8) v = static_cast<uint8_t>(v);
  }
  return values;
}

// The elements of `t` as int64 (floats truncated): exact for the values `converted` holds.
inline std::vector<int64_t> as_ints(const Tensor& t) {
  std::vector<int64_t> out;
  for (float v : t.values<float>()) out.push_back(static_cast<int64_t>(v));
  for (int64_t v : t.values<int64_t>()) out.push_back(v);
  for (int32_t v : t.values<int32_t>()) out.push_back(v);
  for (uint8_t v : t.values<uint8_t>()) out.push_back(v);
  return out;
}

// Integers uniform in [lo, hi] held in `dtype` as `converted` holds them (float32 included:
// the same values in every dtype, with ties).
inline Tensor random_typed(std::mt19937& rng, const Dims& dims, DType dtype, int64_t lo, int64_t hi) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t& v : values) v = random_int(rng, lo, hi);
  return converted(dims, dtype, values);
}

// Every dtype Tessera has (the dtypes a data-moving op accepts).
inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> kAll = {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8};
  return kAll;
}

}  // namespace tessera::testing
