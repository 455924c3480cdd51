// Resize (nearest and multilinear, any rank): NHWC with channel-vector kernels when a 4-D
// tensor is resized along H and W only, row-major otherwise.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct ResizeAttrs {
  enum class Mode { kNearest, kLinear };
  enum class Coordinates { kHalfPixel, kHalfPixelSymmetric, kPytorchHalfPixel, kAlignCorners, kAsymmetric };
  enum class Nearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };
  Mode mode = Mode::kNearest;
  Coordinates coordinates = Coordinates::kHalfPixel;
  Nearest nearest = Nearest::kRoundPreferFloor;
  // Per input dimension, as the ONNX reference computes them: the scale, and the output
  // width scale * input size, fractional when it came from a `scales` input (float32 there).
  std::vector<double> scale;
  std::vector<double> output_width;

  bool resizes(int dim) const { return scale[dim] != 1.0; }
  // NHWC path: a 4-D tensor resized along H and W only.
  bool spatial_only() const { return scale.size() == 4 && !resizes(0) && !resizes(1); }
  bool operator==(const ResizeAttrs&) const = default;
};

OpCost cost(const ResizeAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ResizeAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ResizeAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ResizeAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ResizeAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ResizeAttrs&, const BindArgs&);

// Where output index x of dimension `dim` samples the input (the ONNX coordinate transform).
double resize_source_coordinate(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size, int64_t x);

// The input indices an output index reads and their weights: nearest reads i0 with weight 1;
// linear reads (1 - w1) * in[i0] + w1 * in[i1], with i1 == i0 when the sample hits a pixel.
struct ResizeTap {
  int64_t i0 = 0, i1 = 0;
  double w1 = 0;
};
ResizeTap resize_tap(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size, int64_t x);

}  // namespace tessera::ops
