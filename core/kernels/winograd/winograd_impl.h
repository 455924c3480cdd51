// The generic Winograd transforms over any vector traits type, for either tile (F4, F2 below).
// Per-ISA files only pick Vec; the arithmetic order lives here, once. Each 1-D transform is
// the matrix product written out with shared subexpressions, as NNPACK and ncnn do;
// multipliers are powers of two or small integers, so the fused multiply-adds round once.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/kernels/activation.h"
#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels {

// F(4x4, 3x3): 6 x 6 inputs per tile, 4 x 4 outputs.
struct WinogradF4 {
  static constexpr WinogradTile kTile = kWinogradF4;

  // B^T applied to d[0..5] (stride s apart in `d`), written to t[0..5] (stride s apart).
  template <class Vec>
  static void input_1d(const typename Vec::V* d, typename Vec::V* t, int s) {
    using V = typename Vec::V;
    const V four = Vec::broadcast(4.0f), minus_four = Vec::broadcast(-4.0f), minus_five = Vec::broadcast(-5.0f);
    const V two = Vec::broadcast(2.0f), minus_two = Vec::broadcast(-2.0f);
    const V d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];
    t[0] = Vec::fma(four, d0, Vec::fma(minus_five, d2, d4));          // 4 d0 - 5 d2 + d4
    t[s] = Vec::fma(minus_four, Vec::add(d1, d2), Vec::add(d3, d4));  // -4 (d1 + d2) + d3 + d4
    t[2 * s] = Vec::fma(four, Vec::sub(d1, d2), Vec::sub(d4, d3));    // 4 (d1 - d2) + d4 - d3
    const V odd = Vec::sub(d3, d1), even = Vec::sub(d4, d2);
    t[3 * s] = Vec::fma(two, odd, even);                          // 2 (d3 - d1) + d4 - d2
    t[4 * s] = Vec::fma(minus_two, odd, even);                    // -2 (d3 - d1) + d4 - d2
    t[5 * s] = Vec::fma(four, d1, Vec::fma(minus_five, d3, d5));  // 4 d1 - 5 d3 + d5
  }

  // A^T applied to m[0..5] (stride s apart), written to o[0..3] (stride s apart).
  template <class Vec>
  static void output_1d(const typename Vec::V* m, typename Vec::V* o, int s) {
    using V = typename Vec::V;
    const V sum12 = Vec::add(m[s], m[2 * s]), diff12 = Vec::sub(m[s], m[2 * s]);
    const V sum34 = Vec::add(m[3 * s], m[4 * s]), diff34 = Vec::sub(m[3 * s], m[4 * s]);
    o[0] = Vec::add(Vec::add(m[0], sum12), sum34);                                  // m0 + m1 + m2 + m3 + m4
    o[s] = Vec::fma(Vec::broadcast(2.0f), diff34, diff12);                          // (m1 - m2) + 2 (m3 - m4)
    o[2 * s] = Vec::fma(Vec::broadcast(4.0f), sum34, sum12);                        // (m1 + m2) + 4 (m3 + m4)
    o[3 * s] = Vec::add(Vec::fma(Vec::broadcast(8.0f), diff34, diff12), m[5 * s]);  // ... + 8 (m3 - m4) + m5
  }
};

// F(2x2, 3x3): 4 x 4 inputs per tile, 2 x 2 outputs.
struct WinogradF2 {
  static constexpr WinogradTile kTile = kWinogradF2;

