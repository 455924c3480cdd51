// The row-kernel references: softmax, layer and group normalisation as plain loops in double
// precision; the oracle of rows_test.cc.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernels/rows/rows.h"

namespace tessera::kernels {

void softmax_reference(size_t rows, size_t n, const float* x, size_t x_row_stride, float* y, size_t y_row_stride) {
  std::vector<double> e(n);
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * x_row_stride;
    float* out = y + r * y_row_stride;
    double max = -INFINITY;
    for (size_t i = 0; i < n; ++i) max = std::max(max, double{in[i]});
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
      e[i] = std::exp(in[i] - max);
      sum += e[i];
    }
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(e[i] / sum);
  }
}

void layer_norm_reference(size_t rows, size_t n, const float* x, size_t x_row_stride, const float* scale,
                          const float* bias, float epsilon, float* y, size_t y_row_stride) {
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * x_row_stride;
    float* out = y + r * y_row_stride;
    double mean = 0;
    for (size_t i = 0; i < n; ++i) mean += in[i];
    mean /= static_cast<double>(n);
    double variance = 0;
    for (size_t i = 0; i < n; ++i) variance += (in[i] - mean) * (in[i] - mean);
    variance /= static_cast<double>(n);
    const double inverse_std = 1.0 / std::sqrt(variance + epsilon);
    for (size_t i = 0; i < n; ++i) {
      const double normalised = (in[i] - mean) * inverse_std * scale[i];
      out[i] = static_cast<float>(bias != nullptr ? normalised + bias[i] : normalised);
    }
  }
}

void group_norm_reference(size_t channels, size_t spatial, const float* x, const float* scale, const float* bias,
                          float epsilon, float* y) {
  const size_t n = channels * spatial;
  double mean = 0;
  for (size_t i = 0; i < n; ++i) mean += x[i];
  mean /= static_cast<double>(n);
  double variance = 0;
  for (size_t i = 0; i < n; ++i) variance += (x[i] - mean) * (x[i] - mean);
  variance /= static_cast<double>(n);
  const double inverse_std = 1.0 / std::sqrt(variance + epsilon);
  for (size_t i = 0; i < n; ++i) {
    const size_t c = i / spatial;
    const double normalised = (x[i] - mean) * inverse_std * scale[c];
    y[i] = static_cast<float>(bias != nullptr ? normalised + bias[c] : normalised);
  }
}

}  // namespace tessera::kernels
