// Softmax along one axis (opset 13 semantics).
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct SoftmaxAttrs {
  int axis = -1;  // normalised
  bool operator==(const SoftmaxAttrs&) const = default;
};

OpCost cost(const SoftmaxAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const SoftmaxAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const SoftmaxAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const SoftmaxAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const SoftmaxAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const SoftmaxAttrs&, const BindArgs&);

}  // namespace tessera::ops
