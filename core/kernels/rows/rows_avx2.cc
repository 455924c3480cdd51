// Row kernels on AVX2 + FMA (8 lanes): the generic template with VecAvx2 plugged in.
#include "core/kernels/rows/rows_impl.h"
#include "core/kernels/rows/rows_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_SOFTMAX_KERNEL(f32_softmax_avx2) { softmax_impl<VecAvx2>(rows, n, x, x_row_stride, y, y_row_stride); }

TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_avx2) {
  layer_norm_impl<VecAvx2>(rows, n, x, x_row_stride, scale, bias, epsilon, y, y_row_stride);
}

TESSERA_GROUP_NORM_KERNEL(f32_group_norm_avx2) {
  group_norm_impl<VecAvx2>(channels, spatial, x, scale, bias, epsilon, y);
}

}  // namespace tessera::kernels
