// Pure views (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Cast to the same dtype): the
// output is the input's bytes under another shape, so the compiler aliases them and no tile
// ever runs.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ViewAttrs {
  bool operator==(const ViewAttrs&) const = default;
};

OpCost cost(const ViewAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ViewAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ViewAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ViewAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ViewAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ViewAttrs&, const BindArgs&);

}  // namespace tessera::ops
