// ConvTranspose (2-D, groups, strides, pads / auto_pad / output_shape, dilations,
// output_padding): NHWC, run per output phase as an indirect GEMM over the taps of that phase,
// or, for a few outputs from non-overlapping windows, per input pixel.
#pragma once

#include "core/ops/op_contract.h"
#include "core/ops/spatial.h"

namespace tessera::ops {

// Window's pads are the ONNX pads of the output (what is cropped from the full transposed
// convolution); output_padding and output_shape only show in the output size.
struct ConvTransposeAttrs : Window {
  int64_t group = 1;
  bool has_bias = false;  // input 2
  // A per-output-channel scale the weights are multiplied by where they are used (a folded
  // batch norm's, ConvWeights), or -1.
  int weight_scale_input = -1;
  Epilogue epilogue;
  bool operator==(const ConvTransposeAttrs&) const = default;
};

OpCost cost(const ConvTransposeAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ConvTransposeAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ConvTransposeAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ConvTransposeAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ConvTransposeAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ConvTransposeAttrs&, const BindArgs&);

// A kernel as large as its stride (every output from one input pixel and one tap, as in a
// detection head's upsampling), one group, no residual, every output reached and every input
// reaching one, and fewer than 32 output channels: then one GEMM per input row, with every
// tap's outputs as columns (kernel_h x kernel_w x channels), fills the panels a GEMM per
// output phase (channels columns) would leave mostly empty.
bool runs_per_input_pixel(const ConvTransposeAttrs& a, const OpShapes& s);

// Input indices [begin, end) that contribute to outputs [out_begin, out_end) along one axis
// (output o = i * stride - pad + k * dilation): exact, and empty when none does.
std::pair<int64_t, int64_t> transposed_input_range(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                                   int64_t kernel, int64_t dilation, int64_t input_size);

// Floor division and its non-negative remainder (b > 0), for output phases.
inline int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

}  // namespace tessera::ops
