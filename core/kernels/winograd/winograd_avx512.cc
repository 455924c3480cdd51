// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms, AVX-512: 16 channels per step.
#include "core/kernels/simd/vec_avx512.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f4_input_avx512, f32_winograd_f4_output_avx512, VecAvx512, WinogradF4)
TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f2_input_avx512, f32_winograd_f2_output_avx512, VecAvx512, WinogradF2)

}  // namespace tessera::kernels
