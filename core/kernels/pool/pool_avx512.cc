// Pooling kernels on AVX-512 (16 lanes): the generic template with VecAvx512 plugged in.
#include "core/kernels/pool/pool_impl.h"
#include "core/kernels/pool/pool_ukernels.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

TESSERA_POOL_KERNEL(f32_max_pool_avx512) { max_pool_impl<VecAvx512>(g, x, y, oh_begin, oh_end, c_begin, c_end); }

TESSERA_POOL_KERNEL(f32_average_pool_avx512) {
  average_pool_impl<VecAvx512>(g, x, y, oh_begin, oh_end, c_begin, c_end);
}

TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_avx512) {
  global_average_pool_impl<VecAvx512>(pixels, channels, x, y, c_begin, c_end);
}

}  // namespace tessera::kernels
