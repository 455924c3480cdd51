// The best-first list of row kernels and the choice among them.
#include "core/kernels/rows/rows.h"

#include "core/kernels/rows/rows_ukernels.h"

namespace tessera::kernels {

namespace {

constexpr RowKernels kRowKernels[] = {
#if defined(__x86_64__)
    {"f32_rows_avx512", Isa::kAvx512, f32_softmax_avx512, f32_layer_norm_avx512, f32_group_norm_avx512},
    {"f32_rows_avx2", Isa::kAvx2Fma, f32_softmax_avx2, f32_layer_norm_avx2, f32_group_norm_avx2},
#endif
#if defined(__wasm_simd128__)
    {"f32_rows_wasm128", Isa::kWasmSimd128, f32_softmax_wasm128, f32_layer_norm_wasm128, f32_group_norm_wasm128},
#endif
    {"f32_rows_scalar", Isa::kScalar, f32_softmax_scalar, f32_layer_norm_scalar, f32_group_norm_scalar},
};

}  // namespace

std::span<const RowKernels> row_kernels() { return kRowKernels; }

const RowKernels& best_row_kernels(Isa max_isa) { return best_runnable<RowKernels>(kRowKernels, max_isa); }

}  // namespace tessera::kernels
