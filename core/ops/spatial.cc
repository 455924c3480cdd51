// Window geometry shared by Conv and the pools: attribute parsing (pads, auto_pad,
// ceil_mode) and which input rows a band of output rows reads.
#include "core/ops/spatial.h"

#include <algorithm>
#include <tuple>

#include "core/base/checked_math.h"

namespace tessera::ops {

std::pair<int64_t, int64_t> window_input_range(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                               int64_t kernel, int64_t dilation, int64_t input_size) {
  const int64_t first = out_begin * stride - pad;
  const int64_t last = (out_end - 1) * stride - pad + dilation * (kernel - 1);
  const int64_t begin = std::clamp<int64_t>(first, 0, input_size);
  const int64_t end = std::clamp<int64_t>(last + 1, 0, input_size);
  return {begin, std::max(begin, end)};
}

int64_t window_taps_inside(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad, int64_t kernel,
                           int64_t dilation, int64_t input_size) {
  int64_t taps = 0;
  for (int64_t o = out_begin; o < out_end; ++o) {
    const int64_t origin = o * stride - pad;
    // Taps t with 0 <= origin + t * dilation < input_size.
    const int64_t lo = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
    const int64_t hi = origin >= input_size ? 0 : std::min(kernel, (input_size - 1 - origin) / dilation + 1);
    taps += std::max<int64_t>(0, hi - lo);
  }
  return taps;
}

namespace {

// Per-axis window parameters, [0] for height and [1] for width.
struct Axes {
  int64_t kernel[2], stride[2], dilation[2], pad_begin[2], pad_end[2], out[2];
};

}  // namespace

Region window_footprint(const Window& w, const Shape& x, int64_t out_channels, int64_t group, const Region& out,
                        AxisRange range) {
  const int64_t out_per_group = out_channels / group;
  const int64_t in_per_group = x[1] / group;
  Region r = Region::whole(x);
  r.begin[0] = out.begin[0];
  r.end[0] = out.end[0];
  r.begin[1] = out.begin[1] / out_per_group * in_per_group;
  r.end[1] = ((out.end[1] - 1) / out_per_group + 1) * in_per_group;
  std::tie(r.begin[2], r.end[2]) =
      range(out.begin[2], out.end[2], w.stride_h, w.pad_top, w.kernel_h, w.dilation_h, x[2]);
  std::tie(r.begin[3], r.end[3]) =
      range(out.begin[3], out.end[3], w.stride_w, w.pad_left, w.kernel_w, w.dilation_w, x[3]);
  return r;
}

Result<ParsedWindow> parse_window(NodeParser& p, const Shape& in, const int64_t kernel[2], bool ceil_mode_allowed) {
  Axes s{};
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> strides, p.get_ints("strides", {1, 1}, 2));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, p.get_ints("dilations", {1, 1}, 2));
  TESSERA_ASSIGN_OR_RETURN(std::string auto_pad, p.get_string("auto_pad", "NOTSET"));
  const bool pads_given = p.has_attribute("pads");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> pads, p.get_ints("pads", {0, 0, 0, 0}, 4));
  int64_t ceil_mode = 0;
  if (ceil_mode_allowed) {
    TESSERA_ASSIGN_OR_RETURN(ceil_mode, p.get_int("ceil_mode", 0));
  }
  // Bounding every parameter by the largest tensor keeps all the arithmetic below far
  // from int64 overflow.
  auto in_range = [](int64_t v, int64_t lo) { return v >= lo && v <= kMaxTensorElements; };
  for (int i = 0; i < 2; ++i) {
    s.kernel[i] = kernel[i];
    s.stride[i] = strides[i];
    s.dilation[i] = dilations[i];
    if (!in_range(strides[i], 1))
      return p.error("attribute \"strides\" must be from 1 to " + std::to_string(kMaxTensorElements));
    if (!in_range(dilations[i], 1))
      return p.error("attribute \"dilations\" must be from 1 to " + std::to_string(kMaxTensorElements));
    if (!in_range(kernel[i], 1)) return p.error("kernel size must be from 1 to " + std::to_string(kMaxTensorElements));
  }
  for (int64_t pad : pads) {
    if (!in_range(pad, 0)) return p.error("attribute \"pads\" must be from 0 to " + std::to_string(kMaxTensorElements));
  }
  if (auto_pad != "NOTSET" && pads_given) return p.error("attributes \"pads\" and \"auto_pad\" exclude each other");
  for (int i = 0; i < 2; ++i) {
    const int64_t size = in[2 + i];
    int64_t span = 0;
    if (!checked_mul(s.dilation[i], s.kernel[i] - 1, &span) || ++span > kMaxTensorElements) {
      return p.error("dilated kernel extent exceeds " + std::to_string(kMaxTensorElements));
    }
    if (auto_pad == "NOTSET") {
      s.pad_begin[i] = pads[i];
      s.pad_end[i] = pads[2 + i];
      const int64_t padded = size + s.pad_begin[i] + s.pad_end[i] - span;
      if (padded < 0) return p.error("kernel extent " + std::to_string(span) + " exceeds padded input size");
      s.out[i] = (ceil_mode ? (padded + s.stride[i] - 1) / s.stride[i] : padded / s.stride[i]) + 1;
      // ceil_mode must not start a window in the end padding (ONNX / PyTorch rule).
      if (ceil_mode && (s.out[i] - 1) * s.stride[i] >= size + s.pad_begin[i]) --s.out[i];
    } else if (auto_pad == "VALID") {
      s.pad_begin[i] = s.pad_end[i] = 0;
      if (size < span) return p.error("kernel extent " + std::to_string(span) + " exceeds input size");
      s.out[i] = (size - span) / s.stride[i] + 1;
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      s.out[i] = (size + s.stride[i] - 1) / s.stride[i];
      const int64_t total = std::max<int64_t>(0, (s.out[i] - 1) * s.stride[i] + span - size);
      const int64_t small = total / 2;
      s.pad_begin[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      s.pad_end[i] = total - s.pad_begin[i];
    } else {
      return p.error("attribute \"auto_pad\" has unknown value \"" + auto_pad + "\"");
    }
    if (s.out[i] <= 0) return p.error("output size is not positive");
  }
  ParsedWindow w;
  w.window = {s.kernel[0],   s.kernel[1],    s.stride[0],    s.stride[1],  s.dilation[0],
              s.dilation[1], s.pad_begin[0], s.pad_begin[1], s.pad_end[0], s.pad_end[1]};
  w.out_h = s.out[0];
  w.out_w = s.out[1];
  return w;
}

}  // namespace tessera::ops
