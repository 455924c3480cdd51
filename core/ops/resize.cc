// Resize semantics as the ONNX reference (onnx/reference/ops/op_resize.py) defines them:
// output sizes, the coordinate transforms, nearest rounding, the source-hull footprint and a
// reference that interpolates one output element at a time the way the ONNX reference does.
#include "core/ops/resize.h"

#include <algorithm>
#include <cmath>

#include "core/base/checked_math.h"
#include "core/ops/parsers.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

using ResizeMode = ResizeAttrs::Mode;
using Coordinates = ResizeAttrs::Coordinates;
using Nearest = ResizeAttrs::Nearest;

template <class T>
Result<T> pick(const NodeParser& p, const char* attribute, const std::string& value,
               std::initializer_list<std::pair<const char*, T>> choices) {
  for (const auto& [name, choice] : choices) {
    if (value == name) return choice;
  }
  return p.error("attribute \"" + std::string(attribute) + "\" value \"" + value + "\" is not supported");
}

Status parse_modes(NodeParser& p, ResizeAttrs* a) {
  TESSERA_ASSIGN_OR_RETURN(std::string mode, p.get_string("mode", "nearest"));
  if (mode == "cubic") return p.error("mode \"cubic\" is not supported (nearest and linear are)");
  TESSERA_ASSIGN_OR_RETURN(
      a->mode, pick<ResizeMode>(p, "mode", mode, {{"nearest", ResizeMode::kNearest}, {"linear", ResizeMode::kLinear}}));
  TESSERA_ASSIGN_OR_RETURN(std::string transform, p.get_string("coordinate_transformation_mode", "half_pixel"));
  if (transform == "tf_crop_and_resize")
    return p.error("coordinate_transformation_mode \"tf_crop_and_resize\" is not supported");
  TESSERA_ASSIGN_OR_RETURN(a->coordinates,
                           pick<Coordinates>(p, "coordinate_transformation_mode", transform,
                                             {{"half_pixel", Coordinates::kHalfPixel},
                                              {"half_pixel_symmetric", Coordinates::kHalfPixelSymmetric},
                                              {"pytorch_half_pixel", Coordinates::kPytorchHalfPixel},
                                              {"align_corners", Coordinates::kAlignCorners},
                                              {"asymmetric", Coordinates::kAsymmetric}}));
  TESSERA_ASSIGN_OR_RETURN(std::string nearest, p.get_string("nearest_mode", "round_prefer_floor"));
  TESSERA_ASSIGN_OR_RETURN(a->nearest, pick<Nearest>(p, "nearest_mode", nearest,
                                                     {{"round_prefer_floor", Nearest::kRoundPreferFloor},
                                                      {"round_prefer_ceil", Nearest::kRoundPreferCeil},
                                                      {"floor", Nearest::kFloor},
                                                      {"ceil", Nearest::kCeil}}));
  TESSERA_ASSIGN_OR_RETURN(int64_t exclude_outside, p.get_int("exclude_outside", 0));
  if (exclude_outside != 0) return p.error("exclude_outside must be 0");
  TESSERA_ASSIGN_OR_RETURN(int64_t antialias, p.get_int("antialias", 0));
  if (antialias != 0) return p.error("antialias must be 0");
  // Only cubic interpolation and tf_crop_and_resize read these.
  TESSERA_RETURN_IF_ERROR(p.get_float("cubic_coeff_a", -0.75f).status());
  TESSERA_RETURN_IF_ERROR(p.get_float("extrapolation_value", 0.0f).status());
  return Status();
}

}  // namespace

