// BatchNormalization (inference). The graph never runs it as such: it is folded into the
// preceding Conv, or lowered to a per-channel Mul and Add.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct BatchNormAttrs {
  float epsilon = 1e-5f;
  bool operator==(const BatchNormAttrs&) const = default;
};

OpCost cost(const BatchNormAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const BatchNormAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const BatchNormAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const BatchNormAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const BatchNormAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const BatchNormAttrs&, const BindArgs&);

// Per-channel scale and shift equivalent to the node: y = x * scale[c] + shift[c].
void batch_norm_affine(const BatchNormAttrs&, int64_t channels, const float* gamma, const float* beta,
                       const float* mean, const float* var, float* scale, float* shift);

}  // namespace tessera::ops
