// Window geometry shared by Conv and the pools (2-D, NCHW logical shapes).
#pragma once

#include <utility>

#include "core/ops/node_parser.h"

namespace tessera::ops {

struct SpatialAttrs {
  int64_t kernel[2], stride[2], dilation[2], pad_begin[2], pad_end[2];
  int64_t out[2];  // output height and width
};

// Reads strides, dilations, pads / auto_pad (and ceil_mode when allowed) for a window of
// size `kernel` over input `in` [N, C, H, W], and computes the output size.
Result<SpatialAttrs> parse_spatial(NodeParser& p, const Shape& in, const int64_t kernel[2], bool ceil_mode_allowed);

// Input indices [begin, end) that outputs [out_begin, out_end) read along one spatial axis,
// clipped to the input (empty when every window lies in the padding).
std::pair<int64_t, int64_t> window_input_range(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                               int64_t kernel, int64_t dilation, int64_t input_size);

}  // namespace tessera::ops
