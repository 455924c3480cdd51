// DepthToSpace and SpaceToDepth: moving blocksize x blocksize pixel blocks between the channel
// and the spatial dimensions of an NCHW tensor; any dtype.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct SpaceDepthAttrs {
  bool to_space = true;  // DepthToSpace; false: SpaceToDepth
  int64_t block = 1;
  bool crd = false;  // DepthToSpace mode CRD (channel, row, column); else DCR (depth, column, row)
  bool operator==(const SpaceDepthAttrs&) const = default;
};

OpCost cost(const SpaceDepthAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const SpaceDepthAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const SpaceDepthAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const SpaceDepthAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const SpaceDepthAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const SpaceDepthAttrs&, const BindArgs&);

}  // namespace tessera::ops
