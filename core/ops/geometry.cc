// Shape, layout and region arithmetic.
#include "core/ops/geometry.h"

#include <algorithm>

namespace tessera::ops {

int64_t element_count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Layout Layout::identity(int rank) {
  Layout layout;
  for (int i = 0; i < rank; ++i) layout.perm.push_back(i);
  return layout;
}

Layout Layout::nhwc() { return Layout{{0, 2, 3, 1}}; }

bool Layout::is_identity() const {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int>(i)) return false;
  }
  return true;
}

std::string Layout::name() const {
  if (is_identity()) return "identity";
  if (*this == nhwc()) return "NHWC";
  std::string s = "perm(";
  for (size_t i = 0; i < perm.size(); ++i) s += (i ? "," : "") + std::to_string(perm[i]);
  return s + ")";
}

std::array<int64_t, kMaxRank> logical_strides(const Shape& shape, const Layout& layout) {
  TESSERA_CHECK(layout.perm.size() == shape.size());
  std::array<int64_t, kMaxRank> strides{};
  int64_t stride = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    strides[layout.perm[i]] = stride;
    stride *= shape[layout.perm[i]];
  }
  return strides;
}

std::vector<int> memory_order(const Shape& shape, const Layout& layout, const std::vector<int>& source) {
  std::vector<int> order;
  for (int d : layout.perm) {
    if (shape[d] != 1) order.push_back(source[d]);
  }
  return order;
}

Region Region::whole(const Shape& shape) {
  TESSERA_CHECK(shape.size() <= kMaxRank);
  Region r;
  r.rank = static_cast<int>(shape.size());
  for (int d = 0; d < r.rank; ++d) r.end[d] = shape[d];
  return r;
}

int64_t Region::element_count() const {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= std::max<int64_t>(0, extent(d));
  return n;
}

bool Region::empty() const {
  for (int d = 0; d < rank; ++d) {
    if (end[d] <= begin[d]) return true;
  }
  return false;
}

bool Region::operator==(const Region& other) const {
  if (rank != other.rank) return false;
  for (int d = 0; d < rank; ++d) {
    if (begin[d] != other.begin[d] || end[d] != other.end[d]) return false;
  }
  return true;
}

ElementRange element_hull(const Region& region, const std::array<int64_t, kMaxRank>& strides) {
  if (region.empty()) return {};
  int64_t first = 0, last = 0;
  for (int d = 0; d < region.rank; ++d) {
    first += region.begin[d] * strides[d];
    last += (region.end[d] - 1) * strides[d];
  }
  return {first, last};
}

Region reshape_region(const Region& region, const Shape& from, const Shape& to) {
  TESSERA_CHECK(element_count(from) == element_count(to));
  const Layout from_layout = Layout::identity(static_cast<int>(from.size()));
  const ElementRange hull = element_hull(region, logical_strides(from, from_layout));
  Region out = Region::whole(to);
  if (hull.last < hull.first) {
    out.end = out.begin;
    return out;
  }
  // Unravel the first and last offsets: dimensions before the first that differs are fixed,
  // that one spans [first, last], the rest stay whole.
  const int rank = static_cast<int>(to.size());
  std::array<int64_t, kMaxRank> first{}, last{};
  int64_t a = hull.first, b = hull.last;
  for (int d = rank - 1; d >= 0; --d) {
    first[d] = a % to[d];
    last[d] = b % to[d];
    a /= to[d];
    b /= to[d];
  }
  for (int d = 0; d < rank; ++d) {
    out.begin[d] = first[d];
    out.end[d] = last[d] + 1;
    if (first[d] != last[d]) break;
  }
  return out;
}

}  // namespace tessera::ops
