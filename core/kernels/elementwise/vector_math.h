// Vectorised exp, expm1, log, softplus, mish, sigmoid, tanh and erf, written once over a
// vector-traits type; the elementwise and row kernels share them. Every lane is computed
// independently, so a value's result never depends on its lane or on the other lanes.
//
// Maximum error against double precision over every 7th float bit pattern (all exponents,
// +-0, +-inf), printed by `elementwise_test "[accuracy]"`. Relative error (results below
// FLT_MIN compared absolutely, against FLT_MIN):
//               avx512, avx2 (fma)   scalar, wasm128 (mul + add)
//   exp              1.0e-7                1.0e-7
//   sigmoid          1.8e-7                1.8e-7
//   tanh             3.3e-7                3.9e-7
//   erf              3.3e-7                3.8e-7
// In ulps of float at the exact result (2^-149 below FLT_MIN); elu is alpha * expm1 with
// alpha = 1.3, selu gamma * alpha * expm1 with ONNX's constants:
//   log              0.80                  0.81
//   softplus         1.98                  2.03
//   elu              1.72                  1.68
//   selu             2.21                  2.36
//   mish             3.67                  3.67
// Polynomial coefficients were fitted for this file (near-minimax, then rounded to float):
// exp by Chebyshev fit, tanh and erf by Lawson-weighted rational fits of relative error; log
// uses Cephes' logf polynomial.
#pragma once

#include <limits>

#include "core/kernels/simd/vec_math_ops.h"

