// The elementwise kernels written once over a vector-traits type; elementwise_<isa>.cc
// instantiate them. Everything here is a template over Vec, so each ISA file compiles its own
// copy with its own instruction-set flags and no inline function is shared between them.
#pragma once

#include <cmath>
#include <cstddef>

#include "core/base/check.h"
#include "core/kernels/elementwise/elementwise.h"
#include "core/kernels/elementwise/vector_math.h"

namespace tessera::kernels {

// The tail goes through the same `op` on a partially loaded vector, so an element's result
// never depends on where it sits or on n.
template <class Vec, class Op>
void map_unary(size_t n, const float* x, float* y, Op op) {
  constexpr size_t w = Vec::kWidth;
  size_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w) {
    const auto r0 = op(Vec::load(x + i));
    const auto r1 = op(Vec::load(x + i + w));
    const auto r2 = op(Vec::load(x + i + 2 * w));
    const auto r3 = op(Vec::load(x + i + 3 * w));
    Vec::store(y + i, r0);
    Vec::store(y + i + w, r1);
    Vec::store(y + i + 2 * w, r2);
    Vec::store(y + i + 3 * w, r3);
  }
  for (; i + w <= n; i += w) Vec::store(y + i, op(Vec::load(x + i)));
  if (i < n) Vec::store_partial(y + i, op(Vec::load_partial(x + i, n - i)), n - i);
}

template <class Vec, class Op>
void map_binary(size_t n, const float* a, size_t a_stride, const float* b, size_t b_stride, float* y, Op op) {
  using V = typename Vec::V;
  constexpr size_t w = Vec::kWidth;
  if (a_stride == 1 && b_stride == 1) {
    size_t i = 0;
    for (; i + 2 * w <= n; i += 2 * w) {
      const V r0 = op(Vec::load(a + i), Vec::load(b + i));
      const V r1 = op(Vec::load(a + i + w), Vec::load(b + i + w));
      Vec::store(y + i, r0);
      Vec::store(y + i + w, r1);
    }
    for (; i + w <= n; i += w) Vec::store(y + i, op(Vec::load(a + i), Vec::load(b + i)));
    if (i < n) {
      Vec::store_partial(y + i, op(Vec::load_partial(a + i, n - i), Vec::load_partial(b + i, n - i)), n - i);
    }
  } else if (a_stride == 1) {
    const V vb = Vec::broadcast(*b);
    map_unary<Vec>(n, a, y, [=](V va) { return op(va, vb); });
  } else if (b_stride == 1) {
    const V va = Vec::broadcast(*a);
    map_unary<Vec>(n, b, y, [=](V vb) { return op(va, vb); });
  } else {
    const V r = op(Vec::broadcast(*a), Vec::broadcast(*b));
    size_t i = 0;
    for (; i + w <= n; i += w) Vec::store(y + i, r);
    if (i < n) Vec::store_partial(y + i, r, n - i);
  }
}

// f applied to each lane (computed in whatever precision f returns, rounded to float).
template <class Vec, class F>
typename Vec::V map_lanes(typename Vec::V a, F f) {
  alignas(64) float lanes[Vec::kWidth];
  Vec::store(lanes, a);
  for (int j = 0; j < Vec::kWidth; ++j) lanes[j] = static_cast<float>(f(lanes[j]));
  return Vec::load(lanes);
}

// std::pow lane by lane (with the exponent-2 and -3 rule of elementwise.h): slow but exact,
// and Pow is rare outside exponents 2 and 3, which the caller vectorises.
template <class Vec>
typename Vec::V pow_lanes(typename Vec::V a, typename Vec::V b) {
  alignas(64) float base[Vec::kWidth];
  alignas(64) float exponent[Vec::kWidth];
  Vec::store(base, a);
  Vec::store(exponent, b);
  for (int j = 0; j < Vec::kWidth; ++j) {
    const float x = base[j];
    const float e = exponent[j];
    base[j] = e == 2.0f ? x * x : e == 3.0f ? x * x * x : std::pow(x, e);
  }
  return Vec::load(base);
}

