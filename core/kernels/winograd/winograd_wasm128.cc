// Winograd F(4x4, 3x3) transforms, WebAssembly SIMD128: 4 channels per step.
#include "core/kernels/simd/vec_wasm128.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_INPUT(f32_winograd_input_wasm128) { winograd_input<VecWasm128>(channels, in, v, v_stride); }

TESSERA_WINOGRAD_OUTPUT(f32_winograd_output_wasm128) {
  winograd_output<VecWasm128>(channels, m, m_stride, bias, y, y_row_stride, y_pixel_stride, residual, row_begin,
                              row_end, cols, clamp);
}

}  // namespace tessera::kernels
