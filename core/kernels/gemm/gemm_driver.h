// A whole-matrix GEMM over one micro-kernel: the model for the engine's tile drivers.
#pragma once

#include <cstddef>

#include "core/kernels/activation.h"
#include "core/kernels/gemm/gemm.h"

namespace tessera::kernels {

// C[m x n] = clamp(A[m x kdim] * B + bias), A and C row-major with leading dimensions lda and
// ldc, B (and bias) packed by pack_gemm_weights for kernel.nr with kc = kdim, ks = 1.
// Single-threaded; the caller checks isa_supported(kernel.isa).
void gemm_f32(const GemmKernel& kernel, size_t m, size_t n, size_t kdim, const float* a, size_t lda,
              const float* packed_b, float* c, size_t ldc, const MinMax& clamp);

}  // namespace tessera::kernels
