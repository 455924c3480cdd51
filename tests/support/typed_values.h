// Typed test tensors: seeded random values of any dtype, and exact reads of a result.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tests/support/op_model.h"

namespace tessera::testing {

// A tensor of `dtype` with values uniform in [lo, hi] (integers; bool holds 0/1 whatever the
// range; float32 draws integers too, so every dtype holds the same values).
inline Tensor random_typed(std::mt19937& rng, const Dims& dims, DType dtype, int64_t lo, int64_t hi) {
  Tensor t = Tensor::spec("", dims, dtype);
  t.bytes.resize(static_cast<size_t>(t.element_count()) * dtype_size(dtype));
  const auto fill = [&](auto values, auto convert) {
    for (auto& x : values) x = convert(random_int(rng, lo, hi));
  };
  fill(t.values<float>(), [](int64_t v) { return static_cast<float>(v); });
  fill(t.values<int64_t>(), [](int64_t v) { return v; });
  fill(t.values<int32_t>(), [](int64_t v) { return static_cast<int32_t>(v); });
  fill(t.values<uint8_t>(), [&](int64_t v) { return static_cast<uint8_t>(dtype == DType::kBool ? v & 1 : v); });
  return t;
}

// A tensor of `dtype` holding `values` (converted).
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

// Every dtype a data-moving op accepts.
inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> kAll = {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8};
  return kAll;
}

}  // namespace tessera::testing
