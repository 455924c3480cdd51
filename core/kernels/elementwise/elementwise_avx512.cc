// Elementwise kernels on AVX-512 (16 lanes): the generic template with VecAvx512 plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"
#include "core/kernels/elementwise/elementwise_ukernels.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

TESSERA_UNARY_KERNEL(f32_unary_avx512) { unary_impl<VecAvx512>(op, p, n, x, y); }

TESSERA_BINARY_KERNEL(f32_binary_avx512) { binary_impl<VecAvx512>(op, n, a, a_stride, b, b_stride, y); }

}  // namespace tessera::kernels
