// A convolution's weights as its kernels pack them: the initializer, times a per-output-
// channel scale when an affine (a batch norm) was folded into the convolution. The scaled
// weights exist only while they are packed, so a model's weights are never held twice.
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

  // The weights as the convolution computes with them: each element times the scale of its
  // output channel (one float multiply), held in `storage`; `data` itself without a scale.
  const float* scaled(std::vector<float>& storage) const;
};

}  // namespace tessera::ops
