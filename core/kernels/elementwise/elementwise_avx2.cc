// Elementwise kernels on AVX2 + FMA (8 lanes): the generic template with VecAvx2 plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"
#include "core/kernels/elementwise/elementwise_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_UNARY_KERNEL(f32_unary_avx2) { unary_impl<VecAvx2>(op, p, n, x, y); }

TESSERA_BINARY_KERNEL(f32_binary_avx2) { binary_impl<VecAvx2>(op, n, a, a_stride, b, b_stride, y); }

}  // namespace tessera::kernels
