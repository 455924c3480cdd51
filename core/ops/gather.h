// Gather along one axis with constant indices (any shape): a copy whose footprint along the
// axis is the hull of the indices the output region uses.
#pragma once

#include <memory>

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct GatherAttrs {
  int axis = 0;
  Shape indices_shape;  // [1] for a scalar index into a 1-D tensor (the scalar output is kept as [1])
  std::shared_ptr<const std::vector<int64_t>> indices;  // row-major, normalised to [0, size)
};

OpCost cost(const GatherAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const GatherAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const GatherAttrs&, const OpShapes&, const Layout& output_layout);
LayoutChoice choose_layout(const GatherAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const GatherAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const GatherAttrs&, const BindArgs&);

}  // namespace tessera::ops
