// The Winograd transforms as the matrix products they are, in double.
#include "core/kernels/winograd/winograd_reference.h"

#include <algorithm>

#include "core/kernels/winograd/winograd_matrices.h"

namespace tessera::kernels {

void reference_winograd_input(size_t channels, const float* const* in, float* v, size_t v_stride) {
  for (size_t c = 0; c < channels; ++c) {
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) {
        double sum = 0;  // (B^T d B)[i][j]
        for (int k = 0; k < 6; ++k) {
          for (int l = 0; l < 6; ++l) sum += winograd::kBt[i][k] * in[k * 6 + l][c] * winograd::kBt[j][l];
        }
        v[(i * 6 + j) * v_stride + c] = static_cast<float>(sum);
      }
    }
  }
}

void reference_winograd_output(size_t channels, const float* m, size_t m_stride, const float* bias, float* y,
                               size_t y_row_stride, size_t y_pixel_stride, const float* residual, size_t row_begin,
                               size_t row_end, size_t cols, const MinMax& clamp) {
  for (size_t c = 0; c < channels; ++c) {
    for (size_t r = row_begin; r < row_end; ++r) {
      for (size_t col = 0; col < cols; ++col) {
        double sum = 0;  // (A^T M A)[r][col]
        for (int k = 0; k < 6; ++k) {
          for (int l = 0; l < 6; ++l)
            sum += winograd::kAt[r][k] * m[(k * 6 + l) * m_stride + c] * winograd::kAt[col][l];
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
