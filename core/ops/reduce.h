// The Reduce family (Mean, Sum, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare) over a
// set of axes (keepdims or not).
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ReduceAttrs {
  // kInvStdDev is internal: LayerNormalization's optional output 1 / sqrt(variance + epsilon).
  enum class Kind { kMean, kSum, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare, kInvStdDev };
  Kind kind = Kind::kMean;
  float epsilon = 0;          // kInvStdDev only
  std::vector<bool> reduced;  // per input dimension
  bool keepdims = true;
  bool operator==(const ReduceAttrs&) const = default;
};

OpCost cost(const ReduceAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ReduceAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ReduceAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ReduceAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ReduceAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ReduceAttrs&, const BindArgs&);

}  // namespace tessera::ops
