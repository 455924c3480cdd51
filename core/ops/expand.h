// Expand: numpy broadcast of the input to a constant target shape, as a strided copy.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ExpandAttrs {
  bool operator==(const ExpandAttrs&) const = default;
};

OpCost cost(const ExpandAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ExpandAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ExpandAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ExpandAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ExpandAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ExpandAttrs&, const BindArgs&);

}  // namespace tessera::ops
