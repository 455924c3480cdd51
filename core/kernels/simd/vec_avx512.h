// 16-lane float vector on AVX-512F; only included by files compiled with AVX-512 flags.
#pragma once

// GCC 12's _mm512_undefined_ps trips -W(maybe-)uninitialized once max/min are inlined
// (GCC PR 105593, fixed in 12.3); the pragma covers only the intrinsics header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstddef>

namespace tessera::kernels {

struct VecAvx512 {
  using V = __m512;
  static constexpr int kWidth = 16;
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static __mmask16 mask(size_t n) { return static_cast<__mmask16>((1u << n) - 1u); }
  static V load_partial(const float* p, size_t n) { return _mm512_maskz_loadu_ps(mask(n), p); }
  static void store_partial(float* p, V v, size_t n) { _mm512_mask_storeu_ps(p, mask(n), v); }
  static V broadcast(float x) { return _mm512_set1_ps(x); }
  static V zero() { return _mm512_setzero_ps(); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static float reduce_add(V v) { return _mm512_reduce_add_ps(v); }
  static float reduce_max(V v) { return _mm512_reduce_max_ps(v); }
};

}  // namespace tessera::kernels
