// Pure views: shape arithmetic of Reshape, Flatten, Squeeze, Unsqueeze and Identity, on data
// of any dtype (Cast to the input's own dtype is a view too: cast.cc).
#include "core/ops/view.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "core/base/checked_math.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

Status expect_data_input(NodeParser& p, size_t max_inputs) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, max_inputs));
  return Status();
}

// The view of input 0 as `shape`: same bytes, same dtype.
ParsedOp view_of(const NodeParser& p, Shape shape) { return ParsedOp{ViewAttrs{}, std::move(shape), {}, p.dtype(0)}; }

// Axes from the opset-13 input when present, else from the older attribute.
Result<std::vector<int64_t>> axes_input_or_attribute(NodeParser& p, bool* given) {
  *given = p.has_input(1) || p.has_attribute("axes");
  if (p.has_input(1)) {
    if (p.has_attribute("axes")) return p.error("axes are given both as input and attribute");
    return p.constant_ints(1, "axes");
  }
  return p.get_ints("axes", {});
}

}  // namespace

Result<ParsedOp> parse_reshape(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_data_input(p, 2));
  if (!p.has_input(1)) return p.error("needs the target shape as input 1");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> target, p.constant_ints(1, "shape"));
  TESSERA_ASSIGN_OR_RETURN(int64_t allow_zero, p.get_int("allowzero", 0));
  const Shape& in = p.shape(0);
  Shape out;
  int infer_at = -1;
  int64_t known = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == 0 && !allow_zero) {
      if (i >= in.size()) return p.error("shape[" + std::to_string(i) + "] = 0 copies a dimension the input lacks");
      d = in[i];
    }
    if (d == -1) {
      if (infer_at >= 0) return p.error("shape has more than one -1");
      infer_at = static_cast<int>(i);
      out.push_back(1);
      continue;
    }
    if (d <= 0) return p.error("shape[" + std::to_string(i) + "] = " + std::to_string(d) + " is not a positive size");
    if (!checked_mul(known, d, &known) || known > kMaxTensorElements) return p.error("shape is too large");
    out.push_back(d);
  }
  const int64_t total = element_count(in);
  if (infer_at >= 0) {
    if (total % known != 0) {
      return p.error("cannot reshape " + shape_string(in) + " to " + shape_string(Shape(target.begin(), target.end())));
    }
    out[infer_at] = total / known;
  }
  if (element_count(out) != total) {
    return p.error("cannot reshape " + shape_string(in) + " (" + std::to_string(total) + " elements) to " +
                   shape_string(out));
  }
  return view_of(p, out);
}

Result<ParsedOp> parse_flatten(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_data_input(p, 1));
  const Shape& in = p.shape(0);
  const int rank = static_cast<int>(in.size());
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", 1));
  if (axis < -rank || axis > rank)
    return p.error("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < rank; ++d) (d < axis ? outer : inner) *= in[d];
  return view_of(p, Shape{outer, inner});
}

Result<ParsedOp> parse_squeeze(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_data_input(p, 2));
  bool given = false;
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axes_input_or_attribute(p, &given));
  const Shape& in = p.shape(0);
  const int rank = static_cast<int>(in.size());
  std::vector<bool> drop(rank, false);
  if (!given) {
    for (int d = 0; d < rank; ++d) drop[d] = in[d] == 1;
  }
  for (int64_t axis : axes) {
    TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axis, rank, "axis"));
    if (in[d] != 1) return p.error("cannot squeeze axis " + std::to_string(axis) + " of size " + std::to_string(in[d]));
    drop[d] = true;
  }
  Shape out;
  for (int d = 0; d < rank; ++d) {
    if (!drop[d]) out.push_back(in[d]);
  }
  return view_of(p, out);
}

Result<ParsedOp> parse_unsqueeze(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_data_input(p, 2));
  bool given = false;
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axes_input_or_attribute(p, &given));
  if (!given || axes.empty()) return p.error("needs axes");
  const Shape& in = p.shape(0);
  const int out_rank = static_cast<int>(in.size() + axes.size());
  if (out_rank > kMaxRank) return p.error("output rank exceeds 8");
  std::vector<bool> inserted(out_rank, false);
  for (int64_t axis : axes) {
    TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axis, out_rank, "axis"));
    if (inserted[d]) return p.error("axis " + std::to_string(axis) + " is repeated");
    inserted[d] = true;
  }
  Shape out;
  size_t next = 0;
  for (int d = 0; d < out_rank; ++d) out.push_back(inserted[d] ? 1 : in[next++]);
  return view_of(p, out);
}

Result<ParsedOp> parse_identity(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_data_input(p, 1));
  return view_of(p, p.shape(0));
}

OpCost cost(const ViewAttrs&, const OpShapes&, const Region&) { return {}; }

std::optional<Region> footprint(const ViewAttrs&, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;
  return reshape_region(out, s.output, s.inputs[0]);
}

TilingHints tiling_hints(const ViewAttrs&, const OpShapes&, const TilingQuery&) { return {}; }

LayoutChoice choose_layout(const ViewAttrs&, const OpShapes& s, const LayoutQuery&) {
  // Row-major in, row-major out: only then is the output the input's bytes.
  return {{Layout::identity(static_cast<int>(s.inputs[0].size()))},
          Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ViewAttrs&, const OpShapes& s, std::span<const void* const> in, void* out) {
  std::memcpy(out, in[0], dtype_size(s.output_dtype) * static_cast<size_t>(element_count(s.output)));
}

Result<std::unique_ptr<TileKernel>> bind(const ViewAttrs&, const BindArgs& args) {
  return Status::error(args.path + ": internal error: a view has no kernel (the compiler aliases it)");
}

}  // namespace tessera::ops
