// Vectorised exp, sigmoid, tanh and erf, written once over a vector-traits type; the
// elementwise and row kernels share them. Every lane is computed independently, so a value's
// result never depends on its lane or on the other lanes.
//
// Maximum relative error against double precision over every 7th float bit pattern (all
// exponents, +-0, +-inf; results below FLT_MIN are compared absolutely, against FLT_MIN),
// printed by `elementwise_test "[accuracy]"`:
//               avx512, avx2 (fma)   scalar, wasm128 (mul + add)
//   exp              1.0e-7                1.0e-7
//   sigmoid          1.8e-7                1.8e-7
//   tanh             3.3e-7                3.9e-7
//   erf              3.3e-7                3.8e-7
// Polynomial coefficients were fitted for this file (near-minimax, then rounded to float):
// exp by Chebyshev fit, tanh and erf by Lawson-weighted rational fits of relative error.
#pragma once

#include "core/kernels/simd/vec_math_ops.h"

namespace tessera::kernels {

// e^x. Range reduction x = n ln2 + r, |r| <= ln2 / 2 (Cody-Waite split of ln2, whose high part
// has 9 significant bits so n * hi is exact even without fma), degree-6 polynomial for e^r,
// then one correctly rounded scaling by 2^n: overflow gives +inf, results below FLT_MIN are
// subnormal, below half the smallest subnormal 0. Inputs are clamped to [-105, 89], outside
// of which the result is already 0 or +inf; NaN passes through every step.
template <class Vec>
typename Vec::V vec_exp(typename Vec::V x) {
  using M = VecMath<Vec>;
  using V = typename Vec::V;
  x = M::min_first(M::max_first(x, Vec::broadcast(-105.0f)), Vec::broadcast(89.0f));
  // Adding 1.5 * 2^23 rounds to an integer (|x log2 e| < 2^22).
  const V magic = Vec::broadcast(12582912.0f);
  const V n = Vec::sub(Vec::fma(x, Vec::broadcast(1.44269504f), magic), magic);
  V r = Vec::fma(n, Vec::broadcast(-0.693359375f), x);
  r = Vec::fma(n, Vec::broadcast(2.12194440e-4f), r);
  V p = Vec::broadcast(0x1.6d15f8p-10f);
  p = Vec::fma(p, r, Vec::broadcast(0x1.12105cp-7f));
  p = Vec::fma(p, r, Vec::broadcast(0x1.555516p-5f));
  p = Vec::fma(p, r, Vec::broadcast(0x1.5554d8p-3f));
  p = Vec::fma(p, r, Vec::broadcast(0.5f));
  p = Vec::fma(p, r, Vec::broadcast(1.0f));
  p = Vec::fma(p, r, Vec::broadcast(1.0f));
  return M::ldexp(p, n);
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
