// Tile: the input repeated along each dimension (repeats known at specialisation), any dtype.
// Output index o reads input index o mod size, so a region reads one period or less.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

// The repeats are the ratio of the output shape to the input's.
struct TileAttrs {
  bool operator==(const TileAttrs&) const = default;
};

OpCost cost(const TileAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const TileAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const TileAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const TileAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const TileAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const TileAttrs&, const BindArgs&);

}  // namespace tessera::ops
