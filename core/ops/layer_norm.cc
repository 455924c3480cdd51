// LayerNormalization: each tile normalises whole rows (the trailing dims from `axis`).
#include "core/ops/layer_norm.h"

#include <cmath>

#include "core/kernels/rows/rows.h"
#include "core/ops/parsers.h"
#include "core/ops/reduce.h"
#include "core/ops/region_walk.h"

namespace tessera::ops {

namespace {

int64_t row_length(const LayerNormAttrs& a, const Shape& shape) {
  int64_t n = 1;
  for (size_t d = a.axis; d < shape.size(); ++d) n *= shape[d];
  return n;
}

}  // namespace

Result<ParsedOp> parse_layer_norm(NodeParser& p) {
  const size_t outputs = p.desc().outputs.size();
  if (outputs > 3) return p.error("has " + std::to_string(outputs) + " outputs; LayerNormalization has at most 3");
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  LayerNormAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", -1));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, static_cast<int>(p.shape(0).size()), "axis"));
  TESSERA_ASSIGN_OR_RETURN(a.epsilon, p.get_float("epsilon", 1e-5f));
  TESSERA_ASSIGN_OR_RETURN(int64_t stash_type, p.get_int("stash_type", 1));
  if (stash_type != 1) return p.error("only stash_type 1 (float32 statistics) is supported");
  const int64_t n = row_length(a, p.shape(0));
  for (size_t i = 1; i < 3; ++i) {
    if (!p.has_input(i)) continue;
    const char* what = i == 1 ? "scale" : "bias";
    if (!p.constant_floats(i)) return p.error(std::string(what) + " must be a float32 initializer");
    if (element_count(p.shape(i)) != n) {
      return p.error(std::string(what) + " " + shape_string(p.shape(i)) + " must hold " + std::to_string(n) +
                     " values");
    }
  }
  ParsedOp parsed{a, p.shape(0)};
  // The optional Mean and InvStdDev outputs are reductions over the normalised axes.
  const Shape& x = p.shape(0);
  Shape statistics = x;
  ReduceAttrs stat;
  stat.reduced.assign(x.size(), false);
  for (size_t d = a.axis; d < x.size(); ++d) stat.reduced[d] = true, statistics[d] = 1;
  stat.epsilon = a.epsilon;
  for (size_t i = 1; i < outputs; ++i) {
    stat.kind = i == 1 ? ReduceAttrs::Kind::kMean : ReduceAttrs::Kind::kInvStdDev;
    parsed.more_outputs.push_back({stat, statistics});
  }
  return parsed;
}

OpCost cost(const LayerNormAttrs&, const OpShapes&, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {.flops = 8 * n, .bytes = 8 * n, .kind = WorkKind::kNormalize};
}

std::optional<Region> footprint(const LayerNormAttrs&, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;
  return out;
}

TilingHints tiling_hints(const LayerNormAttrs& a, const OpShapes&, const TilingQuery&) {
  TilingHints hints;
  for (int d = 0; d < a.axis; ++d) hints.dims.push_back({d, 1});
  return hints;
}

LayoutChoice choose_layout(const LayerNormAttrs&, const OpShapes& s, const LayoutQuery&) {
  const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.inputs[0] = identity;
  c.output = identity;
  return c;
}

void reference(const LayerNormAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const int64_t n = row_length(a, s.output);
  const int64_t rows = element_count(s.output) / n;
  const float* bias = in.size() > 2 ? in[2] : nullptr;
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in[0] + r * n;
    double mean = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) mean += x[i];
    mean /= static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= static_cast<double>(n);
    const double inv = 1.0 / std::sqrt(var + a.epsilon);
    for (int64_t i = 0; i < n; ++i) {
      out[r * n + i] = static_cast<float>((x[i] - mean) * inv * in[1][i] + (bias ? bias[i] : 0.0f));
    }
  }
}

namespace {

class LayerNormKernel final : public TileKernel {
 public:
  LayerNormKernel(const LayerNormAttrs& a, const BindArgs& args)
      : attrs_(a),
        n_(row_length(a, args.output.shape)),
        in_(args.inputs[0]),
        out_(args.output),
        scale_(args.inputs[1].constant_floats()),
        bias_(args.inputs.size() > 2 ? args.inputs[2].constant_floats() : nullptr),
        rows_(kernels::best_row_kernels(args.max_isa)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    Region starts = region;  // the first element of each row
    for (int d = attrs_.axis; d < starts.rank; ++d) starts.end[d] = starts.begin[d] + 1;
    walk_region(starts, out_.layout, std::array<Strides, 1>{out_.strides},
                [&](const std::array<int64_t, 1>& off, int64_t count, const std::array<int64_t, 1>& step) {
                  rows_.layer_norm(count, n_, x + off[0], step[0], scale_, bias_, attrs_.epsilon, y + off[0], step[0]);
                });
  }
  std::string kernel_name() const override { return rows_.name; }

 private:
  LayerNormAttrs attrs_;
  int64_t n_;
  TensorBinding in_, out_;
  const float* scale_;
  const float* bias_;
  const kernels::RowKernels& rows_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const LayerNormAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new LayerNormKernel(a, args));
}

}  // namespace tessera::ops
