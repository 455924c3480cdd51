// Window geometry shared by Conv and the pools (2-D, NCHW logical shapes).
#pragma once

#include <utility>

#include "core/ops/node_parser.h"

namespace tessera::ops {

// A 2-D sliding window: what Conv and the pools share.
struct Window {
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool operator==(const Window&) const = default;
};

struct ParsedWindow {
  Window window;
  int64_t out_h = 0, out_w = 0;
};

// Reads strides, dilations, pads / auto_pad (and ceil_mode when allowed) for a window of
// size `kernel` over input `in` [N, C, H, W], and computes the output size.
Result<ParsedWindow> parse_window(NodeParser& p, const Shape& in, const int64_t kernel[2], bool ceil_mode_allowed);

// Input indices [begin, end) that outputs [out_begin, out_end) read along one spatial axis,
// clipped to the input (empty when every window lies in the padding).
std::pair<int64_t, int64_t> window_input_range(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                               int64_t kernel, int64_t dilation, int64_t input_size);

// Window taps inside the input along one spatial axis, summed over outputs [out_begin,
// out_end): the taps a kernel that skips the padding computes.
int64_t window_taps_inside(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad, int64_t kernel,
                           int64_t dilation, int64_t input_size);

// The per-axis range of a window op: window_input_range, or ConvTranspose's inverse.
using AxisRange = std::pair<int64_t, int64_t> (*)(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                                  int64_t kernel, int64_t dilation, int64_t input_size);

// The region of input `x` [N, C, H, W] that output region `out` (with `out_channels`
// channels in `group` groups) of a window op reads: its images, the input channels of the
// groups it touches (each channel alone for pools: group = channels), and the rows and
// columns `range` gives.
Region window_footprint(const Window& w, const Shape& x, int64_t out_channels, int64_t group, const Region& out,
                        AxisRange range);

}  // namespace tessera::ops
