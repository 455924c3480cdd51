// The scaled weights of a convolution (conv_weights.h).
#include "core/ops/conv_weights.h"

namespace tessera::ops {

const float* ConvWeights::scaled(std::vector<float>& storage) const {
  if (scale == nullptr) return data;
  const int64_t taps = shape[2] * shape[3];
  const int64_t per_row = shape[1] * taps;  // elements per first-axis entry
  storage.resize(static_cast<size_t>(shape[0] * per_row));
  for (int64_t i = 0; i < static_cast<int64_t>(storage.size()); ++i) {
    const int64_t row = i / per_row;
    // Conv: the row is the output channel. ConvTranspose: input channel `row` of group
    // row / (C / group) feeds that group's shape[1] output channels.
    const int64_t channel = transposed ? row / (shape[0] / group) * shape[1] + i / taps % shape[1] : row;
    storage[i] = data[i] * scale[channel];
  }
  return storage.data();
}

}  // namespace tessera::ops
