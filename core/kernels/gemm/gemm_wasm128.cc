// WebAssembly SIMD128 GEMM micro-kernel. The shape is measured, not derived: in V8 on x86,
// 4x8 with k unrolled by 2 ran ResNet-50's convolutions at 46 GFLOP/s on one thread, 6x8
// without unrolling at 25 (more accumulators make V8 spill; unrolling halves the loop and
// address arithmetic that competes with the multiplies for the same ports).
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_4x8_wasm128) {
  gemm_ukernel<VecWasm128, 4, 8, 2>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride,
                                    clamp);
}

}  // namespace tessera::kernels