  // B^T applied to d[0..3] (stride s apart), written to t[0..3] (stride s apart).
  template <class Vec>
  static void input_1d(const typename Vec::V* d, typename Vec::V* t, int s) {
    const typename Vec::V d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s];
    t[0] = Vec::sub(d0, d2);
    t[s] = Vec::add(d1, d2);
    t[2 * s] = Vec::sub(d2, d1);
    t[3 * s] = Vec::sub(d1, d3);
  }

  // A^T applied to m[0..3] (stride s apart), written to o[0..1] (stride s apart).
  template <class Vec>
  static void output_1d(const typename Vec::V* m, typename Vec::V* o, int s) {
    o[0] = Vec::add(Vec::add(m[0], m[s]), m[2 * s]);      // m0 + m1 + m2
    o[s] = Vec::sub(Vec::sub(m[s], m[2 * s]), m[3 * s]);  // m1 - m2 - m3
  }
};

// Implements WinogradInputFn (winograd.h): columns of the tile first, then its rows.
template <class Vec, class F>
void winograd_input(size_t channels, const float* const* in, float* v, size_t v_stride) {
  using V = typename Vec::V;
  constexpr int kW = Vec::kWidth;
  constexpr int kN = F::kTile.input();
  for (size_t c = 0; c < channels; c += kW) {
    const size_t lanes = std::min<size_t>(kW, channels - c);
    V d[kN * kN], t[kN * kN];
#pragma GCC unroll 36
    for (int i = 0; i < kN * kN; ++i) {
      d[i] = lanes == kW ? Vec::load(in[i] + c) : Vec::load_partial(in[i] + c, lanes);
    }
#pragma GCC unroll 6
    for (int j = 0; j < kN; ++j) F::template input_1d<Vec>(d + j, t + j, kN);
#pragma GCC unroll 6
    for (int i = 0; i < kN; ++i) F::template input_1d<Vec>(t + i * kN, d + i * kN, 1);
#pragma GCC unroll 36
    for (int i = 0; i < kN * kN; ++i) {
      if (lanes == kW) {
        Vec::store(v + i * v_stride + c, d[i]);
      } else {
        Vec::store_partial(v + i * v_stride + c, d[i], lanes);
      }
    }
  }
}

// Implements WinogradOutputFn (winograd.h): columns of M first, then rows; the bias is added
// to the transformed sums, then the residual, then the clamp (the GEMM kernels' order).
template <class Vec, class F>
void winograd_output(size_t channels, const float* m, size_t m_stride, const float* bias, float* y, size_t y_row_stride,
                     size_t y_pixel_stride, const float* residual, size_t row_begin, size_t row_end, size_t cols,
                     const MinMax& clamp) {
  using V = typename Vec::V;
  constexpr int kW = Vec::kWidth;
  constexpr int kN = F::kTile.input();
  constexpr int kO = F::kTile.output;
  const V lo = Vec::broadcast(clamp.min), hi = Vec::broadcast(clamp.max);
  for (size_t c = 0; c < channels; c += kW) {
    const size_t lanes = std::min<size_t>(kW, channels - c);
    auto load = [&](const float* p) { return lanes == kW ? Vec::load(p) : Vec::load_partial(p, lanes); };
    V s[kN * kN], t[kO * kN], o[kO * kO];
#pragma GCC unroll 36
    for (int i = 0; i < kN * kN; ++i) s[i] = load(m + i * m_stride + c);
#pragma GCC unroll 6
    for (int j = 0; j < kN; ++j) F::template output_1d<Vec>(s + j, t + j, kN);
#pragma GCC unroll 4
    for (int i = 0; i < kO; ++i) F::template output_1d<Vec>(t + i * kN, o + i * kO, 1);
    const V b = load(bias + c);
    for (size_t r = row_begin; r < row_end; ++r) {
      for (size_t col = 0; col < cols; ++col) {
        const size_t at = r * y_row_stride + col * y_pixel_stride + c;
        V value = Vec::add(o[r * kO + col], b);
        if (residual != nullptr) value = Vec::add(value, load(residual + at));
        value = Vec::min(hi, Vec::max(lo, value));
        if (lanes == kW) {
          Vec::store(y + at, value);
        } else {
          Vec::store_partial(y + at, value, lanes);
        }
      }
    }
  }
}

}  // namespace tessera::kernels
