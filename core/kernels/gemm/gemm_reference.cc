// Plain-loop GEMM reference: the micro-kernel contract and a whole matrix product.
#include "core/kernels/gemm/gemm_reference.h"

namespace tessera::kernels {

namespace {

// NaN propagates like the fast kernels' clamp.
float clamp_value(double v, const MinMax& clamp) {
  float x = static_cast<float>(v);
  if (x < clamp.min) x = clamp.min;
  if (x > clamp.max) x = clamp.max;
  return x;
}

}  // namespace

void reference_gemm_ukernel(int kernel_mr, int kernel_nr, size_t mr, size_t nc, size_t kc, size_t ks,
                            const float* const* a, const float* packed_w, float* c, size_t c_stride,
                            const float* residual, size_t residual_stride, const MinMax& clamp) {
  const size_t nr = static_cast<size_t>(kernel_nr);
  for (size_t r = 0; r < mr; ++r) {
    for (size_t j = 0; j < nc; ++j) {
      double acc = packed_w[j];
      for (size_t t = 0; t < ks; ++t) {
        const float* row = a[t * static_cast<size_t>(kernel_mr) + r];
        for (size_t k = 0; k < kc; ++k) {
          acc += static_cast<double>(row[k]) * packed_w[nr * (1 + t * kc + k) + j];
        }
      }
      if (residual != nullptr) acc += residual[r * residual_stride + j];
      c[r * c_stride + j] = clamp_value(acc, clamp);
    }
  }
}

void reference_gemm(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
                    const float* bias, float* c, size_t ldc) {
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double acc = bias != nullptr ? bias[j] : 0.0;
      for (size_t p = 0; p < k; ++p) acc += static_cast<double>(a[i * lda + p]) * b[p * ldb + j];
      c[i * ldc + j] = static_cast<float>(acc);
    }
  }
}

}  // namespace tessera::kernels
