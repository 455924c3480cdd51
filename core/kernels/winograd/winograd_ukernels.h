// The per-ISA Winograd transforms (winograd_<isa>.cc), both tiles; only winograd.cc's list
// names them.
#pragma once

#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels {

#define TESSERA_WINOGRAD_INPUT(name) void name(size_t channels, const float* const* in, float* v, size_t v_stride)
#define TESSERA_WINOGRAD_OUTPUT(name)                                                                           \
  void name(size_t channels, const float* m, size_t m_stride, const float* bias, float* y, size_t y_row_stride, \
            size_t y_pixel_stride, const float* residual, size_t row_begin, size_t row_end, size_t cols,        \
            const MinMax& clamp)

// Defines the input and output transforms of tile F (WinogradF4, WinogradF2) over Vec.
#define TESSERA_WINOGRAD_TRANSFORMS(input_name, output_name, Vec, F)                                           \
  TESSERA_WINOGRAD_INPUT(input_name) { winograd_input<Vec, F>(channels, in, v, v_stride); }                    \
  TESSERA_WINOGRAD_OUTPUT(output_name) {                                                                       \
    winograd_output<Vec, F>(channels, m, m_stride, bias, y, y_row_stride, y_pixel_stride, residual, row_begin, \
                            row_end, cols, clamp);                                                             \
  }

TESSERA_WINOGRAD_INPUT(f32_winograd_f4_input_avx512);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f4_output_avx512);
TESSERA_WINOGRAD_INPUT(f32_winograd_f2_input_avx512);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f2_output_avx512);
TESSERA_WINOGRAD_INPUT(f32_winograd_f4_input_avx2);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f4_output_avx2);
TESSERA_WINOGRAD_INPUT(f32_winograd_f2_input_avx2);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f2_output_avx2);
TESSERA_WINOGRAD_INPUT(f32_winograd_f4_input_wasm128);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f4_output_wasm128);
TESSERA_WINOGRAD_INPUT(f32_winograd_f2_input_wasm128);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f2_output_wasm128);
TESSERA_WINOGRAD_INPUT(f32_winograd_f4_input_scalar);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f4_output_scalar);
TESSERA_WINOGRAD_INPUT(f32_winograd_f2_input_scalar);
TESSERA_WINOGRAD_OUTPUT(f32_winograd_f2_output_scalar);

}  // namespace tessera::kernels
