// Elementwise unary ops (Relu, Sigmoid, Clip, Gelu, Exp, Log, Round, Mish, ...): one kind, the
// function is a field. Float32, except Neg, Abs and Sign, which also take int64 and int32.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct UnaryAttrs {
  kernels::UnaryOp op = kernels::UnaryOp::kCopy;
  kernels::UnaryParams params;
  bool operator==(const UnaryAttrs&) const = default;
};

OpCost cost(const UnaryAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const UnaryAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const UnaryAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const UnaryAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const UnaryAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const UnaryAttrs&, const BindArgs&);

// The ONNX name of a unary function, for display.
const char* unary_op_name(kernels::UnaryOp op);

}  // namespace tessera::ops
