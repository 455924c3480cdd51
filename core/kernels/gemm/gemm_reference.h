// Plain-loop twins of the GEMM kernels: the oracle the tests compare every fast kernel with.
#pragma once

#include <cstddef>

#include "core/kernels/activation.h"

namespace tessera::kernels {

// Same contract as GemmUkernelFn for a kernel_mr x kernel_nr kernel (the fast kernels know
// those sizes at compile time; this one takes them as arguments). Accumulates in double.
void reference_gemm_ukernel(int kernel_mr, int kernel_nr, size_t mr, size_t nc, size_t kc, size_t ks,
                            const float* const* a, const float* packed_w, float* c, size_t c_stride,
                            const float* residual, size_t residual_stride, const MinMax& clamp);

// C[m x n] = A[m x k] * B[k x n] + bias (bias may be null), row-major with leading dimensions,
// accumulated in double.
void reference_gemm(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
                    const float* bias, float* c, size_t ldc);

}  // namespace tessera::kernels
