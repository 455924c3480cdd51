// 4-lane float vector on WebAssembly SIMD128 (no relaxed SIMD: fma is a separate mul and add).
#pragma once

#include <wasm_simd128.h>

#include <cstddef>

namespace tessera::kernels {

struct VecWasm128 {
  using V = v128_t;
  static constexpr int kWidth = 4;
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  static V load_partial(const float* p, size_t n) {
    alignas(16) float lanes[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; ++i) lanes[i] = p[i];
    return wasm_v128_load(lanes);
  }
  static void store_partial(float* p, V v, size_t n) {
    alignas(16) float lanes[4];
    wasm_v128_store(lanes, v);
    for (size_t i = 0; i < n; ++i) p[i] = lanes[i];
  }
  static V broadcast(float x) { return wasm_f32x4_splat(x); }
  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V fma(V a, V b, V c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static V sub(V a, V b) { return wasm_f32x4_sub(a, b); }
  static V mul(V a, V b) { return wasm_f32x4_mul(a, b); }
  static V div(V a, V b) { return wasm_f32x4_div(a, b); }
  // Like x86 maxps/minps: the second operand when either is NaN. pmax(b, a) is
  // "b < a ? a : b" and pmin(b, a) is "a < b ? a : b", which is exactly that.
  static V max(V a, V b) { return wasm_f32x4_pmax(b, a); }
  static V min(V a, V b) { return wasm_f32x4_pmin(b, a); }
  static float reduce_add(V v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
  static float reduce_max(V v) {
    float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1);
    float c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
    a = a > b ? a : b;
    c = c > d ? c : d;
    return a > c ? a : c;
  }
};

}  // namespace tessera::kernels
