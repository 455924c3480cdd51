// NonZero: the int64 coordinates of the non-zero elements, [rank, count]. Its output size
// depends on the data, so Tessera runs it only on inputs known at specialisation: the graph
// builder evaluates it with reference() and no tile ever runs.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct NonZeroAttrs {
  bool operator==(const NonZeroAttrs&) const = default;
};

OpCost cost(const NonZeroAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const NonZeroAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const NonZeroAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const NonZeroAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const NonZeroAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const NonZeroAttrs&, const BindArgs&);

}  // namespace tessera::ops
