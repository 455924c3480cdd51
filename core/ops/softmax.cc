// Softmax along one axis: rows along the axis are whole in every tile.
#include "core/ops/softmax.h"

#include <cmath>
#include <vector>

#include "core/kernels/rows/rows.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_softmax(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  SoftmaxAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", -1));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, static_cast<int>(p.shape(0).size()), "axis"));
  return ParsedOp{a, p.shape(0)};
}

OpCost cost(const SoftmaxAttrs&, const OpShapes&, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {.flops = 5 * n, .bytes = 8 * n, .kind = WorkKind::kSoftmax};
}

std::optional<Region> footprint(const SoftmaxAttrs&, const OpShapes&, const Region& out, int) { return out; }

TilingHints tiling_hints(const SoftmaxAttrs& a, const OpShapes& s, const TilingQuery& q) {
  std::vector<bool> keep(s.output.size(), false);
  keep[a.axis] = true;
  // The innermost dimension may be split too when it is not the axis.
  TilingHints hints = elementwise_tiling_hints(s.output, q.output_layout, keep);
  const int inner = q.output_layout.perm.back();
  if (inner != a.axis && s.output[inner] > 1) hints.dims.push_back({inner, 1});
  return hints;
}

LayoutChoice choose_layout(const SoftmaxAttrs&, const OpShapes& s, const LayoutQuery&) {
  const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
  return {{identity}, identity};
}

namespace {

// Calls fn(first_element_offset) for each row along `axis` inside `region`.
template <class Fn>
void for_each_row(const Region& region, int axis, const Layout& layout, const Strides& strides, Fn&& fn) {
  Region starts = region;
  starts.end[axis] = starts.begin[axis] + 1;
  walk_region(starts, layout, std::array<Strides, 1>{strides},
              [&](const std::array<int64_t, 1>& off, int64_t count, const std::array<int64_t, 1>& step) {
                for (int64_t i = 0; i < count; ++i) fn(off[0] + i * step[0]);
              });
}

}  // namespace

void reference(const SoftmaxAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
  const Strides strides = logical_strides(s.output, identity);
  const int64_t n = s.output[a.axis];
  const int64_t step = strides[a.axis];
  for_each_row(Region::whole(s.output), a.axis, identity, strides, [&](int64_t o) {
    double max = -INFINITY;
    for (int64_t i = 0; i < n; ++i) max = std::fmax(max, in[0][o + i * step]);
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += std::exp(in[0][o + i * step] - max);
    for (int64_t i = 0; i < n; ++i) out[o + i * step] = static_cast<float>(std::exp(in[0][o + i * step] - max) / sum);
  });
}

namespace {

class SoftmaxKernel final : public TileKernel {
 public:
  SoftmaxKernel(const SoftmaxAttrs& a, const BindArgs& args)
      : axis_(a.axis), in_(args.inputs[0]), out_(args.output), rows_(kernels::best_row_kernels(args.max_isa)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const int64_t n = out_.shape[axis_];
    const int64_t step = out_.strides[axis_];
    for_each_row(region, axis_, out_.layout, out_.strides, [&](int64_t o) {
      if (step == 1) {
        rows_.softmax(1, n, x + o, n, y + o, n);
        return;
      }
      // A strided axis is gathered into scratch, normalised there and scattered back.
      for (int64_t i = 0; i < n; ++i) ctx.scratch[i] = x[o + i * step];
      rows_.softmax(1, n, ctx.scratch, n, ctx.scratch, n);
      for (int64_t i = 0; i < n; ++i) y[o + i * step] = ctx.scratch[i];
    });
  }
  size_t scratch_floats(const Region&) const override { return out_.strides[axis_] == 1 ? 0 : out_.shape[axis_]; }
  std::string kernel_name() const override { return rows_.name; }

 private:
  int axis_;
  TensorBinding in_, out_;
  const kernels::RowKernels& rows_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const SoftmaxAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new SoftmaxKernel(a, args));
}

}  // namespace tessera::ops
