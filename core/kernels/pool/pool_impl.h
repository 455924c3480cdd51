// MaxPool, AveragePool and GlobalAveragePool written once over a vector-traits type, vectorised
// across channels; pool_<isa>.cc instantiate them. Everything here is a template over Vec, so
// each ISA file compiles its own copy with its own flags and no inline function is shared.
#pragma once

#include <cstddef>
#include <limits>

#include "core/base/check.h"
#include "core/kernels/pool/pool.h"
#include "core/kernels/simd/vec_math_ops.h"

namespace tessera::kernels {

// The taps of one window along one axis: k in [begin, end) land inside the input, and the
// first padded_count taps land below in + pad_after (the window never starts before the
// leading padding, so those are the taps inside the padded extent).
struct PoolTaps {
  size_t begin, end, padded_count;
};

template <class Vec>
PoolTaps pool_taps(size_t out_index, size_t stride, size_t dilation, size_t kernel, size_t pad_before, size_t in,
                   size_t pad_after) {
  const std::ptrdiff_t start =
      static_cast<std::ptrdiff_t>(out_index * stride) - static_cast<std::ptrdiff_t>(pad_before);
  const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(dilation);
  // The number of taps whose position start + k * dilation is below `limit`, at most kernel.
  auto taps_below = [&](std::ptrdiff_t limit) -> size_t {
    if (limit <= start) return 0;
    const size_t taps = static_cast<size_t>((limit - start + step - 1) / step);
    return taps < kernel ? taps : kernel;
  };
  const size_t begin = taps_below(0);
  const size_t end = taps_below(static_cast<std::ptrdiff_t>(in));
  return {begin, end > begin ? end : begin, taps_below(static_cast<std::ptrdiff_t>(in + pad_after))};
}

template <class Vec>
struct MaxPoolOp {
  using V = typename Vec::V;
  using M = VecMath<Vec>;
  V init() const { return Vec::broadcast(-std::numeric_limits<float>::infinity()); }
  // NaN wins; otherwise the larger value, the earlier one on ties (-0 vs +0).
  V combine(V acc, V v) const { return M::select(M::is_nan(v), v, M::max_first(acc, v)); }
  V finish(V acc) const { return acc; }
};

template <class Vec>
struct AveragePoolOp {
  using V = typename Vec::V;
  V divisor;
  V init() const { return Vec::zero(); }
  V combine(V acc, V v) const { return Vec::add(acc, v); }
  V finish(V acc) const { return Vec::div(acc, divisor); }
};

// Pools channels [c, c + (kVectors - 1) * W + last_count) of one output pixel over rows x cols
// taps (tap (r, s) at taps + r * row_step + s * col_step), in row-major tap order for every
// channel.
template <class Vec, int kVectors, class Op>
void pool_channels(const Op& op, const float* taps, size_t rows, size_t row_step, size_t cols, size_t col_step,
                   size_t c, size_t last_count, float* out) {
  using V = typename Vec::V;
  constexpr size_t w = Vec::kWidth;
  V acc[kVectors];
  for (int j = 0; j < kVectors; ++j) acc[j] = op.init();
  for (size_t r = 0; r < rows; ++r) {
    for (size_t s = 0; s < cols; ++s) {
      const float* p = taps + r * row_step + s * col_step + c;
      for (int j = 0; j + 1 < kVectors; ++j) acc[j] = op.combine(acc[j], Vec::load(p + j * w));
      const float* last = p + (kVectors - 1) * w;
      acc[kVectors - 1] =
          op.combine(acc[kVectors - 1], last_count == w ? Vec::load(last) : Vec::load_partial(last, last_count));
    }
  }
  for (int j = 0; j + 1 < kVectors; ++j) Vec::store(out + c + j * w, op.finish(acc[j]));
  float* last = out + c + (kVectors - 1) * w;
  if (last_count == w) {
    Vec::store(last, op.finish(acc[kVectors - 1]));
  } else {
    Vec::store_partial(last, op.finish(acc[kVectors - 1]), last_count);
  }
}

// Channels [c_begin, c_end) in blocks of four vectors, then single vectors, then a partial one:
// the blocking changes which channels share a loop, never the arithmetic of one channel.
template <class Vec, class Op>
void pool_pixel(const Op& op, const float* taps, size_t rows, size_t row_step, size_t cols, size_t col_step,
                size_t c_begin, size_t c_end, float* out) {
  constexpr size_t w = Vec::kWidth;
  size_t c = c_begin;
  for (; c + 4 * w <= c_end; c += 4 * w) {
    pool_channels<Vec, 4>(op, taps, rows, row_step, cols, col_step, c, w, out);
  }
  for (; c + w <= c_end; c += w) pool_channels<Vec, 1>(op, taps, rows, row_step, cols, col_step, c, w, out);
  if (c < c_end) pool_channels<Vec, 1>(op, taps, rows, row_step, cols, col_step, c, c_end - c, out);
}

// make_op(window rows, window columns) gives the pixel's Op from its tap ranges.
template <class Vec, class MakeOp>
void pool_impl(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
               size_t c_end, MakeOp make_op) {
  TESSERA_CHECK(g.dilation_h >= 1 && g.dilation_w >= 1);
  const size_t channels = g.channels;
  for (size_t oh = oh_begin; oh < oh_end; ++oh) {
    const PoolTaps rows = pool_taps<Vec>(oh, g.stride_h, g.dilation_h, g.kernel_h, g.pad_top, g.in_h, g.pad_bottom);
    for (size_t ow = 0; ow < g.out_w; ++ow) {
      const PoolTaps cols = pool_taps<Vec>(ow, g.stride_w, g.dilation_w, g.kernel_w, g.pad_left, g.in_w, g.pad_right);
      const size_t row_taps = rows.end - rows.begin, col_taps = cols.end - cols.begin;
      // The first in-image tap; an empty window reads nothing.
      const float* first = x;
      if (row_taps != 0 && col_taps != 0) {
        const size_t ih = oh * g.stride_h + rows.begin * g.dilation_h - g.pad_top;
        const size_t iw = ow * g.stride_w + cols.begin * g.dilation_w - g.pad_left;
        first = x + (ih * g.in_w + iw) * channels;
      }
      pool_pixel<Vec>(make_op(rows, cols), first, row_taps, g.dilation_h * g.in_w * channels, col_taps,
                      g.dilation_w * channels, c_begin, c_end, y + (oh * g.out_w + ow) * channels);
    }
  }
}

template <class Vec>
void max_pool_impl(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
                   size_t c_end) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  pool_impl<Vec>(g, x, y, oh_begin, oh_end, c_begin, c_end,
                 [](const PoolTaps&, const PoolTaps&) { return MaxPoolOp<Vec>{}; });
}

template <class Vec>
void average_pool_impl(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
                       size_t c_end) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  pool_impl<Vec>(g, x, y, oh_begin, oh_end, c_begin, c_end, [&](const PoolTaps& rows, const PoolTaps& cols) {
    const size_t count =
        g.count_include_pad ? rows.padded_count * cols.padded_count : (rows.end - rows.begin) * (cols.end - cols.begin);
    // An empty window sums to 0; dividing by 1 keeps it 0.
    return AveragePoolOp<Vec>{Vec::broadcast(static_cast<float>(count == 0 ? 1 : count))};
  });
}

template <class Vec>
void global_average_pool_impl(size_t pixels, size_t channels, const float* x, float* y, size_t c_begin, size_t c_end) {
  [[maybe_unused]] const typename VecMath<Vec>::ExitGuard exit_guard;
  const AveragePoolOp<Vec> op{Vec::broadcast(static_cast<float>(pixels == 0 ? 1 : pixels))};
  pool_pixel<Vec>(op, x, pixels, channels, 1, 0, c_begin, c_end, y);
}

}  // namespace tessera::kernels
