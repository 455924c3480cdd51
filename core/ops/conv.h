// Conv (2-D, groups incl. depthwise, strides, pads, auto_pad, dilations) with a fused
// epilogue; runs as an indirect GEMM over a tile's rows, or as a direct depthwise kernel.
#pragma once

#include "core/kernels/winograd/winograd.h"
#include "core/ops/op_contract.h"
#include "core/ops/spatial.h"

namespace tessera::ops {

// How a convolution computes: the direct (indirect) GEMM, Winograd F(2x2, 3x3) or F(4x4, 3x3).
// In the order of the weights they allow (winograd_allowed): each allows the ones before it.
enum class ConvAlgorithm { kGemm, kWinogradF2, kWinogradF4 };

struct ConvAttrs : Window {
  int64_t group = 1;
  bool has_bias = false;  // input 2
  // A per-output-channel scale the weights are multiplied by where they are used (a folded
  // batch norm's, ConvWeights), or -1.
  int weight_scale_input = -1;
  Epilogue epilogue;
  // The op's own choice (parse_conv); the cost model or a saved plan may set another
  // (docs/planning.md, "Algorithms").
  ConvAlgorithm algorithm = ConvAlgorithm::kGemm;
  bool operator==(const ConvAttrs&) const = default;
};

// Up to this many input channels per group, the GEMM reads each output pixel's inputs per
// kernel row (every tap's channels side by side: a 3-channel stem's 9 or 21 values, where
// they lie in the NHWC image, gathered only in the padding) instead of through a pointer
// per tap.
inline constexpr int64_t kGatherRowChannels = 8;
bool gathers_rows(const ConvAttrs&, const OpShapes&);

// Bytes between two of the direct GEMM's A rows: adjacent output pixels' inputs. Rows a
// multiple of 4 KiB apart run a kernel of fewer rows (gemm.h).
int64_t igemm_row_bytes(const ConvAttrs&, const OpShapes&);

// 3x3 stride-1 convolutions of enough channels may run by Winograd (conv_winograd.cc):
// F(4x4, 3x3) does 2.25 multiplies per output and channel pair instead of 9, for weights 4x
// larger once transformed; F(2x2, 3x3) 4 for weights 1.8x larger. Either only where the
// weights it adds stay within kWinogradAddedWeightsPerOutput times the output ((points - 9) x
// input channels against the pixels, per output channel): the weights of small images of many
// channels would grow most (docs/benchmarks.md: F(4x4) on 14 x 14 x 256 measured 1.0-1.2x
// faster for 7 MB more per layer, VGG-16's 28 x 28 x 512 2.2x for 28 MB more). So F(4x4) runs
// VGG-16's 56 x 56 x 256 layers, F(2x2) its 28 x 28 x 512 ones, neither ResNet-50's 14 x 14 x
// 256. The convolution's own choice is the allowed tile of fewer multiplies.
inline constexpr int64_t kWinogradMinChannels = 16;
inline constexpr int64_t kWinogradAddedWeightsPerOutput = 6;
bool winograd_allowed(const ConvAttrs&, const OpShapes&, ConvAlgorithm winograd);

// The Winograd tile a Winograd algorithm computes with (kWinogradF2 or kWinogradF4).
kernels::WinogradTile winograd_tile(ConvAlgorithm winograd);

// The algorithms a node may run by (ops.h: op_algorithm_count): ConvAlgorithm's values up to
// the last one allowed.
int algorithm_count(const ConvAttrs&, const OpShapes&);
ConvAttrs with_algorithm(ConvAttrs a, int algorithm);
int algorithm_of(const ConvAttrs& a);
const char* algorithm_name(const ConvAttrs& a);

OpCost cost(const ConvAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ConvAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ConvAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ConvAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ConvAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ConvAttrs&, const BindArgs&);

}  // namespace tessera::ops
