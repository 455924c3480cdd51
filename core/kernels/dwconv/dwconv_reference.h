// Plain-loop twin of the depthwise convolution kernels: the oracle their tests compare with.
#pragma once

#include "core/kernels/dwconv/dwconv.h"

namespace tessera::kernels {

// Same contract as DwConvFn; accumulates in double.
void reference_dwconv(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias,
                      float* output, size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end,
                      const float* residual, const MinMax& clamp);

}  // namespace tessera::kernels
