// Winograd F(4x4, 3x3) transforms, AVX-512: 16 channels per step.
#include "core/kernels/simd/vec_avx512.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_INPUT(f32_winograd_input_avx512) { winograd_input<VecAvx512>(channels, in, v, v_stride); }

TESSERA_WINOGRAD_OUTPUT(f32_winograd_output_avx512) {
  winograd_output<VecAvx512>(channels, m, m_stride, bias, y, y_row_stride, y_pixel_stride, residual, row_begin, row_end,
                             cols, clamp);
}

}  // namespace tessera::kernels
