// LayerNormalization over the trailing dimensions from `axis` on.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct LayerNormAttrs {
  int axis = -1;  // normalised
  float epsilon = 1e-5f;
  bool operator==(const LayerNormAttrs&) const = default;
};

OpCost cost(const LayerNormAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const LayerNormAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const LayerNormAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const LayerNormAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const LayerNormAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const LayerNormAttrs&, const BindArgs&);

}  // namespace tessera::ops
