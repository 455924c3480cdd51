// MatMul (numpy-batched) and Gemm (2-D with transposes, alpha, beta and C) as one kind:
// a batched GEMM over packed B panels with a fused epilogue.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

struct MatMulAttrs {
  bool trans_a = false;
  bool trans_b = false;
  float alpha = 1.0f;
  // Node input holding a constant broadcast along rows (Gemm's C of shape [], [N] or [1, N],
  // or the constant of a fused Add), added times `bias_scale` to every row; or -1.
  int bias_input = -1;
  float bias_scale = 1.0f;
  // A Gemm C of any other shape is the epilogue's residual, broadcast to the output and
  // scaled by beta (run-time C only unscaled and full-size).
  float residual_scale = 1.0f;
  Epilogue epilogue;
  bool operator==(const MatMulAttrs&) const = default;
};

OpCost cost(const MatMulAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const MatMulAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const MatMulAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const MatMulAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const MatMulAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const MatMulAttrs&, const BindArgs&);

// Matrix dimensions of a (batched) product, derived from the shapes.
struct MatMulDims {
  int64_t m = 1, n = 1, k = 1;
  Shape batch;                 // output batch dimensions
  bool a_is_vector = false;    // 1-D A: the output has no M dimension
  bool b_is_vector = false;    // 1-D B: the output has no N dimension
  int m_dim = -1, n_dim = -1;  // output dimensions holding M and N, or -1
  // Bytes between A's rows (or their transposed copies), which choose the GEMM kernel's rows.
  int64_t a_row_bytes() const { return static_cast<int64_t>(sizeof(float)) * k; }
};
MatMulDims matmul_dims(const MatMulAttrs&, const OpShapes&);

}  // namespace tessera::ops
