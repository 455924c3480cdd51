// Softmax, layer and group normalisation written once over a vector-traits type; rows_<isa>.cc
// instantiate them. Everything here is a template over Vec, so each ISA file compiles its own
// copy with its own instruction-set flags and no inline function is shared between them.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "core/kernels/elementwise/vector_math.h"
#include "core/kernels/rows/rows.h"

namespace tessera::kernels {

// Loads count <= kWidth floats; lanes past count hold `fill`.
template <class Vec>
typename Vec::V load_n(const float* p, size_t count, float fill) {
  return count == Vec::kWidth ? Vec::load(p) : VecMath<Vec>::load_partial_fill(p, count, fill);
}

template <class Vec>
void store_n(float* p, typename Vec::V v, size_t count) {
  if (count == Vec::kWidth) {
    Vec::store(p, v);
  } else {
    Vec::store_partial(p, v, count);
  }
}

// op(i, count) for consecutive vectors of the row; count < kWidth only for the last one.
template <class Vec, class Op>
void for_each_vector(size_t n, Op op) {
  constexpr size_t w = Vec::kWidth;
  size_t i = 0;
  for (; i + w <= n; i += w) op(i, w);
  if (i < n) op(i, n - i);
}

// Folds term(i, count) over the row's vectors into four accumulators in a fixed order (full
// blocks of four vectors round-robin, the remaining vectors and the tail into the first), then
// combines them as (a0 + a1) + (a2 + a3): the result depends only on the row and n.
template <class Vec, class Acc, class Term, class Combine>
Acc reduce_row(size_t n, Acc init, Term term, Combine combine) {
  constexpr size_t w = Vec::kWidth;
  Acc a0 = init, a1 = init, a2 = init, a3 = init;
  size_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w) {
    a0 = combine(a0, term(i, w));
    a1 = combine(a1, term(i + w, w));
    a2 = combine(a2, term(i + 2 * w, w));
    a3 = combine(a3, term(i + 3 * w, w));
  }
  for (; i + w <= n; i += w) a0 = combine(a0, term(i, w));
  if (i < n) a0 = combine(a0, term(i, n - i));
  return combine(combine(a0, a1), combine(a2, a3));
}

// Three passes: the maximum, e = exp(x - max) stored to y while summed, then y *= 1 / sum.
// Tail lanes are loaded as -inf so that they add exactly 0 to the sum.
template <class Vec>
void softmax_row(size_t n, const float* x, float* y) {
  using V = typename Vec::V;
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const V max = reduce_row<Vec>(
      n, Vec::broadcast(kNegInf), [=](size_t i, size_t count) { return load_n<Vec>(x + i, count, kNegInf); },
      [](V a, V b) { return Vec::max(a, b); });
  const V row_max = Vec::broadcast(Vec::reduce_max(max));
  const V sum = reduce_row<Vec>(
      n, Vec::zero(),
      [=](size_t i, size_t count) {
        const V e = vec_exp<Vec>(Vec::sub(load_n<Vec>(x + i, count, kNegInf), row_max));
        store_n<Vec>(y + i, e, count);
        return e;
      },
      [](V a, V b) { return Vec::add(a, b); });
  const V inverse_sum = Vec::broadcast(1.0f / Vec::reduce_add(sum));
  for_each_vector<Vec>(n, [=](size_t i, size_t count) {
    store_n<Vec>(y + i, Vec::mul(load_n<Vec>(y + i, count, 0.0f), inverse_sum), count);
  });
}

template <class Vec>
void softmax_impl(size_t rows, size_t n, const float* x, size_t x_row_stride, float* y, size_t y_row_stride) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  if (n == 0) return;
  for (size_t r = 0; r < rows; ++r) softmax_row<Vec>(n, x + r * x_row_stride, y + r * y_row_stride);
}

// Statistics of a row for normalising it: y = (x - mean - shift) * inverse_std.
struct RowMoments {
  float mean, shift, inverse_std;
};

