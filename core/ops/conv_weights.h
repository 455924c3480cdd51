// A convolution's weights as its kernels pack them: the initializer, times a per-output-
// channel scale when an affine (a batch norm) was folded into the convolution. Packing
// multiplies each weight as it copies it: no scaled copy of a layer's weights is made.
#pragma once

#include <vector>

#include "core/ops/geometry.h"

namespace tessera::ops {

struct ConvWeights {
  const float* data = nullptr;   // Conv [M, C/group, kH, kW]; ConvTranspose [C, M/group, kH, kW]
  const float* scale = nullptr;  // per output channel, or null
  Shape shape;
  int64_t group = 1;
  bool transposed = false;

  // Element i, of output channel `channel`, as the convolution computes with it: times the
  // channel's scale (one float multiply).
  float scaled_at(int64_t i, int64_t channel) const { return scale != nullptr ? data[i] * scale[channel] : data[i]; }

  // Every element scaled so, held in `storage` (`data` itself without a scale): for the
  // reference kernels, which compute from the layout as given.
  const float* scaled(std::vector<float>& storage) const;
};

}  // namespace tessera::ops
