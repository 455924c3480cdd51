// The Reduce family: output tiles read whole extents of the reduced axes; a plain strided
// loop in a fixed order, accumulating in double (never hot in the models we serve).
#include "core/ops/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_reduce(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  const Shape& x = p.shape(0);
  const int rank = static_cast<int>(x.size());
  ReduceAttrs a;
  using Kind = ReduceAttrs::Kind;
  static constexpr std::pair<const char*, Kind> kKinds[] = {{"ReduceMean", Kind::kMean},
                                                            {"ReduceSum", Kind::kSum},
                                                            {"ReduceMax", Kind::kMax},
                                                            {"ReduceMin", Kind::kMin},
                                                            {"ReduceProd", Kind::kProd},
                                                            {"ReduceL1", Kind::kL1},
                                                            {"ReduceL2", Kind::kL2},
                                                            {"ReduceLogSum", Kind::kLogSum},
                                                            {"ReduceLogSumExp", Kind::kLogSumExp},
                                                            {"ReduceSumSquare", Kind::kSumSquare}};
  bool known = false;
  for (const auto& [name, kind] : kKinds) {
    if (p.desc().op == name) a.kind = kind, known = true;
  }
  if (!known) return p.error("is not a reduce op");
  TESSERA_ASSIGN_OR_RETURN(int64_t keepdims, p.get_int("keepdims", 1));
  TESSERA_ASSIGN_OR_RETURN(int64_t noop_with_empty_axes, p.get_int("noop_with_empty_axes", 0));
  a.keepdims = keepdims != 0;
  std::vector<int64_t> axes;
  if (p.has_input(1)) {
    if (p.has_attribute("axes")) return p.error("axes are given both as input and attribute");
    TESSERA_ASSIGN_OR_RETURN(axes, p.constant_ints(1, "axes"));
  } else {
    TESSERA_ASSIGN_OR_RETURN(axes, p.get_ints("axes", {}));
  }
  a.reduced.assign(rank, axes.empty() && !noop_with_empty_axes);
  for (int64_t axis : axes) {
    TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axis, rank, "axis"));
    if (a.reduced[d]) return p.error("axis " + std::to_string(axis) + " is repeated");
    a.reduced[d] = true;
  }
  Shape out;
  for (int d = 0; d < rank; ++d) {
    if (!a.reduced[d])
      out.push_back(x[d]);
    else if (a.keepdims)
      out.push_back(1);
  }
  if (out.empty()) out.push_back(1);  // a full reduction without keepdims: a scalar, kept as [1]
  return ParsedOp{a, out};
}

namespace {

// Output dimension that input dimension d maps to, or -1 when it is reduced away.
int output_dim(const ReduceAttrs& a, int d) {
  if (a.keepdims) return d;
  int o = 0;
  for (int i = 0; i < d; ++i) o += a.reduced[i] ? 0 : 1;
  return a.reduced[d] ? -1 : o;
}

}  // namespace

OpCost cost(const ReduceAttrs& a, const OpShapes& s, const Region& out) {
  const double read = static_cast<double>(footprint(a, s, out, 0)->element_count());
  return {.flops = read,
          .bytes = 4 * read + 4.0 * static_cast<double>(out.element_count()),
          .kind = WorkKind::kElementwise};
}

std::optional<Region> footprint(const ReduceAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;
  Region r = Region::whole(s.inputs[0]);
  for (int d = 0; d < r.rank; ++d) {
    const int o = output_dim(a, d);
    if (a.reduced[d] || o < 0) continue;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  return r;
}

TilingHints tiling_hints(const ReduceAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ReduceAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{Layout::identity(static_cast<int>(s.inputs[0].size()))},
          Layout::identity(static_cast<int>(s.output.size()))};
}