// Two passes: the mean m, then the deviations d = x - m summed together with their squares.
// Their mean s is the rounding error of m (the corrected two-pass algorithm), so x - m - s and
// var = mean(d^2) - s^2 stay accurate when |mean| >> std. Tail lanes are loaded as m and
// contribute exactly 0.
template <class Vec>
RowMoments row_moments(size_t n, const float* x, float epsilon) {
  using V = typename Vec::V;
  struct Moments {
    V deviation, square;
  };
  const float count_f = static_cast<float>(n);
  const V sum = reduce_row<Vec>(
      n, Vec::zero(), [=](size_t i, size_t count) { return load_n<Vec>(x + i, count, 0.0f); },
      [](V a, V b) { return Vec::add(a, b); });
  const float mean = Vec::reduce_add(sum) / count_f;
  const V row_mean = Vec::broadcast(mean);
  const Moments moments = reduce_row<Vec>(
      n, Moments{Vec::zero(), Vec::zero()},
      [=](size_t i, size_t count) {
        const V d = Vec::sub(load_n<Vec>(x + i, count, mean), row_mean);
        return Moments{d, Vec::mul(d, d)};
      },
      [](Moments a, Moments b) {
        return Moments{Vec::add(a.deviation, b.deviation), Vec::add(a.square, b.square)};
      });
  const float shift = Vec::reduce_add(moments.deviation) / count_f;
  const float variance = Vec::reduce_add(moments.square) / count_f - shift * shift;
  return {mean, shift, 1.0f / std::sqrt((variance > 0.0f ? variance : 0.0f) + epsilon)};
}

// y = (x - m - s) * inverse_std * scale + bias over n floats (no bias when null): scale and
// bias hold n floats, or with kBroadcast one float each for the whole run.
template <class Vec, bool kBroadcast>
void normalize_run(size_t n, const float* x, const RowMoments& m, const float* scale, const float* bias, float* y) {
  using V = typename Vec::V;
  const V row_mean = Vec::broadcast(m.mean);
  const V row_shift = Vec::broadcast(m.shift);
  const V inverse_std = Vec::broadcast(m.inverse_std);
  auto operand = [](const float* p, size_t i, size_t count) {
    if constexpr (kBroadcast) {
      return Vec::broadcast(*p);
    } else {
      return load_n<Vec>(p + i, count, 0.0f);
    }
  };
  for_each_vector<Vec>(n, [=](size_t i, size_t count) {
    const V d = Vec::sub(Vec::sub(load_n<Vec>(x + i, count, 0.0f), row_mean), row_shift);
    const V normalised = Vec::mul(d, inverse_std);
    const V s = operand(scale, i, count);
    const V out = bias != nullptr ? Vec::fma(normalised, s, operand(bias, i, count)) : Vec::mul(normalised, s);
    store_n<Vec>(y + i, out, count);
  });
}

template <class Vec>
void layer_norm_row(size_t n, const float* x, const float* scale, const float* bias, float epsilon, float* y) {
  normalize_run<Vec, false>(n, x, row_moments<Vec>(n, x, epsilon), scale, bias, y);
}

template <class Vec>
void layer_norm_impl(size_t rows, size_t n, const float* x, size_t x_row_stride, const float* scale, const float* bias,
                     float epsilon, float* y, size_t y_row_stride) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  if (n == 0) return;
  for (size_t r = 0; r < rows; ++r) {
    layer_norm_row<Vec>(n, x + r * x_row_stride, scale, bias, epsilon, y + r * y_row_stride);
  }
}

// The group's statistics over all channels * spatial floats, then each channel's run with its
// own scale and bias.
template <class Vec>
void group_norm_impl(size_t channels, size_t spatial, const float* x, const float* scale, const float* bias,
                     float epsilon, float* y) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  if (channels == 0 || spatial == 0) return;
  const RowMoments m = row_moments<Vec>(channels * spatial, x, epsilon);
  for (size_t c = 0; c < channels; ++c) {
    normalize_run<Vec, true>(spatial, x + c * spatial, m, scale + c, bias != nullptr ? bias + c : nullptr,
                             y + c * spatial);
  }
}

}  // namespace tessera::kernels
