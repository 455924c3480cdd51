// AVX2 + FMA GEMM micro-kernels: 6x16 uses 12 of the 16 ymm registers for accumulators; 4x24
// (12 accumulators, 3 panel vectors, 1 broadcast) serves layers of 24 outputs, which 16-wide
// panels pad to 32.
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_6x16_avx2) {
  gemm_ukernel<VecAvx2, 6, 16>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride, clamp);
}

TESSERA_GEMM_UKERNEL(f32_gemm_4x24_avx2) {
  gemm_ukernel<VecAvx2, 4, 24>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride, clamp);
}

}  // namespace tessera::kernels
