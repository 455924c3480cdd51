// MaxPool, AveragePool and GlobalAveragePool over NHWC row bands.
#pragma once

#include "core/ops/op_contract.h"
#include "core/ops/spatial.h"

namespace tessera::ops {

struct PoolAttrs : Window {
  enum class Kind { kMax, kAverage, kGlobalAverage };
  Kind kind = Kind::kMax;
  bool count_include_pad = false;
  bool operator==(const PoolAttrs&) const = default;
};

OpCost cost(const PoolAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const PoolAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const PoolAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const PoolAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const PoolAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const PoolAttrs&, const BindArgs&);

}  // namespace tessera::ops
