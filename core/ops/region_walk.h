// Walks a region of strided tensors run by run: the loop every copy and elementwise kernel
// binding shares. Runs follow the output's memory order and merge dimensions that are
// contiguous for every operand, so a whole-row tile is one long run.
#pragma once

#include <algorithm>
#include <array>
#include <span>

#include "core/ops/geometry.h"

namespace tessera::ops {

// Strides per logical dimension of each operand (0 where an operand broadcasts).
using Strides = std::array<int64_t, kMaxRank>;

// For each run calls fn(offsets, count, inner_strides): offsets[k] is operand k's element
// offset of the run's first element, inner_strides[k] its stride along the run.
template <size_t N, class Fn>
void walk_region(const Region& region, const Layout& order, const std::array<Strides, N>& strides, Fn&& fn) {
  // Physical dimensions outer -> inner, with their extents and per-operand strides.
  int rank = 0;
  std::array<int64_t, kMaxRank> extent{};
  std::array<std::array<int64_t, kMaxRank>, N> step{};
  std::array<int64_t, N> base{};
  for (size_t k = 0; k < N; ++k) {
    for (int d = 0; d < region.rank; ++d) base[k] += region.begin[d] * strides[k][d];
  }
  for (int p = 0; p < region.rank; ++p) {
    const int d = order.perm[p];
    if (region.extent(d) == 1) continue;  // contributes nothing to the walk
    bool merges = rank > 0;
    for (size_t k = 0; k < N && merges; ++k) merges = step[k][rank - 1] == strides[k][d] * region.extent(d);
    if (merges) {
      extent[rank - 1] *= region.extent(d);
      for (size_t k = 0; k < N; ++k) step[k][rank - 1] = strides[k][d];
      continue;
    }
    extent[rank] = region.extent(d);
    for (size_t k = 0; k < N; ++k) step[k][rank] = strides[k][d];
    ++rank;
  }
  std::array<int64_t, N> inner{};
  int64_t count = 1;
  if (rank > 0) {
    count = extent[rank - 1];
    for (size_t k = 0; k < N; ++k) inner[k] = step[k][rank - 1];
    --rank;
  }
  std::array<int64_t, kMaxRank> index{};
  std::array<int64_t, N> offset = base;
  while (true) {
    fn(offset, count, inner);
    int p = rank - 1;
    for (; p >= 0; --p) {
      for (size_t k = 0; k < N; ++k) offset[k] += step[k][p];
      if (++index[p] < extent[p]) break;
      for (size_t k = 0; k < N; ++k) offset[k] -= step[k][p] * extent[p];
      index[p] = 0;
    }
    if (p < 0) return;
  }
}

// Copies `count` elements from `x` (stride x_step; 0 repeats one) to `y` (stride y_step).
template <class T>
void copy_run(const T* x, int64_t x_step, T* y, int64_t y_step, int64_t count) {
  if (x_step == 0 && y_step == 1) {
    std::fill(y, y + count, *x);
  } else if (x_step == 1 && y_step == 1) {
    std::copy(x, x + count, y);
  } else {
    for (int64_t i = 0; i < count; ++i) y[i * y_step] = x[i * x_step];
  }
}

// Copies `region` from `src` (strides `from`, on the region's dimensions; 0 broadcasts) to
// `dst` (strides `to`), run by run in `order`: the data-moving kernels' shared inner loop,
// for elements of any type T.
template <class T>
void copy_region(const Region& region, const Layout& order, const Strides& from, const T* src, const Strides& to,
                 T* dst) {
  // A short innermost dimension gathered from afar (an image's 3 channels, NCHW to NHWC) would
  // make every run a walk step for a few elements: walk without it, and copy each run once
  // per index of it, reading along the run.
  // (Not where the walk merges it with the next dimension: a stepped slice's short rows make
  // one long run.)
  constexpr int64_t kShortRun = 8;
  int inner = -1, next = -1;
  for (int p = region.rank - 1; p >= 0 && next < 0; --p) {
    if (region.extent(order.perm[p]) == 1) continue;
    (inner < 0 ? inner : next) = order.perm[p];
  }
  const auto merges = [&](int d) {
    return from[d] == from[inner] * region.extent(inner) && to[d] == to[inner] * region.extent(inner);
  };
  Region walked = region;
  int64_t copies = 1, src_skip = 0, dst_skip = 0;
  if (next >= 0 && region.extent(inner) <= kShortRun && from[inner] != 0 && from[inner] != 1 && !merges(next)) {
    walked.end[inner] = walked.begin[inner] + 1;
    copies = region.extent(inner);
    src_skip = from[inner];
    dst_skip = to[inner];
  }
  walk_region(walked, order, std::array<Strides, 2>{from, to},
              [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                for (int64_t j = 0; j < copies; ++j) {
                  copy_run(src + off[0] + j * src_skip, step[0], dst + off[1] + j * dst_skip, step[1], count);
                }
              });
}

}  // namespace tessera::ops
