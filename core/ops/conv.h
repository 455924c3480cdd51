// Conv (2-D, groups incl. depthwise, strides, pads, auto_pad, dilations) with a fused
// epilogue; runs as an indirect GEMM over a tile's rows, or as a direct depthwise kernel.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ConvAttrs {
  int64_t group = 1;
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool has_bias = false;  // input 2
  Epilogue epilogue;
};

OpCost cost(const ConvAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ConvAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ConvAttrs&, const OpShapes&, const Layout& output_layout);
LayoutChoice choose_layout(const ConvAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ConvAttrs&, const OpShapes&, std::span<const float* const> in, float* out);
Result<std::unique_ptr<TileKernel>> bind(const ConvAttrs&, const BindArgs&);

}  // namespace tessera::ops
