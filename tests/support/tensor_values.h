// Small helpers for tests of typed ops: a tensor's elements as a vector, random integer
// tensors of any integer dtype, and the message of a model the loader rejects.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/support/op_model.h"

namespace tessera::testing {

template <class T>
std::vector<T> values_of(const Tensor& t) {
  const auto v = t.values<T>();
  return {v.begin(), v.end()};
}

// Integers uniform in [lo, hi] as a tensor of `dtype` (int64, int32, uint8; bool keeps the low bit).
inline Tensor random_tensor(std::mt19937& rng, const Dims& dims, DType dtype, int64_t lo, int64_t hi) {
  Tensor t = Tensor::spec("", dims, dtype);
  t.bytes.resize(static_cast<size_t>(t.element_count()) * dtype_size(dtype));
  for (int64_t i = 0; i < t.element_count(); ++i) {
    const int64_t v = random_int(rng, lo, hi);
    if (dtype == DType::kInt64) t.values<int64_t>()[i] = v;
    if (dtype == DType::kInt32) t.values<int32_t>()[i] = static_cast<int32_t>(v);
    if (dtype == DType::kUInt8) t.values<uint8_t>()[i] = static_cast<uint8_t>(v);
    if (dtype == DType::kBool) t.values<uint8_t>()[i] = static_cast<uint8_t>(v & 1);
  }
  return t;
}

// The error of loading `model`, which must fail.
inline std::string load_error(const TestModel& model) {
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  return compiled.status().message();
}

}  // namespace tessera::testing
