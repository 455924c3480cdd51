// AVX-512 GEMM micro-kernels: 14x32 keeps 28 zmm accumulators, and 14 rows tile the 7-multiple
// spatial sizes of CNNs (7, 14, 28, 56, 112) without a ragged last block. 7-row kernels serve
// rows that share one L1 set, narrower panels layers of few outputs (gemm.h: gemm_kernel_for):
// 16 columns in zmm, or 24 in three ymm (21 accumulators of the 32 registers AVX-512 gives
// 256-bit vectors too), as fast as zmm where 512-bit FMAs are split in two.
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_avx2.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_14x32_avx512) {
  gemm_ukernel<VecAvx512, 14, 32>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride,
                                  clamp);
}

TESSERA_GEMM_UKERNEL(f32_gemm_7x32_avx512) {
  gemm_ukernel<VecAvx512, 7, 32>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride,
                                 clamp);
}

TESSERA_GEMM_UKERNEL(f32_gemm_14x16_avx512) {
  gemm_ukernel<VecAvx512, 14, 16>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride,
                                  clamp);
}

TESSERA_GEMM_UKERNEL(f32_gemm_7x16_avx512) {
  gemm_ukernel<VecAvx512, 7, 16>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride,
                                 clamp);
}

TESSERA_GEMM_UKERNEL(f32_gemm_7x24_avx512) {
  gemm_ukernel<VecAvx2, 7, 24>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride, clamp);
}

}  // namespace tessera::kernels
