// Expand: the output shape is the numpy broadcast of the input's and the target's (both
// ways: a target 1 keeps the input's size); the copy reads through broadcast strides.
#include "core/ops/expand.h"

#include "core/ops/binary.h"
#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_expand(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> target, p.constant_ints(1, "shape"));
  for (int64_t d : target) {
    if (d < 1) return p.error("shape " + shape_string(target) + " must hold positive sizes");
  }
  Shape out;
  if (!broadcast_shapes(p.shape(0), target, &out)) {
    return p.error("cannot expand " + shape_string(p.shape(0)) + " to " + shape_string(target));
  }
  return ParsedOp{ExpandAttrs{}, out, {}, p.dtype(0)};
}

OpCost cost(const ExpandAttrs&, const OpShapes& s, const Region& out) {
  return {0, 4.0 * static_cast<double>(out.element_count() +
                                       broadcast_footprint(s.inputs[0], s.output, out).element_count())};
}

std::optional<Region> footprint(const ExpandAttrs&, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // the shape is constant
  return broadcast_footprint(s.inputs[0], s.output, out);
}

TilingHints tiling_hints(const ExpandAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ExpandAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ExpandAttrs&, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* in = static_cast<const T*>(in_data[0]);
    T* out = static_cast<T*>(out_data);
    // Element by element: dims align from the right; an input dim of 1 reads index 0.
    const Shape& xs = s.inputs[0];
    const Shape& ys = s.output;
    const size_t shift = ys.size() - xs.size();
    std::vector<int64_t> index(ys.size(), 0);
    const int64_t count = element_count(ys);
    for (int64_t e = 0; e < count; ++e) {
      int64_t offset = 0;
      for (size_t d = 0; d < xs.size(); ++d) offset = offset * xs[d] + (xs[d] == 1 ? 0 : index[d + shift]);
      out[e] = in[offset];
      for (int d = static_cast<int>(ys.size()) - 1; d >= 0 && ++index[d] == ys[d]; --d) index[d] = 0;
    }
  });
}

namespace {

template <class T>
class ExpandKernel final : public TileKernel {
 public:
  explicit ExpandKernel(const BindArgs& args)
      : in_(args.inputs[0]), out_(args.output), from_(broadcast_strides(in_.shape, in_.strides, out_.shape)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    copy_region(region, out_.layout, from_, input_data<T>(in_, ctx), out_.strides, tensor_data<T>(out_, ctx));
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("broadcast_copy"); }

 private:
  TensorBinding in_, out_;
  Strides from_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ExpandAttrs&, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<ExpandKernel<decltype(zero)>>(args);
  });
}

}  // namespace tessera::ops
