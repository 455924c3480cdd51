// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms, AVX2: 8 channels per step.
#include "core/kernels/simd/vec_avx2.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f4_input_avx2, f32_winograd_f4_output_avx2, VecAvx2, WinogradF4)
TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f2_input_avx2, f32_winograd_f2_output_avx2, VecAvx2, WinogradF2)

}  // namespace tessera::kernels
