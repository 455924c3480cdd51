// The Winograd transforms as the matrix products they are, in double.
#include "core/kernels/winograd/winograd_reference.h"

#include <algorithm>

#include "core/kernels/winograd/winograd_matrices.h"

namespace tessera::kernels {

void reference_winograd_input(WinogradTile tile, size_t channels, const float* const* in, float* v, size_t v_stride) {
  const int n = tile.input();
  for (size_t c = 0; c < channels; ++c) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0;  // (B^T d B)[i][j]
        for (int k = 0; k < n; ++k) {
          for (int l = 0; l < n; ++l) sum += winograd::bt(tile, i, k) * in[k * n + l][c] * winograd::bt(tile, j, l);
        }
        v[(i * n + j) * v_stride + c] = static_cast<float>(sum);
      }
    }
  }
}

void reference_winograd_output(WinogradTile tile, size_t channels, const float* m, size_t m_stride, const float* bias,
                               float* y, size_t y_row_stride, size_t y_pixel_stride, const float* residual,
                               size_t row_begin, size_t row_end, size_t cols, const MinMax& clamp) {
  const int n = tile.input();
  for (size_t c = 0; c < channels; ++c) {
    for (size_t r = row_begin; r < row_end; ++r) {
      for (size_t col = 0; col < cols; ++col) {
        double sum = 0;  // (A^T M A)[r][col]
        for (int k = 0; k < n; ++k) {
          for (int l = 0; l < n; ++l) {
            sum += winograd::at(tile, static_cast<int>(r), k) * m[(k * n + l) * m_stride + c] *
                   winograd::at(tile, static_cast<int>(col), l);
          }
        }
        const size_t at = r * y_row_stride + col * y_pixel_stride + c;
        float value = static_cast<float>(sum) + bias[c];
        if (residual != nullptr) value += residual[at];
        y[at] = std::min(clamp.max, std::max(clamp.min, value));
      }
    }
  }
}

}  // namespace tessera::kernels
