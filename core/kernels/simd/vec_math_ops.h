// VecMath<Vec>: the operations beyond the basic vector traits that the elementwise, row and
// pool kernels need (sign bits, sqrt, rounding to integers, 2^n scaling and exponent
// extraction, compares and selects), one specialisation per ISA. A specialisation exists only when the including file
// is compiled for that ISA.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/kernels/simd/vec_scalar.h"
#if defined(__AVX512F__)
#include "core/kernels/simd/vec_avx512.h"
#endif
#if defined(__AVX2__) && defined(__FMA__)
#include "core/kernels/simd/vec_avx2.h"
#endif
#if defined(__wasm_simd128__)
#include "core/kernels/simd/vec_wasm128.h"
#endif

namespace tessera::kernels {

// Every specialisation gives the same results lane for lane:
//   max_first(a, b) = a < b ? b : a   and   min_first(a, b) = b < a ? b : a
// keep `a` on NaN and on ties (-0 vs +0), so a NaN in `a` propagates whatever the ISA; the
// plain traits' max/min differ between x86, wasm and scalar on NaN.
//   ldexp(p, n) = p * 2^n rounded once (subnormal results included), for integral n in
// [-252, 254] and p a normal float or NaN (or any p when n = 0: p * 1 is exact).
//   For a positive normal float a = m * 2^e with m in [1, 2): mantissa(a) = m and
// exponent(a) = e as a float (other inputs: unspecified values, for the caller to select away).
//   floor, ceil and round_even (ties to even) round to integers as IEEE roundToIntegral does:
// the sign of a zero result is the sign of the input, and NaN and infinities pass through.
//   load_partial_fill loads n < kWidth floats and fills the other lanes with `fill`.
//   ExitGuard is declared first in every kernel entry point; on x86 its destructor executes
// vzeroupper on every return path. GCC omits it when vectors were passed between functions in
// registers, and dirty upper register state makes the non-VEX SSE code that runs next (the
// rest of the program, the scalar kernels) several times slower: measured 5 -> 20 ns per
// element for the scalar exp after one AVX2 Relu call.
template <class Vec>
struct VecMath;

template <>
struct VecMath<VecScalar> {
  using V = float;
  using Mask = bool;
  struct ExitGuard {};
  static V abs(V a) { return std::fabs(a); }
  static V neg(V a) { return -a; }
  // memcpy rather than std::bit_cast, which Debian's Emscripten libc++ lacks.
  static uint32_t bits(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  }
  static float from_bits(uint32_t u) {
    float v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  // Sign bit of `sign` on `magnitude`, which must have a clear sign bit.
  static V or_sign(V magnitude, V sign) { return from_bits(bits(magnitude) | (bits(sign) & 0x80000000u)); }
  static V sqrt(V a) { return std::sqrt(a); }
  static V ldexp(V p, V n) {
    if (std::isnan(n)) return n;
    // Two exact power-of-two factors: p * 2^n1 stays normal, the second product rounds once.
    const int32_t n1 = static_cast<int32_t>(n) >> 1;
    const int32_t n2 = static_cast<int32_t>(n) - n1;
    const float s1 = from_bits(static_cast<uint32_t>(n1 + 127) << 23);
    const float s2 = from_bits(static_cast<uint32_t>(n2 + 127) << 23);
    return p * s1 * s2;
  }
  static V mantissa(V a) { return from_bits((bits(a) & 0x007fffffu) | 0x3f800000u); }
  static V exponent(V a) { return static_cast<float>(static_cast<int32_t>(bits(a) >> 23) - 127); }
  // std::nearbyint rounds by the current rounding mode, which nothing in Tessera changes
  // from round-to-nearest-even.
  static V floor(V a) { return std::floor(a); }
  static V ceil(V a) { return std::ceil(a); }
  static V round_even(V a) { return std::nearbyint(a); }
  static Mask lt(V a, V b) { return a < b; }
  static Mask eq(V a, V b) { return a == b; }
  static Mask is_nan(V a) { return a != a; }
  static V select(Mask m, V t, V f) { return m ? t : f; }
  static V max_first(V a, V b) { return a < b ? b : a; }
  static V min_first(V a, V b) { return b < a ? b : a; }
  // With one lane a partial load has no lanes.
  static V load_partial_fill(const float*, size_t, float fill) { return fill; }
};

#if defined(__AVX512F__)
template <>
struct VecMath<VecAvx512> {
  using V = __m512;
  using Mask = __mmask16;
  struct ExitGuard {
    ~ExitGuard() { _mm256_zeroupper(); }
  };
  static __m512i sign_mask() { return _mm512_set1_epi32(static_cast<int>(0x80000000u)); }
  static V abs(V a) { return _mm512_castsi512_ps(_mm512_andnot_si512(sign_mask(), _mm512_castps_si512(a))); }
  static V neg(V a) { return _mm512_castsi512_ps(_mm512_xor_si512(sign_mask(), _mm512_castps_si512(a))); }
  static V or_sign(V magnitude, V sign) {
    return _mm512_castsi512_ps(
        _mm512_ternarylogic_epi32(_mm512_castps_si512(magnitude), _mm512_castps_si512(sign), sign_mask(), 0xf8));
  }
  static V sqrt(V a) { return _mm512_sqrt_ps(a); }
  static V ldexp(V p, V n) { return _mm512_scalef_ps(p, n); }
  static V mantissa(V a) { return _mm512_getmant_ps(a, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_src); }
  static V exponent(V a) { return _mm512_getexp_ps(a); }
  static V floor(V a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static V ceil(V a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
  static V round_even(V a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static Mask lt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static Mask eq(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(V a) { return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q); }
  static V select(Mask m, V t, V f) { return _mm512_mask_blend_ps(m, f, t); }
  // maxps/minps return their second operand when unordered or equal.
  static V max_first(V a, V b) { return _mm512_max_ps(b, a); }
  static V min_first(V a, V b) { return _mm512_min_ps(b, a); }
  static V load_partial_fill(const float* p, size_t n, float fill) {
    return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), VecAvx512::mask(n), p);
  }
};
#endif

#if defined(__AVX2__) && defined(__FMA__)
template <>
struct VecMath<VecAvx2> {
  using V = __m256;
  using Mask = __m256;
  struct ExitGuard {
    ~ExitGuard() { _mm256_zeroupper(); }
  };
  static V sign_mask() { return _mm256_set1_ps(-0.0f); }
  static V abs(V a) { return _mm256_andnot_ps(sign_mask(), a); }
  static V neg(V a) { return _mm256_xor_ps(sign_mask(), a); }
  static V or_sign(V magnitude, V sign) { return _mm256_or_ps(magnitude, _mm256_and_ps(sign, sign_mask())); }
  static V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static V ldexp(V p, V n) {
    const __m256i ni = _mm256_cvtps_epi32(n);
    const __m256i n1 = _mm256_srai_epi32(ni, 1);
    const __m256i n2 = _mm256_sub_epi32(ni, n1);
    const __m256i bias = _mm256_set1_epi32(127);
    const V s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
    const V s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(p, s1), s2);
  }
  static V mantissa(V a) {
    const __m256i m = _mm256_and_si256(_mm256_castps_si256(a), _mm256_set1_epi32(0x007fffff));
    return _mm256_castsi256_ps(_mm256_or_si256(m, _mm256_set1_epi32(0x3f800000)));
  }
  static V exponent(V a) {
    const __m256i e = _mm256_srli_epi32(_mm256_castps_si256(a), 23);
    return _mm256_cvtepi32_ps(_mm256_sub_epi32(e, _mm256_set1_epi32(127)));
  }
  static V floor(V a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static V ceil(V a) { return _mm256_round_ps(a, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
  static V round_even(V a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static Mask lt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static Mask eq(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static Mask is_nan(V a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
  static V select(Mask m, V t, V f) { return _mm256_blendv_ps(f, t, m); }
  static V max_first(V a, V b) { return _mm256_max_ps(b, a); }
  static V min_first(V a, V b) { return _mm256_min_ps(b, a); }
  static V load_partial_fill(const float* p, size_t n, float fill) {
    const __m256i m = VecAvx2::mask(n);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
};
#endif

#if defined(__wasm_simd128__)
template <>
struct VecMath<VecWasm128> {
  using V = v128_t;
  using Mask = v128_t;
  struct ExitGuard {};
  static V abs(V a) { return wasm_f32x4_abs(a); }
  static V neg(V a) { return wasm_f32x4_neg(a); }
  static V or_sign(V magnitude, V sign) {
    return wasm_v128_or(magnitude, wasm_v128_and(sign, wasm_f32x4_splat(-0.0f)));
  }
  static V sqrt(V a) { return wasm_f32x4_sqrt(a); }
  static V ldexp(V p, V n) {
    const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
    const v128_t n1 = wasm_i32x4_shr(ni, 1);
    const v128_t n2 = wasm_i32x4_sub(ni, n1);
    const v128_t bias = wasm_i32x4_splat(127);
    const V s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
    const V s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
    return wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
  }
  static V mantissa(V a) {
    return wasm_v128_or(wasm_v128_and(a, wasm_i32x4_splat(0x007fffff)), wasm_i32x4_splat(0x3f800000));
  }
  static V exponent(V a) {
    return wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(a, 23), wasm_i32x4_splat(127)));
  }
  static V floor(V a) { return wasm_f32x4_floor(a); }
  static V ceil(V a) { return wasm_f32x4_ceil(a); }
  static V round_even(V a) { return wasm_f32x4_nearest(a); }
  static Mask lt(V a, V b) { return wasm_f32x4_lt(a, b); }
  static Mask eq(V a, V b) { return wasm_f32x4_eq(a, b); }
  static Mask is_nan(V a) { return wasm_f32x4_ne(a, a); }
  static V select(Mask m, V t, V f) { return wasm_v128_bitselect(t, f, m); }
  // pmax(a, b) = a < b ? b : a and pmin(a, b) = b < a ? b : a, exactly the contract above.
  static V max_first(V a, V b) { return wasm_f32x4_pmax(a, b); }
  static V min_first(V a, V b) { return wasm_f32x4_pmin(a, b); }
  static V load_partial_fill(const float* p, size_t n, float fill) {
    alignas(16) float lanes[4] = {fill, fill, fill, fill};
    for (size_t i = 0; i < n; ++i) lanes[i] = p[i];
    return wasm_v128_load(lanes);
  }
};
#endif

}  // namespace tessera::kernels
