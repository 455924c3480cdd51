// Slice (and Split, lowered at graph build to one Slice per output): a strided copy whose
// footprint is the hull of the source indices.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

// Output index o along dimension d reads input index start[d] + o * step[d].
struct SliceAttrs {
  std::vector<int64_t> start;
  std::vector<int64_t> step;
  bool operator==(const SliceAttrs&) const = default;
};

OpCost cost(const SliceAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const SliceAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const SliceAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const SliceAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const SliceAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const SliceAttrs&, const BindArgs&);

}  // namespace tessera::ops
