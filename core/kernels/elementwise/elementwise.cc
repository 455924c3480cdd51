// The best-first list of elementwise kernels and the choice among them.
#include "core/kernels/elementwise/elementwise.h"

#include <iterator>

namespace tessera::kernels {

// Defined in elementwise_<isa>.cc.
void f32_unary_avx512(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y);
void f32_binary_avx512(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                       size_t b_stride, float* y);
void f32_unary_avx2(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y);
void f32_binary_avx2(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                     size_t b_stride, float* y);
void f32_unary_wasm128(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y);
void f32_binary_wasm128(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                        size_t b_stride, float* y);
void f32_unary_scalar(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y);
void f32_binary_scalar(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b,
                       size_t b_stride, float* y);

namespace {

// The same sources choose the ISA files: x86 natively, SIMD128 under Emscripten.
constexpr ElementwiseKernels kKernels[] = {
#if defined(__EMSCRIPTEN__)
    {"f32_elementwise_wasm128", Isa::kWasmSimd128, f32_unary_wasm128, f32_binary_wasm128},
#else
    {"f32_elementwise_avx512", Isa::kAvx512, f32_unary_avx512, f32_binary_avx512},
    {"f32_elementwise_avx2", Isa::kAvx2Fma, f32_unary_avx2, f32_binary_avx2},
#endif
    {"f32_elementwise_scalar", Isa::kScalar, f32_unary_scalar, f32_binary_scalar},
};

}  // namespace

std::span<const ElementwiseKernels> elementwise_kernels() { return kKernels; }

const ElementwiseKernels& best_elementwise_kernels(Isa max_isa) {
  for (const ElementwiseKernels& k : kKernels) {
    if (isa_supported(k.isa) && k.isa <= max_isa) return k;
  }
  return kKernels[std::size(kKernels) - 1];
}

}  // namespace tessera::kernels
