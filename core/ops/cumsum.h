// CumSum: running sums along one axis (exclusive and/or reversed); float32, int64, int32.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct CumSumAttrs {
  int axis = 0;  // normalised
  bool exclusive = false;
  bool reverse = false;
  bool operator==(const CumSumAttrs&) const = default;
};

OpCost cost(const CumSumAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const CumSumAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const CumSumAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const CumSumAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const CumSumAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const CumSumAttrs&, const BindArgs&);

}  // namespace tessera::ops
