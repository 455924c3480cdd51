// Row kernels on scalar code (the portable fallback): the generic template with VecScalar plugged in.
#include "core/kernels/rows/rows_impl.h"
#include "core/kernels/rows/rows_ukernels.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

TESSERA_SOFTMAX_KERNEL(f32_softmax_scalar) { softmax_impl<VecScalar>(rows, n, x, x_row_stride, y, y_row_stride); }

TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_scalar) {
  layer_norm_impl<VecScalar>(rows, n, x, x_row_stride, scale, bias, epsilon, y, y_row_stride);
}

TESSERA_GROUP_NORM_KERNEL(f32_group_norm_scalar) {
  group_norm_impl<VecScalar>(channels, spatial, x, scale, bias, epsilon, y);
}

}  // namespace tessera::kernels
