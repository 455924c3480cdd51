// Row kernels on WebAssembly SIMD128 (4 lanes): the generic template with VecWasm128 plugged in.
#include "core/kernels/rows/rows_impl.h"
#include "core/kernels/rows/rows_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_SOFTMAX_KERNEL(f32_softmax_wasm128) { softmax_impl<VecWasm128>(rows, n, x, x_row_stride, y, y_row_stride); }

TESSERA_LAYER_NORM_KERNEL(f32_layer_norm_wasm128) {
  layer_norm_impl<VecWasm128>(rows, n, x, x_row_stride, scale, bias, epsilon, y, y_row_stride);
}

TESSERA_GROUP_NORM_KERNEL(f32_group_norm_wasm128) {
  group_norm_impl<VecWasm128>(channels, spatial, x, scale, bias, epsilon, y);
}

}  // namespace tessera::kernels
