// Elementwise binary ops on float32 with numpy broadcasting (Add, Sub, Mul, Div, Pow). Other
// dtypes parse to ElementwiseAttrs (typed_elementwise.h): a BinaryAttrs is always float32,
// which the fusion passes that match it rely on.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct BinaryAttrs {
  kernels::BinaryOp op = kernels::BinaryOp::kAdd;
  Epilogue epilogue;  // a following activation may fuse in
  bool operator==(const BinaryAttrs&) const = default;
};

OpCost cost(const BinaryAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const BinaryAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const BinaryAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const BinaryAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const BinaryAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const BinaryAttrs&, const BindArgs&);

// The output region an input of `input_shape` reads for output region `out`, under numpy
// broadcasting (dims of size 1 read index 0; missing leading dims are dropped).
Region broadcast_footprint(const Shape& input_shape, const Shape& output_shape, const Region& out);

// Strides of `input` (logical strides `input_strides`) seen from the dimensions of the
// broadcast `output`: 0 where the input broadcasts.
std::array<int64_t, kMaxRank> broadcast_strides(const Shape& input, const std::array<int64_t, kMaxRank>& input_strides,
                                                const Shape& output);

// `data` of shape `from` broadcast (numpy rules) to `to`, row-major.
std::vector<float> broadcast_to(const float* data, const Shape& from, const Shape& to);

// numpy broadcast of two shapes, or false when they are incompatible.
bool broadcast_shapes(const Shape& a, const Shape& b, Shape* out);

}  // namespace tessera::ops
