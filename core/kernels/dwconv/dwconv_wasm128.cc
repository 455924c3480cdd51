// WebAssembly SIMD128 depthwise convolution: 4 output pixels x 4 channels per step.
#include "core/kernels/dwconv/dwconv_impl.h"
#include "core/kernels/dwconv/dwconv_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_DWCONV_KERNEL(f32_dwconv_4x4_wasm128) {
  dwconv<VecWasm128, 4, 4>(g, input, packed_w, bias, output, oh_begin, oh_end, c_begin, c_end, residual, clamp);
}

}  // namespace tessera::kernels