template <class Vec>
void unary_impl(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  using V = typename Vec::V;
  using M = VecMath<Vec>;
  const V zero = Vec::zero();
  const V one = Vec::broadcast(1.0f);
  const V alpha = Vec::broadcast(p.alpha);
  const V beta = Vec::broadcast(p.beta);
  switch (op) {
    case UnaryOp::kCopy:
      if (x != y) map_unary<Vec>(n, x, y, [](V v) { return v; });
      return;
    case UnaryOp::kRelu:
      // Adding +0 turns -0 into +0: clang folds a scalar `x < 0 ? 0 : x` into a max that
      // returns +0 for -0 in some copies of a loop and not others, so only +0 is stable.
      return map_unary<Vec>(n, x, y, [=](V v) { return Vec::add(M::max_first(v, zero), zero); });
    case UnaryOp::kLeakyRelu:
      return map_unary<Vec>(n, x, y, [=](V v) { return M::select(M::lt(v, zero), Vec::mul(v, alpha), v); });
    case UnaryOp::kClip:
      return map_unary<Vec>(n, x, y, [=](V v) { return M::min_first(M::max_first(v, alpha), beta); });
    case UnaryOp::kSigmoid: return map_unary<Vec>(n, x, y, [](V v) { return vec_sigmoid<Vec>(v); });
    case UnaryOp::kTanh: return map_unary<Vec>(n, x, y, [](V v) { return vec_tanh<Vec>(v); });
    case UnaryOp::kHardSigmoid:
      return map_unary<Vec>(n, x, y,
                            [=](V v) { return M::min_first(M::max_first(Vec::fma(v, alpha, beta), zero), one); });
    case UnaryOp::kHardSwish: {
      const V sixth = Vec::broadcast(1.0f / 6.0f);
      const V half = Vec::broadcast(0.5f);
      return map_unary<Vec>(
          n, x, y, [=](V v) { return Vec::mul(v, M::min_first(M::max_first(Vec::fma(v, sixth, half), zero), one)); });
    }
    case UnaryOp::kErf: return map_unary<Vec>(n, x, y, [](V v) { return vec_erf<Vec>(v); });
    case UnaryOp::kGelu: {
      // h + h * erf(x / sqrt 2) with h = x / 2: one rounding less than h * (1 + erf).
      const V half = Vec::broadcast(0.5f);
      const V rsqrt2 = Vec::broadcast(0.707106781f);
      return map_unary<Vec>(n, x, y, [=](V v) {
        const V h = Vec::mul(v, half);
        return Vec::fma(h, vec_erf<Vec>(Vec::mul(v, rsqrt2)), h);
      });
    }
    case UnaryOp::kGeluTanh: {
      // 0.5 x (1 + tanh(u)) = x * sigmoid(2u): no cancellation for negative x and one
      // transcendental instead of two. 2u = x (k1 + k3 x^2), k1 = 2 sqrt(2 / pi).
      const V k1 = Vec::broadcast(1.59576912f);
      const V k3 = Vec::broadcast(0.0713548163f);
      return map_unary<Vec>(n, x, y, [=](V v) {
        const V two_u = Vec::mul(v, Vec::fma(Vec::mul(v, v), k3, k1));
        return Vec::mul(v, vec_sigmoid<Vec>(two_u));
      });
    }
    case UnaryOp::kSqrt: return map_unary<Vec>(n, x, y, [](V v) { return M::sqrt(v); });
    case UnaryOp::kExp: return map_unary<Vec>(n, x, y, [](V v) { return vec_exp<Vec>(v); });
    case UnaryOp::kNeg: return map_unary<Vec>(n, x, y, [](V v) { return M::neg(v); });
    case UnaryOp::kAbs: return map_unary<Vec>(n, x, y, [](V v) { return M::abs(v); });
    case UnaryOp::kReciprocal: return map_unary<Vec>(n, x, y, [=](V v) { return Vec::div(one, v); });
    // Sin and Cos go lane by lane through libm: a vector form with a range reduction that is
    // exact for large arguments is not worth it for ops that are rare in hot paths (they
    // mostly run on constants, folded at specialisation). Each lane's result equals the
    // reference's.
    case UnaryOp::kSin:
      return map_unary<Vec>(n, x, y,
                            [](V v) { return map_lanes<Vec>(v, [](float a) { return std::sin(double{a}); }); });
    case UnaryOp::kCos:
      return map_unary<Vec>(n, x, y,
                            [](V v) { return map_lanes<Vec>(v, [](float a) { return std::cos(double{a}); }); });
    case UnaryOp::kLog: return map_unary<Vec>(n, x, y, [](V v) { return vec_log<Vec>(v); });
    case UnaryOp::kFloor: return map_unary<Vec>(n, x, y, [](V v) { return M::floor(v); });
    case UnaryOp::kCeil: return map_unary<Vec>(n, x, y, [](V v) { return M::ceil(v); });
    case UnaryOp::kRound: return map_unary<Vec>(n, x, y, [](V v) { return M::round_even(v); });
    case UnaryOp::kSign: {
      // +0 for +-0 (adding +0), NaN passes through both compares.
      const V minus_one = Vec::broadcast(-1.0f);
      return map_unary<Vec>(n, x, y, [=](V v) {
        return M::select(M::lt(zero, v), one, M::select(M::lt(v, zero), minus_one, Vec::add(v, zero)));
      });
    }
    case UnaryOp::kSoftplus: return map_unary<Vec>(n, x, y, [](V v) { return vec_softplus<Vec>(v); });
    case UnaryOp::kElu:
      return map_unary<Vec>(n, x, y,
                            [=](V v) { return M::select(M::lt(v, zero), Vec::mul(alpha, vec_expm1<Vec>(v)), v); });
    case UnaryOp::kSelu:
      // gamma x for x > 0, gamma (alpha (e^x - 1)) otherwise (NaN included).
      return map_unary<Vec>(n, x, y, [=](V v) {
        const V negative = Vec::mul(alpha, vec_expm1<Vec>(v));
        return Vec::mul(beta, M::select(M::lt(zero, v), v, negative));
      });
    case UnaryOp::kMish: return map_unary<Vec>(n, x, y, [](V v) { return vec_mish<Vec>(v); });
  }
}

