// Kernels that only move elements (Trilu, DepthToSpace, SpaceToDepth) handle every dtype by
// moving unsigned integers of the element's size: one instantiation per size, not per dtype.
#pragma once

#include <cstdint>
#include <utility>

#include "core/ops/region_walk.h"
#include "tessera/tensor.h"

namespace tessera::ops {

// fn(T{}) with T the unsigned integer as wide as one element of `dtype`.
template <class Fn>
decltype(auto) with_element_bits(DType dtype, Fn&& fn) {
  switch (dtype_size(dtype)) {
    case 1: return std::forward<Fn>(fn)(uint8_t{});
    case 4: return std::forward<Fn>(fn)(uint32_t{});
    default: return std::forward<Fn>(fn)(uint64_t{});
  }
}

// "x8", "x32" or "x64": the element width in kernel names.
template <class T>
constexpr const char* element_bits_name() {
  return sizeof(T) == 1 ? "x8" : sizeof(T) == 4 ? "x32" : "x64";
}

// copy_region (region_walk.h) for elements of type T.
template <class T>
void copy_elements(const Region& region, const Layout& order, const Strides& from, const T* src, const Strides& to,
                   T* dst) {
  walk_region(region, order, std::array<Strides, 2>{from, to},
              [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                if (step[0] == 1 && step[1] == 1) {
                  std::copy(src + off[0], src + off[0] + count, dst + off[1]);
                } else {
                  for (int64_t i = 0; i < count; ++i) dst[off[1] + i * step[1]] = src[off[0] + i * step[0]];
                }
              });
}

}  // namespace tessera::ops
