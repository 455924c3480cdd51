// Plain-matrix twins of the Winograd transforms: the oracle their tests compare with.
#pragma once

#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels {

// Same contracts as WinogradInputFn and WinogradOutputFn for `tile`; B^T d B and A^T M A as
// matrix products in double.
void reference_winograd_input(WinogradTile tile, size_t channels, const float* const* in, float* v, size_t v_stride);
void reference_winograd_output(WinogradTile tile, size_t channels, const float* m, size_t m_stride, const float* bias,
                               float* y, size_t y_row_stride, size_t y_pixel_stride, const float* residual,
                               size_t row_begin, size_t row_end, size_t cols, const MinMax& clamp);

}  // namespace tessera::kernels
