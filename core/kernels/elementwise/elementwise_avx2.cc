// Elementwise kernels on AVX2 + FMA (8 lanes): the generic template with VecAvx2 plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"

namespace tessera::kernels {

void f32_unary_avx2(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y) {
  unary_impl<VecAvx2>(op, p, n, x, y);
}

void f32_binary_avx2(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                      size_t b_stride, float* y) {
  binary_impl<VecAvx2>(op, n, a, a_stride, b, b_stride, y);
}

}  // namespace tessera::kernels
