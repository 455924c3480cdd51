// The best-first list of pooling kernels and the choice among them.
#include "core/kernels/pool/pool.h"

#include "core/kernels/pool/pool_ukernels.h"

namespace tessera::kernels {

namespace {

constexpr PoolKernels kPoolKernels[] = {
#if defined(__x86_64__)
    {"f32_pool_avx512", Isa::kAvx512, f32_max_pool_avx512, f32_average_pool_avx512, f32_global_average_pool_avx512},
    {"f32_pool_avx2", Isa::kAvx2Fma, f32_max_pool_avx2, f32_average_pool_avx2, f32_global_average_pool_avx2},
#endif
#if defined(__wasm_simd128__)
    {"f32_pool_wasm128", Isa::kWasmSimd128, f32_max_pool_wasm128, f32_average_pool_wasm128,
     f32_global_average_pool_wasm128},
#endif
    {"f32_pool_scalar", Isa::kScalar, f32_max_pool_scalar, f32_average_pool_scalar, f32_global_average_pool_scalar},
};

}  // namespace

std::span<const PoolKernels> pool_kernels() { return kPoolKernels; }

const PoolKernels& best_pool_kernels(Isa max_isa) { return best_runnable<PoolKernels>(kPoolKernels, max_isa); }

}  // namespace tessera::kernels
