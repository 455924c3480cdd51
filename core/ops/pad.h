// Pad (constant, reflect, edge; negative pads crop): a copy whose footprint is the hull of
// the source indices, with reflect and edge mapping outside indices back inside.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct PadAttrs {
  enum class Mode { kConstant, kReflect, kEdge };
  Mode mode = Mode::kConstant;
  std::vector<int64_t> begin;  // per dimension: output index o reads input index o - begin
  float value = 0;             // constant mode
  bool operator==(const PadAttrs&) const = default;
};

OpCost cost(const PadAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const PadAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const PadAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const PadAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const PadAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const PadAttrs&, const BindArgs&);

// The input index output index `o` reads along a dimension of input size `size` with
// `begin` padding, or -1 where it reads the constant.
int64_t pad_source_index(PadAttrs::Mode mode, int64_t o, int64_t begin, int64_t size);

}  // namespace tessera::ops
