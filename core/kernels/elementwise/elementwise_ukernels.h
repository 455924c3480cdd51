// The per-ISA elementwise kernels (elementwise_<isa>.cc); only elementwise.cc's list names them.
#pragma once

#include <cstddef>

#include "core/kernels/elementwise/elementwise.h"

namespace tessera::kernels {

#define TESSERA_UNARY_KERNEL(name) void name(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y)
#define TESSERA_BINARY_KERNEL(name) \
  void name(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b, size_t b_stride, float* y)

TESSERA_UNARY_KERNEL(f32_unary_avx512);
TESSERA_BINARY_KERNEL(f32_binary_avx512);

TESSERA_UNARY_KERNEL(f32_unary_avx2);
TESSERA_BINARY_KERNEL(f32_binary_avx2);

TESSERA_UNARY_KERNEL(f32_unary_scalar);
TESSERA_BINARY_KERNEL(f32_binary_scalar);

TESSERA_UNARY_KERNEL(f32_unary_wasm128);
TESSERA_BINARY_KERNEL(f32_binary_wasm128);

}  // namespace tessera::kernels