Result<ParsedOp> parse_resize(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 4));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  const Shape& x = p.shape(0);
  const int rank = static_cast<int>(x.size());
  if (rank == 0) return p.error("cannot resize a scalar");
  ResizeAttrs a;
  TESSERA_RETURN_IF_ERROR(parse_modes(p, &a));
  TESSERA_ASSIGN_OR_RETURN(std::string policy, p.get_string("keep_aspect_ratio_policy", "stretch"));
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller") {
    return p.error("attribute \"keep_aspect_ratio_policy\" value \"" + policy + "\" is not supported");
  }
  std::vector<int> axes;
  std::vector<int64_t> axes_attribute;
  TESSERA_ASSIGN_OR_RETURN(axes_attribute, p.get_ints("axes", {}));
  std::vector<bool> listed(rank, false);
  for (int64_t axis : axes_attribute) {
    TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axis, rank, "axis"));
    if (listed[d]) return p.error("axis " + std::to_string(axis) + " is repeated");
    listed[d] = true;
    axes.push_back(d);
  }
  if (axes_attribute.empty()) {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  }
  const bool has_scales = p.has_input(2), has_sizes = p.has_input(3);
  if (has_scales == has_sizes) return p.error("needs exactly one of scales (input 2) and sizes (input 3)");
  const size_t expected = axes.size();
  a.scale.assign(rank, 1.0);
  a.output_width.assign(x.begin(), x.end());
  Shape out = x;
  if (has_scales) {
    const float* scales = p.constant_floats(2);
    if (scales == nullptr) return p.error("scales (input 2) must be a float32 initializer");
    if (static_cast<size_t>(element_count(p.shape(2))) != expected) {
      return p.error("scales must hold " + std::to_string(expected) + " values");
    }
    for (size_t i = 0; i < expected; ++i) {
      const int d = axes[i];
      const float s = scales[i];
      if (!(s > 0.0f) || !std::isfinite(s)) return p.error("scales must be positive and finite");
      // As the ONNX reference: the size in float64, the fractional width in float32.
      const double size = std::floor(static_cast<double>(s) * static_cast<double>(x[d]));
      if (size < 1 || size > static_cast<double>(kMaxTensorElements)) {
        return p.error("scale " + std::to_string(s) + " gives an output size outside 1 to " +
                       std::to_string(kMaxTensorElements) + " on axis " + std::to_string(d));
      }
      out[d] = static_cast<int64_t>(size);
      a.scale[d] = s;
      a.output_width[d] = static_cast<double>(s * static_cast<float>(x[d]));
    }
  } else {
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, p.constant_ints(3, "sizes"));
    if (sizes.size() != expected) return p.error("sizes must hold " + std::to_string(expected) + " values");
    for (size_t i = 0; i < expected; ++i) {
      if (sizes[i] < 1 || sizes[i] > kMaxTensorElements) {
        return p.error("sizes must be from 1 to " + std::to_string(kMaxTensorElements));
      }
      a.scale[axes[i]] = static_cast<double>(sizes[i]) / static_cast<double>(x[axes[i]]);
    }
    if (policy != "stretch") {
      double scale = a.scale[axes[0]];
      for (int d : axes) scale = policy == "not_larger" ? std::min(scale, a.scale[d]) : std::max(scale, a.scale[d]);
      for (int d : axes) a.scale[d] = scale;
    }
    for (size_t i = 0; i < expected; ++i) {
      const int d = axes[i];
      a.output_width[d] = a.scale[d] * static_cast<double>(x[d]);
      // stretch: the sizes themselves; else the common scale's size, rounded half up.
      out[d] = policy == "stretch" ? sizes[i] : static_cast<int64_t>(a.output_width[d] + 0.5);
      if (out[d] < 1 || out[d] > kMaxTensorElements) {
        return p.error("output size on axis " + std::to_string(d) + " is not from 1 to " +
                       std::to_string(kMaxTensorElements));
      }
    }
  }
  if (p.has_input(1)) TESSERA_RETURN_IF_ERROR(p.expect_float(1));  // roi: only tf_crop_and_resize reads it
  return ParsedOp{a, out};
}

double resize_source_coordinate(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size, int64_t x) {
  const double scale = a.scale[dim];
  const double width = a.output_width[dim];
  const double xd = static_cast<double>(x);
  switch (a.coordinates) {
    case Coordinates::kHalfPixel: return (xd + 0.5) / scale - 0.5;
    case Coordinates::kHalfPixelSymmetric: {
      const double adjustment = static_cast<double>(out_size) / width;
      const double center = static_cast<double>(in_size) / 2;
      return center * (1 - adjustment) + (xd + 0.5) / scale - 0.5;
    }
    case Coordinates::kPytorchHalfPixel: return width == 1 ? -0.5 : (xd + 0.5) / scale - 0.5;
    case Coordinates::kAlignCorners: return width == 1 ? 0.0 : xd * static_cast<double>(in_size - 1) / (width - 1);
    case Coordinates::kAsymmetric: return xd / scale;
  }
  return 0;
}

ResizeTap resize_tap(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size, int64_t x) {
  if (!a.resizes(dim)) return {x, x, 0};
  const double source = resize_source_coordinate(a, dim, in_size, out_size, x);
  const double below = std::floor(source);
  const double fraction = source - below;
  auto clamp = [&](double i) { return static_cast<int64_t>(std::clamp(i, 0.0, static_cast<double>(in_size - 1))); };
  if (a.mode == ResizeMode::kLinear) {
    if (fraction == 0) return {clamp(below), clamp(below), 0};
    return {clamp(below), clamp(below + 1), fraction};
  }
  bool up = false;
  if (fraction != 0) {
    switch (a.nearest) {
      case Nearest::kRoundPreferFloor: up = fraction > 0.5; break;
      case Nearest::kRoundPreferCeil: up = fraction >= 0.5; break;
      case Nearest::kFloor: up = false; break;
      case Nearest::kCeil: up = true; break;
    }
  }
  const int64_t i = clamp(below + (up ? 1 : 0));
  return {i, i, 0};
}

