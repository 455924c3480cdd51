// Typed test tensors: integer values held in any dtype (so one expectation serves every
// dtype), seeded random ones, and exact reads of results.
#pragma once

#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tests/support/op_model.h"

namespace tessera::testing {

// A tensor of `dtype` holding integer `values`: converted exactly, except that bool holds
// v & 1 (so its elements vary as the values do).
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

// The elements of `t` as int64 (floats truncated): exact for the values `converted` holds.
inline std::vector<int64_t> as_ints(const Tensor& t) {
  std::vector<int64_t> out;
  for (float v : t.values<float>()) out.push_back(static_cast<int64_t>(v));
  for (int64_t v : t.values<int64_t>()) out.push_back(v);
  for (int32_t v : t.values<int32_t>()) out.push_back(v);
  for (uint8_t v : t.values<uint8_t>()) out.push_back(v);
  return out;
}

// What `converted` makes of `values` in `dtype`, read back as int64.
inline std::vector<int64_t> held_as(DType dtype, std::vector<int64_t> values) {
  for (int64_t& v : values) {
    if (dtype == DType::kBool) v &= 1;
    if (dtype == DType::kUInt8) v = static_cast<uint8_t>(v);
  }
  return values;
}

// A tensor of `dtype` with integer values uniform in [lo, hi].
inline Tensor random_typed(std::mt19937& rng, const Dims& dims, DType dtype, int64_t lo, int64_t hi) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t& v : values) v = random_int(rng, lo, hi);
  return converted(dims, dtype, values);
}

// A tensor holding `values`, of the dtype of T (uint8_t: uint8).
template <class T>
Tensor typed(const Dims& dims, const std::vector<T>& values) {
  DType dtype = DType::kFloat32;
  if constexpr (std::is_same_v<T, int64_t>) dtype = DType::kInt64;
  if constexpr (std::is_same_v<T, int32_t>) dtype = DType::kInt32;
  if constexpr (std::is_same_v<T, uint8_t>) dtype = DType::kUInt8;
  return Tensor::of("", dims, dtype, values.data());
}

inline Tensor bools(const Dims& dims, const std::vector<uint8_t>& values) {
  return Tensor::of("", dims, DType::kBool, values.data());
}

// The elements of `t` as T (empty unless T holds its dtype).
template <class T>
std::vector<T> values_of(const Tensor& t) {
  return std::vector<T>(t.values<T>().begin(), t.values<T>().end());
}

// Every dtype a data-moving op accepts.
inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> kAll = {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8};
  return kAll;
}

}  // namespace tessera::testing
