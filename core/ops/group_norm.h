// InstanceNormalization and GroupNormalization: one op kind, normalising each (batch item,
// channel group) over the group's channels and whole spatial extent (InstanceNormalization is
// the case of one channel per group), then a per-channel scale and bias.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct GroupNormAttrs {
  int64_t groups = 1;  // channels are split into this many equal groups
  float epsilon = 1e-5f;
  bool operator==(const GroupNormAttrs&) const = default;
};

OpCost cost(const GroupNormAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const GroupNormAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const GroupNormAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const GroupNormAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const GroupNormAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const GroupNormAttrs&, const BindArgs&);

}  // namespace tessera::ops
