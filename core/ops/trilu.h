// Trilu: keeps the upper or lower triangle (shifted by k) of the last two dimensions and
// zeroes the rest; any dtype.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct TriluAttrs {
  bool upper = true;
  int64_t k = 0;  // diagonal offset: element (i, j) is kept when j - i >= k (upper) or <= k (lower)
  bool operator==(const TriluAttrs&) const = default;
};

OpCost cost(const TriluAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const TriluAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const TriluAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const TriluAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const TriluAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const TriluAttrs&, const BindArgs&);

}  // namespace tessera::ops
