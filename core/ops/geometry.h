// Shapes, layouts and regions: the coordinates every op, tile and kernel binding speaks.
// Regions are boxes in a tensor's *logical* (ONNX) coordinates; a Layout says how those
// coordinates sit in memory, so footprints never depend on the physical layout.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/check.h"

namespace tessera::ops {

inline constexpr int kMaxRank = 8;

using Shape = std::vector<int64_t>;

int64_t element_count(const Shape& shape);
std::string shape_string(const Shape& shape);  // "[1, 3, 224, 224]"

// perm[i] is the logical dimension stored at physical position i (outermost first).
// Identity is ONNX's row-major order; {0, 2, 3, 1} stores NCHW tensors as NHWC.
struct Layout {
  std::vector<int> perm;

  static Layout identity(int rank);
  static Layout nhwc();
  bool is_identity() const;
  bool operator==(const Layout& other) const { return perm == other.perm; }
  std::string name() const;  // "identity", "NHWC" or the permutation
};

// Element strides indexed by logical dimension, for `shape` stored in `layout`.
std::array<int64_t, kMaxRank> logical_strides(const Shape& shape, const Layout& layout);

// The dimensions of `shape` that are not 1, outermost first in `layout`'s memory order,
// each named by `source[d]` (the dimension of some other tensor it stands for). Two
// tensors with equal sequences hold the same bytes in the same order: converting between
// them moves nothing.
std::vector<int> memory_order(const Shape& shape, const Layout& layout, const std::vector<int>& source);

// A box [begin, end) per logical dimension.
struct Region {
  int rank = 0;
  std::array<int64_t, kMaxRank> begin{};
  std::array<int64_t, kMaxRank> end{};

  static Region whole(const Shape& shape);
  int64_t extent(int d) const { return end[d] - begin[d]; }
  int64_t element_count() const;
  bool empty() const;
  bool operator==(const Region& other) const;
};

// [first, last] element offsets touched by `region` in a tensor with these strides:
// a conservative hull used for memory-reuse hazards.
struct ElementRange {
  int64_t first = 0;
  int64_t last = -1;  // inclusive; last < first means empty
};
ElementRange element_hull(const Region& region, const std::array<int64_t, kMaxRank>& strides);

// Reinterprets `region` of a row-major tensor `from` as a region of the row-major tensor
// `to` with the same element count (reshape): the smallest box of `to` that contains every
// element `region` covers. Exact for the regions tiles produce across flatten/squeeze.
Region reshape_region(const Region& region, const Shape& from, const Shape& to);

}  // namespace tessera::ops
