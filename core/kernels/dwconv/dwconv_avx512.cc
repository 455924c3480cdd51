// AVX-512 depthwise convolution: 8 output pixels x 16 channels per step (8 zmm accumulators).
#include "core/kernels/dwconv/dwconv_impl.h"
#include "core/kernels/dwconv/dwconv_ukernels.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

TESSERA_DWCONV_KERNEL(f32_dwconv_8x16_avx512) {
  dwconv<VecAvx512, 8, 8>(g, input, packed_w, bias, output, oh_begin, oh_end, c_begin, c_end, residual, clamp);
}

}  // namespace tessera::kernels
