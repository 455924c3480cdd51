// Fused epilogues: description for inspect and the activation applied after a store.
#include "core/ops/epilogue.h"

#include <algorithm>
#include <cstdio>

#include "core/ops/unary.h"

namespace tessera::ops {

bool Epilogue::has_clamp() const { return clamp.min != kernels::MinMax().min || clamp.max != kernels::MinMax().max; }

std::string Epilogue::describe() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (residual_input >= 0) add("+residual");
  if (has_clamp()) {
    char text[64];
    std::snprintf(text, sizeof(text), "clamp[%g,%g]", clamp.min, clamp.max);
    add(text);
  }
  if (has_activation()) add(unary_op_name(activation));
  if (has_affine()) {
    char text[64];
    std::snprintf(text, sizeof(text), "*%g%+g", scale, shift);
    add(text);
  }
  return s;
}

void apply_epilogue_tail(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t n) {
  if (e.has_activation()) k.unary(e.activation, e.activation_params, n, y, y);
  if (e.scale != 1.0f) k.binary(kernels::BinaryOp::kMul, n, y, 1, &e.scale, 0, y);
  if (e.shift != 0.0f) k.binary(kernels::BinaryOp::kAdd, n, y, 1, &e.shift, 0, y);
}

void apply_epilogue_tail_rows(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t rows,
                              int64_t cols, int64_t stride, float* scratch) {
  if (cols == stride) return apply_epilogue_tail(k, e, y, rows * cols);
  const int64_t per_call = scratch != nullptr ? kTailScratchFloats / cols : 0;
  if (per_call < 4) {  // runs of a quarter of the scratch or more: a call each
    for (int64_t i = 0; i < rows; ++i) apply_epilogue_tail(k, e, y + i * stride, cols);
    return;
  }
  for (int64_t first = 0; first < rows; first += per_call) {
    const int64_t count = std::min(per_call, rows - first);
    float* block = y + first * stride;
    for (int64_t i = 0; i < count; ++i) std::copy_n(block + i * stride, cols, scratch + i * cols);
    apply_epilogue_tail(k, e, scratch, count * cols);
    for (int64_t i = 0; i < count; ++i) std::copy_n(scratch + i * cols, cols, block + i * stride);
  }
}

void apply_epilogue_activation(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t n) {
  if (e.has_clamp()) k.unary(kernels::UnaryOp::kClip, {e.clamp.min, e.clamp.max}, n, y, y);
  apply_epilogue_tail(k, e, y, n);
}

float reference_epilogue_activation(const Epilogue& e, float y) {
  if (e.has_clamp()) y = kernels::unary_reference(kernels::UnaryOp::kClip, {e.clamp.min, e.clamp.max}, y);
  if (e.has_activation()) y = kernels::unary_reference(e.activation, e.activation_params, y);
  if (e.scale != 1.0f) y = kernels::binary_reference(kernels::BinaryOp::kMul, y, e.scale);
  if (e.shift != 0.0f) y = kernels::binary_reference(kernels::BinaryOp::kAdd, y, e.shift);
  return y;
}

}  // namespace tessera::ops
