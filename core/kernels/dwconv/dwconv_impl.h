// The generic depthwise convolution: vectors across channels, P output pixels per step so
// each weight vector is loaded once per P fmas. Per-ISA files pick Vec and P, and R, the
// pixels per step where each input vector of a kernel row is also loaded once (as many as
// the ISA's registers hold with their inputs).
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/kernels/dwconv/dwconv.h"

namespace tessera::kernels {

// Taps [lo, hi) of one axis that land inside [0, size) for a window starting at `origin`
// (which may be negative: padding).
struct DwTapRange {
  ptrdiff_t lo, hi;
};

// Templated on Vec only so that each ISA file compiles its own copy: one shared inline
// function could be emitted with AVX-512 flags and then picked by the linker for every caller.
template <class Vec>
DwTapRange dwconv_tap_range(ptrdiff_t origin, ptrdiff_t size, ptrdiff_t taps, ptrdiff_t dilation) {
  ptrdiff_t lo = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
  ptrdiff_t hi = origin > size - 1 ? 0 : (size - 1 - origin) / dilation + 1;
  if (lo > taps) lo = taps;
  if (hi > taps) hi = taps;
  if (hi < lo) hi = lo;
  return {lo, hi};
}

// kP pixels of output row `oh` starting at `ow`, channels [c_begin, c_end): whole vectors,
// then one partial vector. Every pixel uses the same tap ranges (the caller groups only
// pixels where that holds), so the addressing is set up once for all channels. With kKW > 0
// the window is kKW whole columns at stride 1, dilation 1 (interior pixels): a kernel row's
// kP + kKW - 1 input vectors are each loaded once, just before the first of the kP x kKW fmas
// that read them, where otherwise each fma loads its own. The fmas run in the same order
// either way.
template <class Vec, int kP, int kKW = 0>
void dwconv_pixels(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias, float* output,
                   const float* residual, const MinMax& clamp, size_t oh, size_t ow, DwTapRange kh_range,
                   DwTapRange kw_range, size_t c_begin, size_t c_end) {
  using V = typename Vec::V;
  constexpr size_t kW = Vec::kWidth;
  const auto sd = [](size_t v) { return static_cast<ptrdiff_t>(v); };
  const ptrdiff_t channels = sd(g.channels);
  const ptrdiff_t pixel_step = sd(g.stride_w) * channels;
  const ptrdiff_t kw_step = sd(g.dilation_w) * channels;
  const ptrdiff_t kh_step = sd(g.dilation_h * g.in_w) * channels;
  const ptrdiff_t kw_count = kw_range.hi - kw_range.lo;
  const ptrdiff_t w_row_skip = (sd(g.kernel_w) - kw_count) * channels;
  // The first visited tap of pixel 0 at channel 0. A pixel with no tap inside the image
  // (padding wider than the kernel span) is just its bias.
  const bool has_taps = kh_range.lo < kh_range.hi && kw_count > 0;
  const ptrdiff_t first_ih = sd(oh * g.stride_h) - sd(g.pad_top) + kh_range.lo * sd(g.dilation_h);
  const ptrdiff_t first_iw = sd(ow * g.stride_w) - sd(g.pad_left) + kw_range.lo * sd(g.dilation_w);
  const float* x_first = has_taps ? input + (first_ih * sd(g.in_w) + first_iw) * channels : input;
  const float* w_first = has_taps ? packed_w + (kh_range.lo * sd(g.kernel_w) + kw_range.lo) * channels : packed_w;
  float* out = output + (oh * g.out_w + ow) * g.channels;
  const float* res = residual != nullptr ? residual + (oh * g.out_w + ow) * g.channels : nullptr;
  // max(lo, v) / min(hi, v): the traits return the second operand on NaN, so NaN propagates.
  const V lo = Vec::broadcast(clamp.min);
  const V hi = Vec::broadcast(clamp.max);

  const auto block = [&](size_t c, size_t n, auto tail) {
    constexpr bool kTail = decltype(tail)::value;
    const auto load = [&](const float* p) {
      if constexpr (kTail)
        return Vec::load_partial(p, n);
      else
        return Vec::load(p);
    };
    V acc[kP];
    const V b = load(bias + c);
#pragma GCC unroll 16
    for (int p = 0; p < kP; ++p) acc[p] = b;
    const float* x_row = x_first + c;
    const float* w = w_first + c;
    for (ptrdiff_t kh = kh_range.lo; has_taps && kh < kh_range.hi; ++kh) {
      if constexpr (kKW > 0) {
        V in[kP + kKW - 1];
#pragma GCC unroll 16
        for (int i = 0; i + 1 < kP; ++i) in[i] = load(x_row + i * channels);
#pragma GCC unroll 8
        for (int kw = 0; kw < kKW; ++kw) {
          in[kw + kP - 1] = load(x_row + (kw + kP - 1) * channels);
          const V wv = load(w + kw * channels);
#pragma GCC unroll 16
          for (int p = 0; p < kP; ++p) acc[p] = Vec::fma(in[p + kw], wv, acc[p]);
        }
        w += kKW * channels;
      } else {
        const float* x = x_row;
        for (ptrdiff_t kw = 0; kw < kw_count; ++kw) {
          const V wv = load(w);
#pragma GCC unroll 16
          for (int p = 0; p < kP; ++p) acc[p] = Vec::fma(load(x + p * pixel_step), wv, acc[p]);
          x += kw_step;
          w += channels;
        }
        w += w_row_skip;
      }
      x_row += kh_step;
    }
#pragma GCC unroll 16
    for (int p = 0; p < kP; ++p) {
      const size_t offset = static_cast<size_t>(p) * g.channels + c;
      V v = acc[p];
      if (res != nullptr) v = Vec::add(v, load(res + offset));
      v = Vec::min(hi, Vec::max(lo, v));
      if constexpr (kTail)
        Vec::store_partial(out + offset, v, n);
      else
        Vec::store(out + offset, v);
    }
  };

  size_t c = c_begin;
  for (; c + kW <= c_end; c += kW) block(c, kW, std::false_type{});
  if constexpr (kW > 1) {
    if (c < c_end) block(c, c_end - c, std::true_type{});
  }
}

// Interior pixels [ow, ow_end) of row `oh` (every kernel column inside the image): blocks of
// kP, then the remainder in blocks of kP/2, kP/4, ..., 1.
template <class Vec, int kP>
void dwconv_interior(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias,
                     float* output, const float* residual, const MinMax& clamp, size_t oh, size_t ow, size_t ow_end,
                     DwTapRange kh_range, size_t c_begin, size_t c_end) {
  const DwTapRange kw_range{0, static_cast<ptrdiff_t>(g.kernel_w)};
  for (; ow + kP <= ow_end; ow += kP) {
    dwconv_pixels<Vec, kP>(g, input, packed_w, bias, output, residual, clamp, oh, ow, kh_range, kw_range, c_begin,
                           c_end);
  }
  if constexpr (kP > 1) {
    dwconv_interior<Vec, kP / 2>(g, input, packed_w, bias, output, residual, clamp, oh, ow, ow_end, kh_range, c_begin,
                                 c_end);
  }
}

// Interior pixels of row `oh` from `ow` in blocks of kR that load each input vector once
// (dwconv_pixels with a window of kKW columns); returns the first pixel left.
template <class Vec, int kR, int kKW>
size_t dwconv_interior_reusing(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias,
                               float* output, const float* residual, const MinMax& clamp, size_t oh, size_t ow,
                               size_t ow_end, DwTapRange kh_range, size_t c_begin, size_t c_end) {
  const DwTapRange kw_range{0, kKW};
  for (; ow + kR <= ow_end; ow += kR) {
    dwconv_pixels<Vec, kR, kKW>(g, input, packed_w, bias, output, residual, clamp, oh, ow, kh_range, kw_range, c_begin,
                                c_end);
  }
  return ow;
}

using DwInteriorFn = size_t (*)(const DwConvGeometry&, const float*, const float*, const float*, float*, const float*,
                                const MinMax&, size_t, size_t, size_t, DwTapRange, size_t, size_t);

// The reusing interior for the windows it is compiled for (3, 5 or 7 columns at stride 1,
// dilation 1), else null. At stride 2 a kernel row's inputs are read by half as many fmas,
// and loading them once measured no faster.
template <class Vec, int kR>
DwInteriorFn reusing_interior(const DwConvGeometry& g) {
  if (g.stride_w != 1 || g.dilation_w != 1) return nullptr;
  switch (g.kernel_w) {
    case 3: return &dwconv_interior_reusing<Vec, kR, 3>;
    case 5: return &dwconv_interior_reusing<Vec, kR, 5>;
    case 7: return &dwconv_interior_reusing<Vec, kR, 7>;
    default: return nullptr;
  }
}

// Implements DwConvFn (see dwconv.h). Interior pixels go in blocks (dwconv_interior_reusing
// where the window allows, then dwconv_interior); border pixels go one at a time with their
// own column tap range. All paths visit taps in the same order, so which path or block a
// pixel falls in never changes its value.
template <class Vec, int kP, int kR>
void dwconv(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias, float* output,
            size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end, const float* residual, const MinMax& clamp) {
  if (c_begin >= c_end) return;
  const auto sd = [](size_t v) { return static_cast<ptrdiff_t>(v); };
  // Interior columns [ow_lo, ow_hi): ow * stride_w - pad_left >= 0 and the last tap < in_w.
  const ptrdiff_t right = sd(g.in_w) - 1 + sd(g.pad_left) - sd((g.kernel_w - 1) * g.dilation_w);
  // (Plain ternaries rather than std::min: see dwconv_tap_range on shared inline functions.)
  const size_t first_inside = (g.pad_left + g.stride_w - 1) / g.stride_w;
  const size_t ow_lo = first_inside < g.out_w ? first_inside : g.out_w;
  const size_t end_inside = right < 0 ? 0 : static_cast<size_t>(right) / g.stride_w + 1;
  const size_t ow_hi = end_inside < ow_lo ? ow_lo : (end_inside < g.out_w ? end_inside : g.out_w);
  // A tile of fewer than 32 channels leaves the loads ahead of each kernel row exposed, and
  // the plain blocks are as fast or faster (16 channels: 4-10 % slower with AVX-512 or AVX2;
  // 32 channels of a 5x5 window: 32 % faster with AVX-512).
  const DwInteriorFn reusing = c_end - c_begin >= 32 ? reusing_interior<Vec, kR>(g) : nullptr;

  for (size_t oh = oh_begin; oh < oh_end; ++oh) {
    const DwTapRange kh_range =
        dwconv_tap_range<Vec>(sd(oh * g.stride_h) - sd(g.pad_top), sd(g.in_h), sd(g.kernel_h), sd(g.dilation_h));
    const auto border_pixel = [&](size_t ow) {
      const DwTapRange kw_range =
          dwconv_tap_range<Vec>(sd(ow * g.stride_w) - sd(g.pad_left), sd(g.in_w), sd(g.kernel_w), sd(g.dilation_w));
      dwconv_pixels<Vec, 1>(g, input, packed_w, bias, output, residual, clamp, oh, ow, kh_range, kw_range, c_begin,
                            c_end);
    };
    for (size_t ow = 0; ow < ow_lo; ++ow) border_pixel(ow);
    const size_t ow =
        reusing ? reusing(g, input, packed_w, bias, output, residual, clamp, oh, ow_lo, ow_hi, kh_range, c_begin, c_end)
                : ow_lo;
    dwconv_interior<Vec, kP>(g, input, packed_w, bias, output, residual, clamp, oh, ow, ow_hi, kh_range, c_begin,
                             c_end);
    for (size_t ow = ow_hi; ow < g.out_w; ++ow) border_pixel(ow);
  }
}

}  // namespace tessera::kernels
