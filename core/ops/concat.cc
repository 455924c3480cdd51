// Concat: an output tile copies, from each input, the slice of it that the tile covers.
#include "core/ops/concat.h"

#include <algorithm>

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_concat(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1 << 16));
  ConcatAttrs a;
  const Shape& first = p.shape(0);
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", 0));
  if (!p.has_attribute("axis")) return p.error("attribute \"axis\" is required");
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, static_cast<int>(first.size()), "axis"));
  Shape out = first;
  out[a.axis] = 0;
  for (size_t i = 0; i < p.num_inputs(); ++i) {
    if (!p.has_input(i)) return p.error("input " + std::to_string(i) + " is missing");
    TESSERA_RETURN_IF_ERROR(p.expect_dtype(i, {p.dtype(0)}));
    const Shape& s = p.shape(i);
    bool matches = s.size() == first.size();
    for (size_t d = 0; matches && d < s.size(); ++d) matches = static_cast<int>(d) == a.axis || s[d] == first[d];
    if (!matches) {
      return p.error("input " + std::to_string(i) + " " + shape_string(s) + " does not match " + shape_string(first) +
                     " outside axis " + std::to_string(a.axis));
    }
    out[a.axis] += s[a.axis];
  }
  return ParsedOp{a, out, {}, p.dtype(0)};
}

namespace {

// Where input i starts along the axis.
int64_t input_offset(const ConcatAttrs& a, const OpShapes& s, int input) {
  int64_t offset = 0;
  for (int i = 0; i < input; ++i) offset += s.inputs[i][a.axis];
  return offset;
}

}  // namespace

OpCost cost(const ConcatAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const ConcatAttrs& a, const OpShapes& s, const Region& out, int input) {
  const int64_t offset = input_offset(a, s, input);
  Region r = out;
  r.begin[a.axis] = std::max(out.begin[a.axis], offset) - offset;
  r.end[a.axis] = std::min(out.end[a.axis], offset + s.inputs[input][a.axis]) - offset;
  if (r.empty()) return std::nullopt;
  return r;
}

TilingHints tiling_hints(const ConcatAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ConcatAttrs&, const OpShapes& s, const LayoutQuery& q) {
  // Inputs are read through their own strides; produce the first run-time input's layout.
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.output = Layout::identity(static_cast<int>(s.output.size()));
  for (size_t i = 0; i < q.inputs.size(); ++i) {
    if (!q.constant[i]) {
      c.output = q.inputs[i];
      break;
    }
  }
  return c;
}

namespace {

// Copies the part of `region` that input i covers, from `x` (strides `from`) into `y`.
template <class T>
void copy_slice(const ConcatAttrs& a, const OpShapes& s, int i, const Region& region, const Layout& out_layout,
                const Strides& from, const T* x, const Strides& to, T* y) {
  const std::optional<Region> src = footprint(a, s, region, i);
  if (!src) return;
  // The output's part is the input's region moved along the axis by the input's offset.
  copy_region(*src, out_layout, from, x, to, y + input_offset(a, s, i) * to[a.axis]);
}

}  // namespace

void reference(const ConcatAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      copy_slice(a, s, static_cast<int>(i), Region::whole(s.output), identity, logical_strides(s.inputs[i], identity),
                 static_cast<const T*>(in[i]), logical_strides(s.output, identity), static_cast<T*>(out));
    }
  });
}

namespace {

template <class T>
class ConcatKernel final : public TileKernel {
 public:
  ConcatKernel(const ConcatAttrs& a, const BindArgs& args)
      : attrs_(a), shapes_(args.shapes), in_(args.inputs), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    T* y = tensor_data<T>(out_, ctx);
    for (size_t i = 0; i < in_.size(); ++i) {
      copy_slice(attrs_, shapes_, static_cast<int>(i), region, out_.layout, in_[i].strides, input_data<T>(in_[i], ctx),
                 out_.strides, y);
    }
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("concat_copy"); }

 private:
  ConcatAttrs attrs_;
  OpShapes shapes_;
  std::vector<TensorBinding> in_;
  TensorBinding out_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ConcatAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<ConcatKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
