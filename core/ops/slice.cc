// Slice and Split: ONNX index arithmetic (negative indices and steps, clamping, split sizes)
// into per-dimension start and step, and the strided copy both run as.
#include "core/ops/slice.h"

#include <algorithm>

#include "core/ops/move_kernel.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

SliceAttrs whole(const Shape& in) {
  SliceAttrs a;
  a.start.assign(in.size(), 0);
  a.step.assign(in.size(), 1);
  return a;
}

}  // namespace

Result<ParsedOp> parse_slice(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 5));
  const Shape& in = p.shape(0);
  const int rank = static_cast<int>(in.size());
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> starts, p.constant_ints(1, "starts"));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> ends, p.constant_ints(2, "ends"));
  std::vector<int64_t> axes, steps(starts.size(), 1);
  for (int d = 0; d < static_cast<int>(starts.size()); ++d) axes.push_back(d);
  if (p.has_input(3)) {
    TESSERA_ASSIGN_OR_RETURN(axes, p.constant_ints(3, "axes"));
  }
  if (p.has_input(4)) {
    TESSERA_ASSIGN_OR_RETURN(steps, p.constant_ints(4, "steps"));
  }
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
    return p.error("starts, ends, axes and steps must have the same length");
  }
  SliceAttrs a = whole(in);
  Shape out = in;
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axes[i], rank, "axis"));
    if (seen[d]) return p.error("axis " + std::to_string(axes[i]) + " is repeated");
    seen[d] = true;
    const int64_t step = steps[i], size = in[d];
    if (step == 0) return p.error("steps must not be 0");
    // Negative indices count from the end; then clamp (ONNX: [0, size] going forward,
    // [-1, size - 1] going backward, where -1 is the exclusive end before index 0).
    int64_t start = starts[i] < 0 ? starts[i] + size : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + size : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, size);
      end = std::clamp<int64_t>(end, 0, size);
    } else {
      start = std::clamp<int64_t>(start, 0, size - 1);
      end = std::clamp<int64_t>(end, -1, size - 1);
    }
    const int64_t span = step > 0 ? end - start : start - end;
    const int64_t magnitude = step > 0 ? step : (step == INT64_MIN ? INT64_MAX : -step);
    const int64_t count = span <= 0 ? 0 : (span - 1) / magnitude + 1;
    if (count == 0) {
      return p.error("the slice along axis " + std::to_string(d) + " is empty (Tessera has no empty tensors)");
    }
    a.start[d] = start;
    a.step[d] = count == 1 ? 1 : step;  // one element: any step reads the same index
    out[d] = count;
  }
  return ParsedOp{a, out, {}, p.dtype(0)};
}

Result<ParsedOp> parse_split(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 2));
  const Shape& in = p.shape(0);
  const int64_t outputs = static_cast<int64_t>(p.desc().outputs.size());
  TESSERA_ASSIGN_OR_RETURN(int64_t axis_attribute, p.get_int("axis", 0));
  TESSERA_ASSIGN_OR_RETURN(int axis, normalize_axis(p, axis_attribute, static_cast<int>(in.size()), "axis"));
  const int64_t size = in[axis];
  const bool attribute_given = p.has_attribute("split");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, p.get_ints("split", {}));
  const bool num_given = p.has_attribute("num_outputs");
  TESSERA_ASSIGN_OR_RETURN(int64_t num_outputs, p.get_int("num_outputs", outputs));
  if (p.has_input(1)) {
    if (attribute_given) return p.error("split sizes are given both as input and attribute");
    TESSERA_ASSIGN_OR_RETURN(sizes, p.constant_ints(1, "split"));
  }
  const bool sizes_given = p.has_input(1) || attribute_given;
  if (sizes_given && num_given) return p.error("split sizes and num_outputs exclude each other");
  if (num_outputs != outputs) {
    return p.error("num_outputs " + std::to_string(num_outputs) + " does not match the " + std::to_string(outputs) +
                   " outputs");
  }
  if (!sizes_given) {
    // Equal chunks; with num_outputs (opset 18) the last chunk may be smaller.
    const int64_t chunk = (size + outputs - 1) / outputs;
    if (!num_given && size % outputs != 0) {
      return p.error("axis " + std::to_string(axis) + " of size " + std::to_string(size) + " does not split into " +
                     std::to_string(outputs) + " equal parts");
    }
    sizes.assign(outputs, chunk);
    sizes.back() = size - chunk * (outputs - 1);
  }
  if (static_cast<int64_t>(sizes.size()) != outputs) {
    return p.error("split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(outputs) + " outputs");
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0) return p.error("split sizes must be positive (Tessera has no empty tensors)");
    total += s;
  }
  if (total != size) {
    return p.error("split sizes add up to " + std::to_string(total) + ", axis " + std::to_string(axis) + " has " +
                   std::to_string(size));
  }
  std::vector<ParsedOp> parts;
  int64_t offset = 0;
  for (int64_t s : sizes) {
    SliceAttrs a = whole(in);
    a.start[axis] = offset;
    Shape out = in;
    out[axis] = s;
    parts.push_back({a, out, {}, p.dtype(0)});
    offset += s;
  }
  ParsedOp first = std::move(parts[0]);
  first.more_outputs.assign(std::make_move_iterator(parts.begin() + 1), std::make_move_iterator(parts.end()));
  return first;
}

OpCost cost(const SliceAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const SliceAttrs& a, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // starts, ends, axes, steps are constants
  Region r = out;
  for (int d = 0; d < r.rank; ++d) {
    const int64_t first = a.start[d] + out.begin[d] * a.step[d];
    const int64_t last = a.start[d] + (out.end[d] - 1) * a.step[d];
    r.begin[d] = std::min(first, last);
    r.end[d] = std::max(first, last) + 1;
  }
  return r;
}

TilingHints tiling_hints(const SliceAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const SliceAttrs&, const OpShapes& s, const LayoutQuery& q) {
  // The input is read through its strides: keep its layout (a channel split of an NHWC
  // tensor stays NHWC between convolutions).
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.output = q.constant[0] ? Layout::identity(static_cast<int>(s.output.size())) : q.inputs[0];
  return c;
}

namespace {

// Copies `region` of the output from x (strides `from`) into y (strides `to`).
struct StridedCopy {
  template <class T>
  static void copy(const SliceAttrs& a, const Region& region, const Layout& order, const Strides& from, const T* x,
                   const Strides& to, T* y) {
    Strides stepped{};
    int64_t origin = 0;
    for (int d = 0; d < region.rank; ++d) {
      stepped[d] = a.step[d] * from[d];
      origin += a.start[d] * from[d];
    }
    copy_region(region, order, stepped, x + origin, to, y);
  }
};

}  // namespace

void reference(const SliceAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
    StridedCopy::copy(a, Region::whole(s.output), identity, logical_strides(s.inputs[0], identity),
                      static_cast<const T*>(in[0]), logical_strides(s.output, identity), static_cast<T*>(out));
  });
}

Result<std::unique_ptr<TileKernel>> bind(const SliceAttrs& a, const BindArgs& args) {
  return bind_move<SliceAttrs, StridedCopy>(a, args, "strided_copy");
}

}  // namespace tessera::ops
