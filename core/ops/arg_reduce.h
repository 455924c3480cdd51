// ArgMax and ArgMin: the int64 index of the largest (smallest) value along one axis of
// float32, int64 or int32 data; ties go to the first index, or the last with select_last_index.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ArgReduceAttrs {
  bool max = true;  // ArgMax; false: ArgMin
  int axis = 0;     // normalised
  bool keepdims = true;
  bool select_last_index = false;
  bool operator==(const ArgReduceAttrs&) const = default;
};

OpCost cost(const ArgReduceAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ArgReduceAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ArgReduceAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ArgReduceAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ArgReduceAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ArgReduceAttrs&, const BindArgs&);

}  // namespace tessera::ops
