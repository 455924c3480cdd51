// The generic GEMM micro-kernel: an MR x NR register tile over any vector traits type.
// Per-ISA files only pick Vec, MR and NR; the arithmetic order lives here, once.
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/kernels/activation.h"
#include "core/kernels/gemm/gemm.h"

namespace tessera::kernels {

// Implements GemmUkernelFn (see gemm.h) for `a` holding kAStride row pointers per tap. Every
// trip count below except kc and ks is a compile-time constant and fully unrolled, so the
// MR x NR/kWidth accumulators stay in registers. All MR rows are computed whatever mr is, and
// columns past nc only vanish at the store, so no lane's arithmetic depends on the block
// shape. KU unrolls the k loop (the order of the multiply-adds stays the same). kPrefetch
// instances ask for `prefetch_w`'s rows as they read their own; the others have no trace of
// it (the 14-row kernel already keeps some row pointers on the stack).
template <class Vec, int MR, int NR, int KU = 1, int kAStride = MR, bool kPrefetch = false>
void gemm_ukernel_rows(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* packed_w,
                       const float* prefetch_w, float* c, size_t c_stride, const float* residual,
                       size_t residual_stride, const MinMax& clamp) {
  using V = typename Vec::V;
  constexpr int kW = Vec::kWidth;
  constexpr int kNV = NR / kW;
  constexpr int kFloatsPerLine = 16;
  static_assert(NR % kW == 0, "NR must be a whole number of vectors");

  V acc[MR][kNV];
#pragma GCC unroll 16
  for (int j = 0; j < kNV; ++j) {
    const V b = Vec::load(packed_w + j * kW);
#pragma GCC unroll 32
    for (int r = 0; r < MR; ++r) acc[r][j] = b;
  }

  const float* w = packed_w + NR;
  if constexpr (kPrefetch) prefetch_w += NR;
  for (size_t t = 0; t < ks; ++t) {
    const float* row[MR];
#pragma GCC unroll 32
    for (int r = 0; r < MR; ++r) row[r] = a[t * kAStride + r];
    auto step = [&](size_t k) {
      V b[kNV];
#pragma GCC unroll 16
      for (int j = 0; j < kNV; ++j) b[j] = Vec::load(w + j * kW);
      if constexpr (kPrefetch) {
#pragma GCC unroll 4
        for (int j = 0; j < NR; j += kFloatsPerLine) __builtin_prefetch(prefetch_w + j, 0, 2);
        prefetch_w += NR;
      }
      w += NR;
#pragma GCC unroll 32
      for (int r = 0; r < MR; ++r) {
        const V x = Vec::broadcast(row[r][k]);
#pragma GCC unroll 16
        for (int j = 0; j < kNV; ++j) acc[r][j] = Vec::fma(x, b[j], acc[r][j]);
      }
    };
    size_t k = 0;
    for (; k + KU <= kc; k += KU) {
#pragma GCC unroll 8
      for (int u = 0; u < KU; ++u) step(k + u);
    }
    for (; k < kc; ++k) step(k);
  }

  // max(lo, v) / min(hi, v): the traits return the second operand on NaN, so NaN propagates.
  const V lo = Vec::broadcast(clamp.min);
  const V hi = Vec::broadcast(clamp.max);
  // The residual is added, then every vector clamped and stored, each pass over the block's
  // vectors (r, j) of `lanes` columns: a whole block (mr == MR, nc == NR) visits all of them
  // with no test per vector (a shallow GEMM, depth 64, spent 3-4 % of each call on those
  // tests), a ragged one only the rows and columns it has. The same operations in the same
  // order either way. The lambdas must inline: clang 14 outlined them for WebAssembly, and
  // the accumulators they capture then went to memory at every k step (ResNet-50 in wasm
  // 1.35x slower).
  const auto finish = [&](auto whole) __attribute__((always_inline)) {
    constexpr bool kWhole = decltype(whole)::value;
    const auto each_vector = [&](auto&& visit) __attribute__((always_inline)) {
#pragma GCC unroll 32
      for (int r = 0; r < MR; ++r) {
        if (!kWhole && static_cast<size_t>(r) >= mr) break;
#pragma GCC unroll 16
        for (int j = 0; j < kNV; ++j) {
          const size_t col = static_cast<size_t>(j) * kW;
          if (!kWhole && col >= nc) break;
          visit(r, j, kWhole || nc - col >= static_cast<size_t>(kW) ? static_cast<size_t>(kW) : nc - col);
        }
      }
    };
    if (residual != nullptr) {
      each_vector([&](int r, int j, size_t lanes) __attribute__((always_inline)) {
        const float* res = residual + r * residual_stride + j * kW;
        acc[r][j] = Vec::add(acc[r][j], lanes == kW ? Vec::load(res) : Vec::load_partial(res, lanes));
      });
    }
    each_vector([&](int r, int j, size_t lanes) __attribute__((always_inline)) {
      float* out = c + r * c_stride + j * kW;
      const V v = Vec::min(hi, Vec::max(lo, acc[r][j]));
      lanes == kW ? Vec::store(out, v) : Vec::store_partial(out, v, lanes);
    });
  };
  if (mr == static_cast<size_t>(MR) && nc == static_cast<size_t>(NR)) {
    finish(std::true_type{});
  } else {
    finish(std::false_type{});
  }
}

// The micro-kernel of MR x NR. A block runs the instance gemm_block_rows names: one row (a
// batch-1 classifier's matrix-vector product), half the kernel's rows (a 7 x 7 image's last 7
// of 49 pixels, a tile's last rows) or all. Each has the same multiply-adds per output, so
// the same bits, without computing rows nobody stores (VGG-16's 400 MB fully-connected layer
// was 14 rows of FMAs per weight, not a stream of the weights).
template <class Vec, int MR, int NR, int KU, bool kPrefetch>
void gemm_ukernel_block(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* packed_w,
                        const float* prefetch_w, float* c, size_t c_stride, const float* residual,
                        size_t residual_stride, const MinMax& clamp) {
  constexpr int kHalf = MR / 2;
  const size_t rows = gemm_block_rows(mr, MR);
  if (rows == 1) {
    gemm_ukernel_rows<Vec, 1, NR, KU, MR, kPrefetch>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual,
                                                     residual_stride, clamp);
  } else if (kHalf > 1 && rows == static_cast<size_t>(kHalf)) {
    gemm_ukernel_rows<Vec, kHalf, NR, KU, MR, kPrefetch>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual,
                                                         residual_stride, clamp);
  } else {
    gemm_ukernel_rows<Vec, MR, NR, KU, MR, kPrefetch>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual,
                                                      residual_stride, clamp);
  }
}

// The instances that prefetch serve the calls that pass a panel to prefetch.
template <class Vec, int MR, int NR, int KU = 1>
void gemm_ukernel(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* packed_w,
                  const float* prefetch_w, float* c, size_t c_stride, const float* residual, size_t residual_stride,
                  const MinMax& clamp) {
  if (prefetch_w != nullptr) {
    gemm_ukernel_block<Vec, MR, NR, KU, true>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual,
                                              residual_stride, clamp);
  } else {
    gemm_ukernel_block<Vec, MR, NR, KU, false>(mr, nc, kc, ks, a, packed_w, nullptr, c, c_stride, residual,
                                               residual_stride, clamp);
  }
}

}  // namespace tessera::kernels
