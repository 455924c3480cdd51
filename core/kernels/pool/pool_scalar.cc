// Pooling kernels on scalar code (the portable fallback): the generic template with VecScalar plugged in.
#include "core/kernels/pool/pool_impl.h"
#include "core/kernels/pool/pool_ukernels.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

TESSERA_POOL_KERNEL(f32_max_pool_scalar) { max_pool_impl<VecScalar>(g, x, y, oh_begin, oh_end, c_begin, c_end); }

TESSERA_POOL_KERNEL(f32_average_pool_scalar) {
  average_pool_impl<VecScalar>(g, x, y, oh_begin, oh_end, c_begin, c_end);
}

TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_scalar) {
  global_average_pool_impl<VecScalar>(pixels, channels, x, y, c_begin, c_end);
}

}  // namespace tessera::kernels
