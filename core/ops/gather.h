// Gather along one axis, data of any dtype. Constant indices (any shape) give a precise
// footprint: the hull of the indices an output region uses. Run-time indices (embedding
// lookups: Gather(table, input_ids)) are read by the kernel, so a region may read any row.
#pragma once

#include <memory>

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct GatherAttrs {
  int axis = 0;
  Shape indices_shape;  // a scalar index drops the axis (rank 0 output from a 1-D tensor)
  // Constant indices, row-major, normalised to [0, size); null when the indices are a
  // run-time input (int64 or int32, read and brought into range by the kernel).
  std::shared_ptr<const std::vector<int64_t>> indices;
  bool operator==(const GatherAttrs&) const = default;
};

OpCost cost(const GatherAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const GatherAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const GatherAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const GatherAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const GatherAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const GatherAttrs&, const BindArgs&);

}  // namespace tessera::ops
