// Portable GEMM micro-kernel: 4x4 scalar accumulators, the fallback every build has.
#include "core/kernels/gemm/gemm_impl.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

TESSERA_GEMM_UKERNEL(f32_gemm_4x4_scalar) {
  gemm_ukernel<VecScalar, 4, 4>(mr, nc, kc, ks, a, packed_w, prefetch_w, c, c_stride, residual, residual_stride, clamp);
}

}  // namespace tessera::kernels
