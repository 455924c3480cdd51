// AVX2 + FMA GEMM micro-kernel: 6x16 uses 12 of the 16 ymm registers for accumulators.
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_6x16_avx2) {
  gemm_ukernel<VecAvx2, 6, 16>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride, clamp);
}

}  // namespace tessera::kernels
