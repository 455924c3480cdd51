// The best-first list of elementwise kernels and the choice among them.
#include "core/kernels/elementwise/elementwise.h"

#include "core/kernels/elementwise/elementwise_ukernels.h"

namespace tessera::kernels {

namespace {

constexpr ElementwiseKernels kElementwiseKernels[] = {
#if defined(__x86_64__)
    {"f32_elementwise_avx512", Isa::kAvx512, f32_unary_avx512, f32_binary_avx512},
    {"f32_elementwise_avx2", Isa::kAvx2Fma, f32_unary_avx2, f32_binary_avx2},
#endif
#if defined(__wasm_simd128__)
    {"f32_elementwise_wasm128", Isa::kWasmSimd128, f32_unary_wasm128, f32_binary_wasm128},
#endif
    {"f32_elementwise_scalar", Isa::kScalar, f32_unary_scalar, f32_binary_scalar},
};

}  // namespace

std::span<const ElementwiseKernels> elementwise_kernels() { return kElementwiseKernels; }

const ElementwiseKernels& best_elementwise_kernels(Isa max_isa) {
  return best_runnable<ElementwiseKernels>(kElementwiseKernels, max_isa);
}

}  // namespace tessera::kernels
