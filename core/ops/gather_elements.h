// GatherElements: out[i][j][k] = data[i][indices[i][j][k]][k] (axis 1), indices int64 or
// int32 of the output's shape, constant or run-time; data of any dtype.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct GatherElementsAttrs {
  int axis = 0;  // normalised
  bool operator==(const GatherElementsAttrs&) const = default;
};

OpCost cost(const GatherElementsAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const GatherElementsAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const GatherElementsAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const GatherElementsAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const GatherElementsAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const GatherElementsAttrs&, const BindArgs&);

}  // namespace tessera::ops
