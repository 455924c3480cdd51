// Scalar "vector" of one float: the portable fallback instantiation of every kernel template.
#pragma once

#include <cstddef>

namespace tessera::kernels {

struct VecScalar {
  using V = float;
  static constexpr int kWidth = 1;
  static V load(const float* p) { return *p; }
  static void store(float* p, V v) { *p = v; }
  // Loads n < kWidth lanes (rest zero) / stores n lanes; with one lane n is 0 here.
  static V load_partial(const float*, size_t) { return 0.0f; }
  static void store_partial(float*, V, size_t) {}
  static V broadcast(float x) { return x; }
  static V zero() { return 0.0f; }
  // No fused multiply-add on this path: two roundings, like the wasm path.
  static V fma(V a, V b, V c) { return a * b + c; }
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V div(V a, V b) { return a / b; }
  // Like x86 maxps/minps: the second operand when either is NaN.
  static V max(V a, V b) { return a > b ? a : b; }
  static V min(V a, V b) { return a < b ? a : b; }
  static float reduce_add(V v) { return v; }
  static float reduce_max(V v) { return v; }
};

}  // namespace tessera::kernels
