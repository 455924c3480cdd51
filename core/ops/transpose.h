// Transpose, and the compiler's own Relayout (same logical tensor, another memory order):
// both are one permuted copy between two strided tensors.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct TransposeAttrs {
  std::vector<int> perm;                // output dim d reads input dim perm[d]; identity for a Relayout
  std::optional<Layout> output_layout;  // set for a Relayout: the memory order it produces
  bool operator==(const TransposeAttrs&) const = default;
};

OpCost cost(const TransposeAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const TransposeAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const TransposeAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const TransposeAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const TransposeAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const TransposeAttrs&, const BindArgs&);

}  // namespace tessera::ops
