// Pooling kernels on AVX2 + FMA (8 lanes): the generic template with VecAvx2 plugged in.
#include "core/kernels/pool/pool_impl.h"
#include "core/kernels/pool/pool_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_POOL_KERNEL(f32_max_pool_avx2) { max_pool_impl<VecAvx2>(g, x, y, oh_begin, oh_end, c_begin, c_end); }

TESSERA_POOL_KERNEL(f32_average_pool_avx2) { average_pool_impl<VecAvx2>(g, x, y, oh_begin, oh_end, c_begin, c_end); }

TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_avx2) {
  global_average_pool_impl<VecAvx2>(pixels, channels, x, y, c_begin, c_end);
}

}  // namespace tessera::kernels
