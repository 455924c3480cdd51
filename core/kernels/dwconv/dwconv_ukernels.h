// The per-ISA depthwise convolution kernels (dwconv_<isa>.cc); only dwconv.cc's list names them.
#pragma once

#include "core/kernels/dwconv/dwconv.h"

namespace tessera::kernels {

#define TESSERA_DWCONV_KERNEL(name)                                                                               \
  void name(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias, float* output, \
            size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end, const float* residual, const MinMax& clamp)

TESSERA_DWCONV_KERNEL(f32_dwconv_8x16_avx512);
TESSERA_DWCONV_KERNEL(f32_dwconv_8x8_avx2);
TESSERA_DWCONV_KERNEL(f32_dwconv_4x4_wasm128);
TESSERA_DWCONV_KERNEL(f32_dwconv_4x1_scalar);

}  // namespace tessera::kernels
