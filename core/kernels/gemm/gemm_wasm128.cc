// WebAssembly SIMD128 GEMM micro-kernel: 6x8 keeps 12 accumulators, which engines map onto
// the 16 xmm registers of x86 hosts without spilling.
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_6x8_wasm128) {
  gemm_ukernel<VecWasm128, 6, 8>(mr, nc, kc, ks, a, packed_w, c, c_stride, residual, residual_stride, clamp);
}

}  // namespace tessera::kernels