namespace tessera::kernels {

// e^x = e^r * 2^n. Range reduction x = n ln2 + r, |r| <= ln2 / 2 (Cody-Waite split of ln2, whose
// high part has 9 significant bits so n * hi is exact even without fma). Valid for |x| < 174
// (n within ldexp's range); NaN passes through.
template <class Vec>
typename Vec::V exp_reduce(typename Vec::V x, typename Vec::V* n) {
  using V = typename Vec::V;
  // Adding 1.5 * 2^23 rounds to an integer (|x log2 e| < 2^22).
  const V magic = Vec::broadcast(12582912.0f);
  *n = Vec::sub(Vec::fma(x, Vec::broadcast(1.44269504f), magic), magic);
  const V r = Vec::fma(*n, Vec::broadcast(-0.693359375f), x);
  return Vec::fma(*n, Vec::broadcast(2.12194440e-4f), r);
}
// q(r) with e^r = 1 + r + r^2 q(r) for |r| <= ln2 / 2, a degree-4 polynomial: e^r is
// (q r + 1) r + 1, and e^r - 1 is r^2 q + r, whose relative precision holds near r = 0.
template <class Vec>
typename Vec::V exp_poly_tail(typename Vec::V r) {
  using V = typename Vec::V;
  V q = Vec::broadcast(0x1.6d15f8p-10f);
  q = Vec::fma(q, r, Vec::broadcast(0x1.12105cp-7f));
  q = Vec::fma(q, r, Vec::broadcast(0x1.555516p-5f));
  q = Vec::fma(q, r, Vec::broadcast(0x1.5554d8p-3f));
  return Vec::fma(q, r, Vec::broadcast(0.5f));
}
template <class Vec>
typename Vec::V exp_reduced(typename Vec::V r) {
  const typename Vec::V one = Vec::broadcast(1.0f);
  return Vec::fma(Vec::fma(exp_poly_tail<Vec>(r), r, one), r, one);
}

// e^x: one correctly rounded scaling of e^r by 2^n, so overflow gives +inf, results below
// FLT_MIN are subnormal, below half the smallest subnormal 0. Inputs are clamped to
// [-105, 89], outside of which the result is already 0 or +inf.
template <class Vec>
typename Vec::V vec_exp(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  x = M::min_first(M::max_first(x, Vec::broadcast(-105.0f)), Vec::broadcast(89.0f));
  V n;
  const V r = exp_reduce<Vec>(x, &n);
  return M::ldexp(exp_reduced<Vec>(r), n);
}

// e^x - 1 = 2^n ((e^r - 1) + (1 - 2^-n)): for n = 0 the polynomial alone, so small |x| keeps
// full relative precision; 1 - 2^-n is exact for |n| <= 24, and beyond the result is
// dominated by e^x or is -1. Inputs are clamped to [-30, 89] (expm1(-30) rounds to -1).
template <class Vec>
typename Vec::V vec_expm1(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V one = Vec::broadcast(1.0f);
  x = M::min_first(M::max_first(x, Vec::broadcast(-30.0f)), Vec::broadcast(89.0f));
  V n;
  const V r = exp_reduce<Vec>(x, &n);
  const V em1 = Vec::fma(Vec::mul(r, r), exp_poly_tail<Vec>(r), r);
  return M::ldexp(Vec::add(Vec::sub(one, M::ldexp(one, M::neg(n))), em1), n);
}

// log x = e ln2 + log(m), m in [sqrt(1/2), sqrt 2), with log(1 + f) = f - f^2 / 2 + f^3 P(f)
// (Cephes' logf coefficients) and the Cody-Waite split of ln2 of vec_exp. Subnormal inputs are
// scaled by 2^23 first. log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN passes.
template <class Vec>
typename Vec::V vec_log(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V one = Vec::broadcast(1.0f);
  const auto subnormal = M::lt(x, Vec::broadcast(0x1p-126f));
  const V scaled = M::select(subnormal, Vec::mul(x, Vec::broadcast(0x1p23f)), x);
  V m = M::mantissa(scaled);
  V e = M::select(subnormal, Vec::sub(M::exponent(scaled), Vec::broadcast(23.0f)), M::exponent(scaled));
  const auto above_sqrt2 = M::lt(Vec::broadcast(1.41421356f), m);
  m = M::select(above_sqrt2, Vec::mul(m, Vec::broadcast(0.5f)), m);
  e = M::select(above_sqrt2, Vec::add(e, one), e);
  const V f = Vec::sub(m, one);  // exact: m is within a factor 2 of 1
  const V z = Vec::mul(f, f);
  V p = Vec::broadcast(7.0376836292e-2f);
  p = Vec::fma(p, f, Vec::broadcast(-1.1514610310e-1f));
  p = Vec::fma(p, f, Vec::broadcast(1.1676998740e-1f));
  p = Vec::fma(p, f, Vec::broadcast(-1.2420140846e-1f));
  p = Vec::fma(p, f, Vec::broadcast(1.4249322787e-1f));
  p = Vec::fma(p, f, Vec::broadcast(-1.6668057665e-1f));
  p = Vec::fma(p, f, Vec::broadcast(2.0000714765e-1f));
  p = Vec::fma(p, f, Vec::broadcast(-2.4999993993e-1f));
  p = Vec::fma(p, f, Vec::broadcast(3.3333331174e-1f));
  V y = Vec::mul(Vec::mul(p, f), z);
  y = Vec::fma(e, Vec::broadcast(-2.12194440e-4f), y);
  y = Vec::fma(z, Vec::broadcast(-0.5f), y);
  V r = Vec::fma(e, Vec::broadcast(0.693359375f), Vec::add(f, y));
  const V inf = Vec::broadcast(std::numeric_limits<float>::infinity());
  r = M::select(M::lt(x, inf), r, x);  // +inf and NaN
  r = M::select(M::lt(x, Vec::zero()), Vec::broadcast(std::numeric_limits<float>::quiet_NaN()), r);
  return M::select(M::eq(x, Vec::zero()), M::neg(inf), r);
}

// log(1 + e^x) = max(x, 0) + log1p(e^-|x|). log1p(t) for t in [0, 1] is log(u) + c / u with
// u = 1 + t rounded and c = t - (u - 1) its exact rounding error (Fast2Sum), so tiny t gives t.
template <class Vec>
typename Vec::V vec_softplus(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V one = Vec::broadcast(1.0f);
  const V t = vec_exp<Vec>(M::neg(M::abs(x)));
  const V u = Vec::add(one, t);
  const V c = Vec::sub(t, Vec::sub(u, one));
  const V log1p = Vec::add(vec_log<Vec>(u), Vec::div(c, u));
  return Vec::add(M::max_first(x, Vec::zero()), log1p);
}

// x tanh(log(1 + e^x)) = x t / (t + 2) with u = e^x = p 2^n and t = u (u + 2) = 2^n p (u + 2):
// with s = p (u + 2) (one fma), the result is (x s / (2^n s + 2)) 2^n, so that the one scaling
// by 2^n rounds subnormal results once, and an error in s mostly cancels in the quotient.
// Beyond x = 20 the result is x; below -120 it is x * 0 (-0, and NaN for -inf as the ONNX
// formula gives).
template <class Vec>
typename Vec::V vec_mish(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V high = Vec::broadcast(20.0f);
  const V low = Vec::broadcast(-120.0f);
  const V xc = M::min_first(M::max_first(x, low), high);
  V n;
  const V p = exp_reduced<Vec>(exp_reduce<Vec>(xc, &n));
  const V s = Vec::fma(p, M::ldexp(p, n), Vec::add(p, p));
  const V t_plus_2 = Vec::add(M::ldexp(s, n), Vec::broadcast(2.0f));
  const V core = M::ldexp(Vec::div(Vec::mul(xc, s), t_plus_2), n);
  const V y = M::select(M::lt(high, x), x, core);
  return M::select(M::lt(x, low), Vec::mul(x, Vec::zero()), y);
}

// 1 / (1 + e^-x), as f = e^-|x| / (1 + e^-|x|) and 1 - f for x > 0: the exponential never
// overflows, small results keep full relative precision down to the subnormals, and
// large |x| saturates to exactly 0 or 1.
template <class Vec>
typename Vec::V vec_sigmoid(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V one = Vec::broadcast(1.0f);
  const V e = vec_exp<Vec>(M::neg(M::abs(x)));
  const V f = Vec::div(e, Vec::add(e, one));
  return M::select(M::lt(Vec::zero(), x), Vec::sub(one, f), f);
}

// Odd functions approximated as |x| * P(x^2) / Q(x^2) on the range where the float result is
// below 1, then given the sign of x (so tanh(-0) = erf(-0) = -0). NaN stays NaN through the
// min and the compare.
template <class Vec>
typename Vec::V vec_tanh(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V a = M::abs(x);
  const V t = Vec::mul(a, a);
  V p = Vec::broadcast(0x1.c9a4f2p-27f);
  p = Vec::fma(p, t, Vec::broadcast(0x1.595642p-16f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.c9f8f0p-9f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.120458p-3f));
  p = Vec::fma(p, t, Vec::broadcast(1.0f));
  V q = Vec::broadcast(0x1.a0b98ep-21f);
  q = Vec::fma(q, t, Vec::broadcast(0x1.584288p-12f));
  q = Vec::fma(q, t, Vec::broadcast(0x1.a7df74p-6f));
  q = Vec::fma(q, t, Vec::broadcast(0x1.de5776p-2f));
  q = Vec::fma(q, t, Vec::broadcast(1.0f));
  // tanh(x) rounds to 1 beyond 9.011; past the fitted range the result is set to exactly 1.
  const V one = Vec::broadcast(1.0f);
  const V r = M::min_first(Vec::div(Vec::mul(a, p), q), one);
  return M::or_sign(M::select(M::lt(Vec::broadcast(9.02f), a), one, r), x);
}

template <class Vec>
typename Vec::V vec_erf(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  const V a = M::abs(x);
  const V t = Vec::mul(a, a);
  V p = Vec::broadcast(0x1.0aa21ap-19f);
  p = Vec::fma(p, t, Vec::broadcast(0x1.2a5afep-12f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.fcf014p-9f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.b2ff78p-5f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.8c5d66p-3f));
  p = Vec::fma(p, t, Vec::broadcast(0x1.20dd74p+0f));
  V q = Vec::broadcast(0x1.39dedap-15f);
  q = Vec::fma(q, t, Vec::broadcast(0x1.36c012p-10f));
  q = Vec::fma(q, t, Vec::broadcast(0x1.f2485ap-7f));
  q = Vec::fma(q, t, Vec::broadcast(0x1.d87592p-4f));
  q = Vec::fma(q, t, Vec::broadcast(0x1.027bccp-1f));
  q = Vec::fma(q, t, Vec::broadcast(1.0f));
  // erf(x) rounds to 1 beyond 3.92; past the fitted range the result is set to exactly 1.
  const V one = Vec::broadcast(1.0f);
  const V r = M::min_first(Vec::div(Vec::mul(a, p), q), one);
  return M::or_sign(M::select(M::lt(Vec::broadcast(4.0f), a), one, r), x);
}

}  // namespace tessera::kernels
