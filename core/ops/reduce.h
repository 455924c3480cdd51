// ReduceMean over a set of axes (keepdims or not).
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ReduceAttrs {
  enum class Kind { kMean };
  Kind kind = Kind::kMean;
  std::vector<bool> reduced;  // per input dimension
  bool keepdims = true;
};

OpCost cost(const ReduceAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ReduceAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ReduceAttrs&, const OpShapes&, const Layout& output_layout);
LayoutChoice choose_layout(const ReduceAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ReduceAttrs&, const OpShapes&, std::span<const float* const> in, float* out);
Result<std::unique_ptr<TileKernel>> bind(const ReduceAttrs&, const BindArgs&);

}  // namespace tessera::ops
