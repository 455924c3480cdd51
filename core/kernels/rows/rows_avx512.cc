// Row kernels on AVX-512 (16 lanes): the generic template with VecAvx512 plugged in.
#include "core/kernels/rows/rows_impl.h"
#include "core/kernels/rows/rows_ukernels.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

TESSERA_SOFTMAX_KERNEL(f32_softmax_avx512) { softmax_impl<VecAvx512>(rows, n, x, x_row_stride, y, y_row_stride); }

TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_avx512) {
  layer_norm_impl<VecAvx512>(rows, n, x, x_row_stride, scale, bias, epsilon, y, y_row_stride);
}

TESSERA_GROUP_NORM_KERNEL(f32_group_norm_avx512) {
  group_norm_impl<VecAvx512>(channels, spatial, x, scale, bias, epsilon, y);
}

}  // namespace tessera::kernels
