// Transpose and Relayout: a permuted copy between strided tensors.
#include "core/ops/transpose.h"

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_transpose(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  const Shape& in = p.shape(0);
  const int rank = static_cast<int>(in.size());
  std::vector<int64_t> reversed;
  for (int d = rank - 1; d >= 0; --d) reversed.push_back(d);
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> perm, p.get_ints("perm", reversed, rank));
  TransposeAttrs a;
  std::vector<bool> seen(rank, false);
  Shape out;
  for (int64_t d : perm) {
    if (d < 0 || d >= rank || seen[d])
      return p.error("attribute \"perm\" is not a permutation of 0.." + std::to_string(rank - 1));
    seen[d] = true;
    a.perm.push_back(static_cast<int>(d));
    out.push_back(in[d]);
  }
  return ParsedOp{a, out, {}, p.dtype(0)};
}

namespace {

// Output logical strides expressed on the input's dimensions: in[perm[d]] = out[d].
Strides input_strides_on_output(const TransposeAttrs& a, const Strides& input_strides) {
  Strides s{};
  for (size_t d = 0; d < a.perm.size(); ++d) s[d] = input_strides[a.perm[d]];
  return s;
}

}  // namespace

OpCost cost(const TransposeAttrs&, const OpShapes&, const Region& out) {
  return {.flops = 0, .bytes = 8.0 * static_cast<double>(out.element_count()), .kind = WorkKind::kPermute};
}

std::optional<Region> footprint(const TransposeAttrs& a, const OpShapes& s, const Region& out, int) {
  Region r = Region::whole(s.inputs[0]);
  for (size_t d = 0; d < a.perm.size(); ++d) {
    r.begin[a.perm[d]] = out.begin[d];
    r.end[a.perm[d]] = out.end[d];
  }
  return r;
}

TilingHints tiling_hints(const TransposeAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const TransposeAttrs& a, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt}, a.output_layout.value_or(Layout::identity(static_cast<int>(s.output.size())))};
}

void reference(const TransposeAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* in = static_cast<const T*>(in_data[0]);
    T* out = static_cast<T*>(out_data);
    const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
    const Strides from = input_strides_on_output(a, logical_strides(s.inputs[0], identity));
    walk_region(Region::whole(s.output), identity, std::array<Strides, 2>{from, logical_strides(s.output, identity)},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                  for (int64_t i = 0; i < count; ++i) out[off[1] + i * step[1]] = in[off[0] + i * step[0]];
                });
  });
}

namespace {

template <class T>
class TransposeKernel final : public TileKernel {
 public:
  TransposeKernel(const TransposeAttrs& a, const BindArgs& args)
      : in_(args.inputs[0]), out_(args.output), from_(input_strides_on_output(a, in_.strides)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    copy_region(region, out_.layout, from_, input_data<T>(in_, ctx), out_.strides, tensor_data<T>(out_, ctx));
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("permute_copy"); }

 private:
  TensorBinding in_, out_;
  Strides from_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const TransposeAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<TransposeKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
