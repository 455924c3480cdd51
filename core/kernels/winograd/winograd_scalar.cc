// Winograd F(4x4, 3x3) transforms, Scalar: the portable fallback, one channel per step.
#include "core/kernels/simd/vec_scalar.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_INPUT(f32_winograd_input_scalar) { winograd_input<VecScalar>(channels, in, v, v_stride); }

TESSERA_WINOGRAD_OUTPUT(f32_winograd_output_scalar) {
  winograd_output<VecScalar>(channels, m, m_stride, bias, y, y_row_stride, y_pixel_stride, residual, row_begin, row_end,
                             cols, clamp);
}

}  // namespace tessera::kernels
