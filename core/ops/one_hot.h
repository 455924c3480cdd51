// OneHot: indices (any numeric type; depth known at specialisation) to a tensor with a new
// axis of size depth holding values[1] at the index and values[0] elsewhere (any dtype).
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct OneHotAttrs {
  int axis = -1;  // normalised: the new dimension's position in the output
  int64_t depth = 1;
  bool operator==(const OneHotAttrs&) const = default;
};

OpCost cost(const OneHotAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const OneHotAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const OneHotAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const OneHotAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const OneHotAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const OneHotAttrs&, const BindArgs&);

}  // namespace tessera::ops