namespace {

using Kind = ReduceAttrs::Kind;

// One output value from the values of its window; `each(fn)` calls fn on every value in a
// fixed order. An empty set of axes (noop_with_empty_axes) reduces windows of one value, so
// e.g. ReduceSumSquare squares, as the ONNX reference does.
template <class Each>
double reduce_window(Kind kind, double epsilon, int64_t count, const Each& each) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  switch (kind) {
    case Kind::kInvStdDev: {
      // Two passes, as LayerNormalization defines its statistics.
      double mean = 0, variance = 0;
      each([&](double v) { mean += v; });
      mean /= static_cast<double>(count);
      each([&](double v) { variance += (v - mean) * (v - mean); });
      return 1.0 / std::sqrt(variance / static_cast<double>(count) + epsilon);
    }
    case Kind::kMax:
    case Kind::kMin: {
      double r = kind == Kind::kMax ? -kInf : kInf;
      bool nan = false;
      each([&](double v) {
        nan = nan || std::isnan(v);
        r = kind == Kind::kMax ? std::max(r, v) : std::min(r, v);
      });
      return nan ? std::numeric_limits<double>::quiet_NaN() : r;
    }
    case Kind::kProd: {
      double r = 1;
      each([&](double v) { r *= v; });
      return r;
    }
    case Kind::kLogSumExp: {
      // Shifted by the largest finite maximum so that exp cannot overflow.
      double top = -kInf;
      each([&](double v) { top = std::max(top, v); });
      const double shift = std::isfinite(top) ? top : 0.0;
      double sum = 0;
      each([&](double v) { sum += std::exp(v - shift); });
      return std::log(sum) + shift;
    }
    default: break;
  }
  double sum = 0;
  each([&](double v) {
    sum += kind == Kind::kL1 ? std::fabs(v) : kind == Kind::kL2 || kind == Kind::kSumSquare ? v * v : v;
  });
  switch (kind) {
    case Kind::kMean: return sum / static_cast<double>(count);
    case Kind::kL2: return std::sqrt(sum);
    case Kind::kLogSum: return std::log(sum);
    default: return sum;
  }
}

// Reduces the reduced axes for every output element of `region`, in a fixed order.
void reduce(const ReduceAttrs& a, const Shape& in_shape, const Strides& in_strides, const Shape& out_shape,
            const Strides& out_strides, const Region& region, const float* x, float* y) {
  const int rank = static_cast<int>(in_shape.size());
  Region window;  // the reduced axes, relative to an output element's first input
  window.rank = rank;
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    window.end[d] = a.reduced[d] ? in_shape[d] : 1;
    count *= window.end[d];
  }
  const Layout in_order = Layout::identity(rank);
  // Walk output elements; map each to its first input element.
  Strides from{};
  for (int d = 0; d < rank; ++d) {
    const int o = output_dim(a, d);
    if (o >= 0 && !a.reduced[d]) from[o] = in_strides[d];
  }
  walk_region(region, Layout::identity(static_cast<int>(out_shape.size())), std::array<Strides, 2>{from, out_strides},
              [&](const std::array<int64_t, 2>& off, int64_t n, const std::array<int64_t, 2>& step) {
                for (int64_t i = 0; i < n; ++i) {
                  const float* base = x + off[0] + i * step[0];
                  auto each = [&](auto&& fn) {
                    walk_region(window, in_order, std::array<Strides, 1>{in_strides},
                                [&](const std::array<int64_t, 1>& w, int64_t m, const std::array<int64_t, 1>& ws) {
                                  for (int64_t j = 0; j < m; ++j) fn(static_cast<double>(base[w[0] + j * ws[0]]));
                                });
                  };
                  y[off[1] + i * step[1]] = static_cast<float>(reduce_window(a.kind, a.epsilon, count, each));
                }
              });
}

const char* kernel_name_of(Kind kind) {
  switch (kind) {
    case Kind::kMean: return "f32_reduce_mean";
    case Kind::kSum: return "f32_reduce_sum";
    case Kind::kMax: return "f32_reduce_max";
    case Kind::kMin: return "f32_reduce_min";
    case Kind::kProd: return "f32_reduce_prod";
    case Kind::kL1: return "f32_reduce_l1";
    case Kind::kL2: return "f32_reduce_l2";
    case Kind::kLogSum: return "f32_reduce_log_sum";
    case Kind::kLogSumExp: return "f32_reduce_log_sum_exp";
    case Kind::kSumSquare: return "f32_reduce_sum_square";
    case Kind::kInvStdDev: return "f32_reduce_inv_std_dev";
  }
  return "f32_reduce";
}

}  // namespace

void reference(const ReduceAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Layout in_layout = Layout::identity(static_cast<int>(s.inputs[0].size()));
  const Layout out_layout = Layout::identity(static_cast<int>(s.output.size()));
  reduce(a, s.inputs[0], logical_strides(s.inputs[0], in_layout), s.output, logical_strides(s.output, out_layout),
         Region::whole(s.output), in[0], out);
}

namespace {

class ReduceKernel final : public TileKernel {
 public:
  ReduceKernel(const ReduceAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    reduce(attrs_, in_.shape, in_.strides, out_.shape, out_.strides, region, input_data(in_, ctx),
           tensor_data(out_, ctx));
  }
  std::string kernel_name() const override { return kernel_name_of(attrs_.kind); }

 private:
  ReduceAttrs attrs_;
  TensorBinding in_, out_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ReduceAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new ReduceKernel(a, args));
}

}  // namespace tessera::ops