OpCost cost(const ResizeAttrs& a, const OpShapes& s, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  int resized = 0;
  for (size_t d = 0; d < a.scale.size(); ++d) resized += a.resizes(static_cast<int>(d)) ? 1 : 0;
  const double flops = a.mode == ResizeMode::kLinear ? n * 3.0 * resized : 0.0;
  return {.flops = flops,
          .bytes = 4.0 * n + 4.0 * static_cast<double>(footprint(a, s, out, 0)->element_count()),
          .kind = flops > 0 ? WorkKind::kElementwise : WorkKind::kCopy};
}

std::optional<Region> footprint(const ResizeAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // roi, scales and sizes are constants
  const Shape& x = s.inputs[0];
  Region r = out;
  // Source indices are non-decreasing in the output index: the hull spans the ends' taps.
  for (int d = 0; d < r.rank; ++d) {
    const ResizeTap first = resize_tap(a, d, x[d], s.output[d], out.begin[d]);
    const ResizeTap last = resize_tap(a, d, x[d], s.output[d], out.end[d] - 1);
    r.begin[d] = std::min(first.i0, first.i1);
    r.end[d] = std::max(last.i0, last.i1) + 1;
  }
  return r;
}

TilingHints tiling_hints(const ResizeAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ResizeAttrs& a, const OpShapes& s, const LayoutQuery&) {
  const int rank = static_cast<int>(s.output.size());
  const Layout layout = a.spatial_only() ? Layout::nhwc() : Layout::identity(rank);
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.inputs[0] = layout;
  c.output = layout;
  return c;
}

namespace {

// The ONNX reference along one axis: the two neighbours of the sample point in the
// edge-padded input (for an integral point, the pixel before it and itself) and their
// coefficients: [1 - ratio, ratio] for linear, a 0/1 choice for nearest.
struct ReferenceTaps {
  int64_t index[2];
  double coeff[2];
};

ReferenceTaps reference_taps(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size, int64_t x) {
  const double source = resize_source_coordinate(a, dim, in_size, out_size, x);
  const double below = std::floor(source);
  const bool integral = source == below;
  const double ratio = integral ? 1.0 : source - below;
  const int64_t left = static_cast<int64_t>(integral ? below - 1 : below);
  ReferenceTaps t;
  for (int k = 0; k < 2; ++k) t.index[k] = std::clamp<int64_t>(left + k, 0, in_size - 1);
  if (a.mode == ResizeMode::kLinear) {
    t.coeff[0] = 1 - ratio, t.coeff[1] = ratio;
    return t;
  }
  bool second = true;  // an integral point picks itself
  if (!integral) {
    switch (a.nearest) {
      case Nearest::kRoundPreferFloor: second = ratio > 0.5; break;
      case Nearest::kRoundPreferCeil: second = ratio >= 0.5; break;
      case Nearest::kFloor: second = false; break;
      case Nearest::kCeil: second = true; break;
    }
  }
  t.coeff[0] = second ? 0 : 1, t.coeff[1] = second ? 1 : 0;
  return t;
}

}  // namespace

void reference(const ResizeAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Shape& xs = s.inputs[0];
  const Shape& ys = s.output;
  const int rank = static_cast<int>(xs.size());
  std::vector<std::vector<ReferenceTaps>> taps(rank);
  for (int d = 0; d < rank; ++d) {
    for (int64_t o = 0; o < ys[d]; ++o) taps[d].push_back(reference_taps(a, d, xs[d], ys[d], o));
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t count = element_count(ys);
  for (int64_t e = 0; e < count; ++e) {
    // Sum over the 2^rank neighbour combinations, in double as the reference does.
    double value = 0;
    for (int corner = 0; corner < (1 << rank); ++corner) {
      double weight = 1;
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) {
        const int k = (corner >> d) & 1;
        weight *= taps[d][index[d]].coeff[k];
        offset = offset * xs[d] + taps[d][index[d]].index[k];
      }
      if (weight != 0) value += weight * in[0][offset];
    }
    out[e] = static_cast<float>(value);
    for (int d = rank - 1; d >= 0 && ++index[d] == ys[d]; --d) index[d] = 0;
  }
}

}  // namespace tessera::ops