template <class Vec>
void binary_impl(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b, size_t b_stride, float* y) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  using V = typename Vec::V;
  using M = VecMath<Vec>;
  TESSERA_CHECK(a_stride <= 1 && b_stride <= 1);
  if (n == 0) return;
  switch (op) {
    case BinaryOp::kAdd:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [](V u, V v) { return Vec::add(u, v); });
    case BinaryOp::kSub:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [](V u, V v) { return Vec::sub(u, v); });
    case BinaryOp::kMul:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [](V u, V v) { return Vec::mul(u, v); });
    case BinaryOp::kDiv:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [](V u, V v) { return Vec::div(u, v); });
    case BinaryOp::kMax:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y,
                             [](V u, V v) { return M::select(M::is_nan(v), v, M::max_first(u, v)); });
    case BinaryOp::kMin:
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y,
                             [](V u, V v) { return M::select(M::is_nan(v), v, M::min_first(u, v)); });
    case BinaryOp::kPow:
      if (b_stride == 0 && (*b == 2.0f || *b == 3.0f)) {
        const bool cube = *b == 3.0f;
        return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [=](V u, V) {
          const V square = Vec::mul(u, u);
          return cube ? Vec::mul(square, u) : square;
        });
      }
      return map_binary<Vec>(n, a, a_stride, b, b_stride, y, [](V u, V v) { return pow_lanes<Vec>(u, v); });
  }
}

}  // namespace tessera::kernels
