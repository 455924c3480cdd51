// Group and instance normalisation: a tile holds whole groups (a block of batch items times a
// block of groups, every spatial position), and each group is one call of the row kernels'
// group_norm (the layer-norm statistics over channels x spatial, then per-channel affine).
#include "core/ops/group_norm.h"

#include "core/kernels/rows/rows.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

struct Extents {
  int64_t batch, channels, spatial;
};

Extents extents(const Shape& x) {
  Extents e{x[0], x[1], 1};
  for (size_t d = 2; d < x.size(); ++d) e.spatial *= x[d];
  return e;
}

// Scale and bias hold one value per channel, or (opset-18 GroupNormalization) one per group.
std::vector<float> per_channel(const float* values, int64_t count, int64_t channels) {
  std::vector<float> out(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) out[c] = values[count == channels ? c : c / (channels / count)];
  return out;
}

Status check_affine(const NodeParser& p, int64_t channels, int64_t groups) {
  for (size_t i = 1; i < 3; ++i) {
    const char* what = i == 1 ? "scale" : "bias";
    if (!p.constant_floats(i)) return p.error(std::string(what) + " must be a float32 initializer");
    const int64_t count = element_count(p.shape(i));
    if (p.shape(i).size() != 1 || (count != channels && count != groups)) {
      std::string expected = shape_string({channels});
      if (groups != channels) expected += " (per channel) or " + shape_string({groups}) + " (per group, opset 18)";
      return p.error(std::string(what) + " " + shape_string(p.shape(i)) + " must be " + expected);
    }
  }
  return Status();
}

Status expect_image(const NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  if (p.shape(0).size() < 2) return p.error("input must be [N, C, ...], got " + shape_string(p.shape(0)));
  return Status();
}

class GroupNormKernel final : public TileKernel {
 public:
  GroupNormKernel(const GroupNormAttrs& a, const BindArgs& args)
      : attrs_(a),
        e_(extents(args.output.shape)),
        in_(args.inputs[0]),
        out_(args.output),
        scale_(per_channel(args.inputs[1].constant_floats(), element_count(args.inputs[1].shape), e_.channels)),
        bias_(per_channel(args.inputs[2].constant_floats(), element_count(args.inputs[2].shape), e_.channels)),
        rows_(kernels::best_row_kernels(args.max_isa)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const int64_t per_group = e_.channels / attrs_.groups;
    // Row-major: a group's channels x spatial floats are contiguous; tiles hold whole groups.
    TESSERA_CHECK(region.begin[1] % per_group == 0 && region.element_count() % e_.spatial == 0);
    for (int64_t n = region.begin[0]; n < region.end[0]; ++n) {
      for (int64_t c = region.begin[1]; c < region.end[1]; c += per_group) {
        const int64_t offset = (n * e_.channels + c) * e_.spatial;
        rows_.group_norm(per_group, e_.spatial, x + offset, &scale_[c], &bias_[c], attrs_.epsilon, y + offset);
      }
    }
  }
  std::string kernel_name() const override { return rows_.name; }

 private:
  GroupNormAttrs attrs_;
  Extents e_;
  TensorBinding in_, out_;
  std::vector<float> scale_, bias_;
  const kernels::RowKernels& rows_;
};

}  // namespace

Result<ParsedOp> parse_instance_norm(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_image(p));
  GroupNormAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.epsilon, p.get_float("epsilon", 1e-5f));
  a.groups = p.shape(0)[1];
  TESSERA_RETURN_IF_ERROR(check_affine(p, a.groups, a.groups));
  return ParsedOp{a, p.shape(0)};
}

Result<ParsedOp> parse_group_norm(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(expect_image(p));
  GroupNormAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.epsilon, p.get_float("epsilon", 1e-5f));
  if (!p.has_attribute("num_groups")) return p.error("attribute \"num_groups\" is required");
  TESSERA_ASSIGN_OR_RETURN(a.groups, p.get_int("num_groups", 1));
  TESSERA_ASSIGN_OR_RETURN(int64_t stash_type, p.get_int("stash_type", 1));
  if (stash_type != 1) return p.error("only stash_type 1 (float32 statistics) is supported");
  const int64_t channels = p.shape(0)[1];
  if (a.groups < 1 || channels % a.groups != 0) {
    return p.error("num_groups " + std::to_string(a.groups) + " must divide the " + std::to_string(channels) +
                   " channels");
  }
  TESSERA_RETURN_IF_ERROR(check_affine(p, channels, a.groups));
  return ParsedOp{a, p.shape(0)};
}

OpCost cost(const GroupNormAttrs&, const OpShapes&, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {.flops = 8 * n, .bytes = 8 * n, .kind = WorkKind::kNormalize};
}

std::optional<Region> footprint(const GroupNormAttrs&, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // scale and bias are constants
  return out;
}

TilingHints tiling_hints(const GroupNormAttrs& a, const OpShapes& s, const TilingQuery&) {
  // Whole groups (channel cuts at group boundaries) and the whole spatial extent.
  return {{{0, 1}, {1, s.output[1] / a.groups}}};
}

LayoutChoice choose_layout(const GroupNormAttrs&, const OpShapes& s, const LayoutQuery&) {
  const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
  return {{identity, std::nullopt, std::nullopt}, identity};
}

void reference(const GroupNormAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Extents e = extents(s.output);
  const std::vector<float> scale = per_channel(in[1], element_count(s.inputs[1]), e.channels);
  const std::vector<float> bias = per_channel(in[2], element_count(s.inputs[2]), e.channels);
  const int64_t per_group = e.channels / a.groups;
  const int64_t n = per_group * e.spatial;  // elements per group, contiguous
  for (int64_t g = 0; g < e.batch * a.groups; ++g) {
    const int64_t first_channel = g % a.groups * per_group;
    kernels::group_norm_reference(per_group, e.spatial, in[0] + g * n, &scale[first_channel], &bias[first_channel],
                                  a.epsilon, out + g * n);
  }
}

Result<std::unique_ptr<TileKernel>> bind(const GroupNormAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new GroupNormKernel(a, args));
}

}  // namespace tessera::ops
