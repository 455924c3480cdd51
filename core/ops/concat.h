// Concat along one axis: each output tile copies the slices of the inputs it covers.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ConcatAttrs {
  int axis = 0;  // normalised
  bool operator==(const ConcatAttrs&) const = default;
};

OpCost cost(const ConcatAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ConcatAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ConcatAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ConcatAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ConcatAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ConcatAttrs&, const BindArgs&);

}  // namespace tessera::ops
