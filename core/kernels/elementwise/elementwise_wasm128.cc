// Elementwise kernels on WebAssembly SIMD128 (4 lanes): the generic template with VecWasm128 plugged in.
#include "core/kernels/elementwise/elementwise_impl.h"

namespace tessera::kernels {

void f32_unary_wasm128(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y) {
  unary_impl<VecWasm128>(op, p, n, x, y);
}

void f32_binary_wasm128(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                         size_t b_stride, float* y) {
  binary_impl<VecWasm128>(op, n, a, a_stride, b, b_stride, y);
}

}  // namespace tessera::kernels
