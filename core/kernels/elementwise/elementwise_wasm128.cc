// Elementwise kernels on WebAssembly SIMD128 (4 lanes): the generic template with VecWasm128 plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"
#include "core/kernels/elementwise/elementwise_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_UNARY_KERNEL(f32_unary_wasm128) { unary_impl<VecWasm128>(op, p, n, x, y); }

TESSERA_BINARY_KERNEL(f32_binary_wasm128) { binary_impl<VecWasm128>(op, n, a, a_stride, b, b_stride, y); }

}  // namespace tessera::kernels
