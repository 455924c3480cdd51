// Ops whose outputs follow from shapes and constants alone: Shape and Size (their values are
// known while parsing), Range and ConstantOfShape (their inputs must be known when the model
// is specialised, so the graph builder always evaluates them by their reference kernel).
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct RangeAttrs {
  bool operator==(const RangeAttrs&) const = default;
};

struct ConstantOfShapeAttrs {
  Tensor value;  // one element, of the output's dtype
  bool operator==(const ConstantOfShapeAttrs&) const = default;
};

OpCost cost(const RangeAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const RangeAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const RangeAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const RangeAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const RangeAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const RangeAttrs&, const BindArgs&);

OpCost cost(const ConstantOfShapeAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ConstantOfShapeAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ConstantOfShapeAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ConstantOfShapeAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ConstantOfShapeAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ConstantOfShapeAttrs&, const BindArgs&);

}  // namespace tessera::ops
