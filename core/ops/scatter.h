// ScatterND and ScatterElements (and opset-9 Scatter): the data with updates written (or
// combined: add, mul, max, min) at indexed places, any dtype. A tile owns an output region:
// it copies the data there and applies, in index order, every update that lands in it, so
// duplicate indices end as ONNX's sequential order says (the last write wins) on any tiling.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

struct ScatterNDAttrs {
  ScatterReduction reduction = ScatterReduction::kNone;
  bool operator==(const ScatterNDAttrs&) const = default;
};

struct ScatterElementsAttrs {
  int axis = 0;  // normalised
  ScatterReduction reduction = ScatterReduction::kNone;
  bool operator==(const ScatterElementsAttrs&) const = default;
};

OpCost cost(const ScatterNDAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ScatterNDAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ScatterNDAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ScatterNDAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ScatterNDAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ScatterNDAttrs&, const BindArgs&);

OpCost cost(const ScatterElementsAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ScatterElementsAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ScatterElementsAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ScatterElementsAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ScatterElementsAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ScatterElementsAttrs&, const BindArgs&);

}  // namespace tessera::ops
