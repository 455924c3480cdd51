// MaxPool, AveragePool and GlobalAveragePool over NHWC row bands.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct PoolAttrs {
  enum class Kind { kMax, kAverage, kGlobalAverage };
  Kind kind = Kind::kMax;
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;
};

OpCost cost(const PoolAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const PoolAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const PoolAttrs&, const OpShapes&, const Layout& output_layout);
LayoutChoice choose_layout(const PoolAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const PoolAttrs&, const OpShapes&, std::span<const float* const> in, float* out);
Result<std::unique_ptr<TileKernel>> bind(const PoolAttrs&, const BindArgs&);

}  // namespace tessera::ops
