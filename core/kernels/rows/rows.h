// Row kernels (softmax and layer normalisation over the last axis, group normalisation): the dispatch list, one
// entry per ISA, and the scalar references they are tested against. Kernels are stateless and
// thread-safe; they never allocate and never fail.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"

namespace tessera::kernels {

// Each row is n contiguous floats; rows start x_row_stride (y_row_stride) floats apart. y may
// equal x (same strides); other overlaps are not allowed. A row's result depends only on its
// contents, n and the entry (ISA): not on the number of rows or on how calls split them.

// y = exp(x - max) / sum of exp(x - max). -inf entries give 0; a row whose entries are all
// -inf, or that holds +inf or NaN, gives NaN everywhere (as onnxruntime computes it).
using SoftmaxFn = void (*)(size_t rows, size_t n, const float* x, size_t x_row_stride, float* y, size_t y_row_stride);

// y = (x - mean) / sqrt(var + epsilon) * scale + bias with the population variance (two
// passes over the row); scale has n floats, bias has n floats or is null (no bias).
using LayerNormFn = void (*)(size_t rows, size_t n, const float* x, size_t x_row_stride, const float* scale,
                             const float* bias, float epsilon, float* y, size_t y_row_stride);

// One group of GroupNormalization / InstanceNormalization: channels * spatial contiguous floats
// normalised together like a layer-norm row (same statistics), then channel c's spatial run
// scaled by scale[c] and shifted by bias[c] (bias may be null).
using GroupNormFn = void (*)(size_t channels, size_t spatial, const float* x, const float* scale, const float* bias,
                             float epsilon, float* y);

struct RowKernels {
  const char* name;  // e.g. "f32_rows_avx512"
  Isa isa;
  SoftmaxFn softmax;
  LayerNormFn layer_norm;
  GroupNormFn group_norm;
};

// Every compiled entry, best first (entries whose ISA this CPU lacks are included).
std::span<const RowKernels> row_kernels();
// The first entry whose ISA is supported and not above max_isa (the scalar entry at worst).
const RowKernels& best_row_kernels(Isa max_isa);

// Plain loops in double precision.
void softmax_reference(size_t rows, size_t n, const float* x, size_t x_row_stride, float* y, size_t y_row_stride);
void layer_norm_reference(size_t rows, size_t n, const float* x, size_t x_row_stride, const float* scale,
                          const float* bias, float epsilon, float* y, size_t y_row_stride);
void group_norm_reference(size_t channels, size_t spatial, const float* x, const float* scale, const float* bias,
                          float epsilon, float* y);

}  // namespace tessera::kernels
