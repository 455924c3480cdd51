// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms, Scalar: the portable fallback, one channel per step.
#include "core/kernels/simd/vec_scalar.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f4_input_scalar, f32_winograd_f4_output_scalar, VecScalar, WinogradF4)
TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f2_input_scalar, f32_winograd_f2_output_scalar, VecScalar, WinogradF2)

}  // namespace tessera::kernels
