// Portable depthwise convolution: 4 output pixels x 1 channel per step, the fallback every build
// has.
#include "core/kernels/dwconv/dwconv_impl.h"
#include "core/kernels/dwconv/dwconv_ukernels.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

TESSERA_DWCONV_KERNEL(f32_dwconv_4x1_scalar) {
  dwconv<VecScalar, 4, 4>(g, input, packed_w, bias, output, oh_begin, oh_end, c_begin, c_end, residual, clamp);
}

}  // namespace tessera::kernels
