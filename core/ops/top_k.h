// TopK: the k largest (or smallest) values along an axis and their int64 indices, k known at
// specialisation. Two outputs, so two ops (values, indices), each computing whole rows.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct TopKAttrs {
  int axis = -1;  // normalised
  int64_t k = 1;
  bool largest = true;
  bool indices = false;  // this op's output: the values (false) or the indices (true)
  bool operator==(const TopKAttrs&) const = default;
};

OpCost cost(const TopKAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const TopKAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const TopKAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const TopKAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const TopKAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const TopKAttrs&, const BindArgs&);

}  // namespace tessera::ops
