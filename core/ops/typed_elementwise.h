// Typed elementwise ops with numpy broadcasting over any dtype: integer arithmetic, Mod,
// variadic Min / Max / Sum / Mean, PRelu, comparisons, logic, Where and Cast. One kind, the
// function is a field; float32 Add / Sub / Mul / Div / Pow stay BinaryAttrs (SIMD kernels,
// epilogue fusion), so the fusion passes, which match BinaryAttrs, never see these.
#pragma once

#include "core/ops/node_parser.h"
#include "core/ops/op_contract.h"

namespace tessera::ops {

enum class ElementwiseOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMod,   // fmod = 0: the result takes the divisor's sign
  kFmod,  // fmod = 1: the result takes the dividend's sign
  kMin,   // Min, Max, Sum, Mean: 1..n inputs
  kMax,
  kSum,
  kMean,
  kPRelu,
  kEqual,
  kLess,
  kLessOrEqual,
  kGreater,
  kGreaterOrEqual,
  kNot,
  kAnd,
  kOr,
  kXor,
  kWhere,
  kCast,  // to the output dtype
};

struct ElementwiseAttrs {
  ElementwiseOp op = ElementwiseOp::kAdd;
  bool operator==(const ElementwiseAttrs&) const = default;
};

OpCost cost(const ElementwiseAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const ElementwiseAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const ElementwiseAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const ElementwiseAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const ElementwiseAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const ElementwiseAttrs&, const BindArgs&);

// The ONNX name of the op ("Mod" for both Mod kinds), for display.
const char* elementwise_op_name(ElementwiseOp op);

// The dtypes of Add / Sub / Mul / Div / Pow operands that are not both float32 (parse_binary
// hands those to this kind): one integer dtype, or for Pow a base and an exponent of any
// of float32 / int64 / int32.
Status expect_typed_arithmetic_dtypes(const NodeParser& p, ElementwiseOp op);

}  // namespace tessera::ops
