// Elementwise kernels on scalar code (the portable fallback): the generic template with VecScalar plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"
#include "core/kernels/elementwise/elementwise_ukernels.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

TESSERA_UNARY_KERNEL(f32_unary_scalar) { unary_impl<VecScalar>(op, p, n, x, y); }

TESSERA_BINARY_KERNEL(f32_binary_scalar) { binary_impl<VecScalar>(op, n, a, a_stride, b, b_stride, y); }

}  // namespace tessera::kernels
