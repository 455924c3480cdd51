// ArgMax / ArgMin: attributes and shape, a footprint of whole rows along the axis, and the
// kernel: each output element scans its row (values ranked by rank_less: NaN above numbers).
#include "core/ops/arg_reduce.h"

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_arg_reduce(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kFloat32, DType::kInt64, DType::kInt32}));
  const Shape& in = p.shape(0);
  ArgReduceAttrs a;
  a.max = p.desc().op == "ArgMax";
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", 0));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, static_cast<int>(in.size()), "axis"));
  TESSERA_ASSIGN_OR_RETURN(int64_t keepdims, p.get_int("keepdims", 1));
  TESSERA_ASSIGN_OR_RETURN(int64_t last, p.get_int("select_last_index", 0));
  a.keepdims = keepdims != 0;
  a.select_last_index = last != 0;
  Shape out = in;
  if (a.keepdims) {
    out[a.axis] = 1;
  } else {
    out.erase(out.begin() + a.axis);
  }
  TESSERA_RETURN_IF_ERROR(p.check_work(out, in[a.axis]));
  return ParsedOp{a, out, {}, DType::kInt64};
}

namespace {

// The input dimension output dimension o stands for (-1: the kept axis of size 1).
int input_dim(const ArgReduceAttrs& a, int o) {
  if (a.keepdims) return o == a.axis ? -1 : o;
  return o < a.axis ? o : o + 1;
}

// Index of the winner among n values at x[0], x[step], ...: ArgMax keeps the first of the
// largest (select_last_index: the last), ArgMin the same for the smallest.
template <class T>
int64_t arg_of(const ArgReduceAttrs& a, const T* x, int64_t n, int64_t step) {
  int64_t best = 0;
  T value = x[0];
  for (int64_t i = 1; i < n; ++i) {
    const T v = x[i * step];
    const bool wins = a.max ? (a.select_last_index ? !rank_less(v, value) : rank_less(value, v))
                            : (a.select_last_index ? !rank_less(value, v) : rank_less(v, value));
    if (wins) {
      best = i;
      value = v;
    }
  }
  return best;
}

}  // namespace

OpCost cost(const ArgReduceAttrs& a, const OpShapes& s, const Region& out) {
  const double n = static_cast<double>(out.element_count() * s.inputs[0][a.axis]);
  return {n, 4 * n + 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const ArgReduceAttrs& a, const OpShapes& s, const Region& out, int) {
  Region r = Region::whole(s.inputs[0]);  // the axis whole
  for (int o = 0; o < out.rank; ++o) {
    const int d = input_dim(a, o);
    if (d < 0) continue;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  return r;
}

TilingHints tiling_hints(const ArgReduceAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ArgReduceAttrs&, const OpShapes& s, const LayoutQuery&) {
  // The input is read through its strides (an NHWC class map's ArgMax over channels).
  return {{std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ArgReduceAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.input_dtypes[0], [&](auto zero) {
    using T = decltype(zero);
    const T* x = static_cast<const T*>(in[0]);
    int64_t* out = static_cast<int64_t*>(out_data);
    const Shape& shape = s.inputs[0];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < a.axis; ++d) outer *= shape[d];
    for (size_t d = a.axis + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t n = shape[a.axis];
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t k = 0; k < inner; ++k) out[i * inner + k] = arg_of(a, x + i * n * inner + k, n, inner);
    }
  });
}

namespace {

template <class T>
class ArgReduceKernel final : public TileKernel {
 public:
  ArgReduceKernel(const ArgReduceAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {
    for (int o = 0; o < static_cast<int>(out_.shape.size()); ++o) {
      const int d = input_dim(a, o);
      from_[o] = d < 0 ? 0 : in_.strides[d];
    }
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    int64_t* y = tensor_data<int64_t>(out_, ctx);
    const int64_t n = in_.shape[attrs_.axis], step = in_.strides[attrs_.axis];
    walk_region(region, out_.layout, std::array<Strides, 2>{from_, out_.strides},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& inner) {
                  for (int64_t i = 0; i < count; ++i) {
                    y[off[1] + i * inner[1]] = arg_of(attrs_, x + off[0] + i * inner[0], n, step);
                  }
                });
  }
  std::string kernel_name() const override { return typed_kernel_name<T>(attrs_.max ? "argmax_rows" : "argmin_rows"); }

 private:
  ArgReduceAttrs attrs_;
  TensorBinding in_, out_;
  Strides from_{};
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ArgReduceAttrs& a, const BindArgs& args) {
  return visit_dtype(args.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<ArgReduceKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
