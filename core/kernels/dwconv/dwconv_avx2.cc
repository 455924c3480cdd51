// AVX2 + FMA depthwise convolution: 8 output pixels x 8 channels per step (8 of 16 ymm).
#include "core/kernels/dwconv/dwconv_impl.h"
#include "core/kernels/dwconv/dwconv_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_DWCONV_KERNEL(f32_dwconv_8x8_avx2) {
  dwconv<VecAvx2, 8, 4>(g, input, packed_w, bias, output, oh_begin, oh_end, c_begin, c_end, residual, clamp);
}

}  // namespace tessera::kernels
