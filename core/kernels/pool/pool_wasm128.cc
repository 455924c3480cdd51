// Pooling kernels on WebAssembly SIMD128 (4 lanes): the generic template with VecWasm128 plugged in.
#include "core/kernels/pool/pool_impl.h"
#include "core/kernels/pool/pool_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_POOL_KERNEL(f32_max_pool_wasm128) { max_pool_impl<VecWasm128>(g, x, y, oh_begin, oh_end, c_begin, c_end); }

TESSERA_POOL_KERNEL(f32_average_pool_wasm128) {
  average_pool_impl<VecWasm128>(g, x, y, oh_begin, oh_end, c_begin, c_end);
}

TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_wasm128) {
  global_average_pool_impl<VecWasm128>(pixels, channels, x, y, c_begin, c_end);
}

}  // namespace tessera::kernels
