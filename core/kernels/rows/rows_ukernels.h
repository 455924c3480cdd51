// The per-ISA row kernels (rows_<isa>.cc); only rows.cc's list names them.
#pragma once

#include <cstddef>

namespace tessera::kernels {

#define TESSERA_SOFTMAX_KERNEL(name) \
  void name(size_t rows, size_t n, const float* x, size_t x_row_stride, float* y, size_t y_row_stride)
#define TESSERA_LAYER_NORM_KERNEL(name)                                                                        \
  void name(size_t rows, size_t n, const float* x, size_t x_row_stride, const float* scale, const float* bias, \
            float epsilon, float* y, size_t y_row_stride)
#define TESSERA_GROUP_NORM_KERNEL(name)                                                                            \
  void name(size_t channels, size_t spatial, const float* x, const float* scale, const float* bias, float epsilon, \
            float* y)

TESSERA_SOFTMAX_KERNEL(f32_softmax_avx512);
TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_avx512);
TESSERA_GROUP_NORM_KERNEL(f32_group_norm_avx512);

TESSERA_SOFTMAX_KERNEL(f32_softmax_avx2);
TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_avx2);
TESSERA_GROUP_NORM_KERNEL(f32_group_norm_avx2);

TESSERA_SOFTMAX_KERNEL(f32_softmax_scalar);
TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_scalar);
TESSERA_GROUP_NORM_KERNEL(f32_group_norm_scalar);

TESSERA_SOFTMAX_KERNEL(f32_softmax_wasm128);
TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_wasm128);
TESSERA_GROUP_NORM_KERNEL(f32_group_norm_wasm128);

}  // namespace tessera::kernels
