// The per-ISA GEMM micro-kernels (gemm_<isa>.cc); only gemm.cc's kernel list names them.
#pragma once

#include <cstddef>

#include "core/kernels/activation.h"

namespace tessera::kernels {

#define TESSERA_GEMM_UKERNEL(name)                                                                             \
  void name(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* packed_w,          \
            const float* prefetch_w, float* c, size_t c_stride, const float* residual, size_t residual_stride, \
            const MinMax& clamp)

TESSERA_GEMM_UKERNEL(f32_gemm_14x32_avx512);
TESSERA_GEMM_UKERNEL(f32_gemm_7x32_avx512);
TESSERA_GEMM_UKERNEL(f32_gemm_14x16_avx512);
TESSERA_GEMM_UKERNEL(f32_gemm_7x16_avx512);
TESSERA_GEMM_UKERNEL(f32_gemm_7x24_avx512);
TESSERA_GEMM_UKERNEL(f32_gemm_6x16_avx2);
TESSERA_GEMM_UKERNEL(f32_gemm_4x24_avx2);
TESSERA_GEMM_UKERNEL(f32_gemm_4x8_wasm128);
TESSERA_GEMM_UKERNEL(f32_gemm_4x4_scalar);

}  // namespace tessera::kernels
