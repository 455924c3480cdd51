// Elementwise kernels on scalar code (the portable fallback): the generic template with VecScalar plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"

namespace tessera::kernels {

void f32_unary_scalar(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y) {
  unary_impl<VecScalar>(op, p, n, x, y);
}

void f32_binary_scalar(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                        size_t b_stride, float* y) {
  binary_impl<VecScalar>(op, n, a, a_stride, b, b_stride, y);
}

}  // namespace tessera::kernels
