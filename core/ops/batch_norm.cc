// BatchNormalization (inference): parsing, the per-channel affine it amounts to, reference.
#include "core/ops/batch_norm.h"

#include <cmath>

#include "core/ops/parsers.h"

namespace tessera::ops {

Result<ParsedOp> parse_batch_norm(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(5, 5));
  BatchNormAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.epsilon, p.get_float("epsilon", 1e-5f));
  TESSERA_ASSIGN_OR_RETURN(float momentum, p.get_float("momentum", 0.9f));
  (void)momentum;  // a training parameter: no effect in inference
  TESSERA_ASSIGN_OR_RETURN(int64_t training_mode, p.get_int("training_mode", 0));
  if (training_mode != 0) return p.error("training_mode is not supported (inference only)");
  const Shape& x = p.shape(0);
  if (x.size() < 2) return p.error("input must have a channel dimension, got " + shape_string(x));
  const char* names[] = {"", "scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    if (!p.constant_floats(i)) return p.error(std::string(names[i]) + " must be a float32 initializer");
    if (p.shape(i) != Shape{x[1]}) {
      return p.error(std::string(names[i]) + " " + shape_string(p.shape(i)) + " must be [" + std::to_string(x[1]) +
                     "]");
    }
  }
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  return ParsedOp{a, x};
}

void batch_norm_affine(const BatchNormAttrs& a, int64_t channels, const float* gamma, const float* beta,
                       const float* mean, const float* var, float* scale, float* shift) {
  for (int64_t c = 0; c < channels; ++c) {
    scale[c] = gamma[c] / std::sqrt(var[c] + a.epsilon);
    shift[c] = beta[c] - mean[c] * scale[c];
  }
}

OpCost cost(const BatchNormAttrs&, const OpShapes&, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {.flops = 2 * n, .bytes = 8 * n, .kind = WorkKind::kElementwise};
}

std::optional<Region> footprint(const BatchNormAttrs&, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;
  return out;
}

TilingHints tiling_hints(const BatchNormAttrs&, const OpShapes&, const TilingQuery&) { return {}; }

LayoutChoice choose_layout(const BatchNormAttrs&, const OpShapes& s, const LayoutQuery& q) {
  return {std::vector<std::optional<Layout>>(s.inputs.size()), q.inputs[0]};
}

void reference(const BatchNormAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Shape& x = s.inputs[0];
  const int64_t channels = x[1];
  int64_t inner = 1;
  for (size_t d = 2; d < x.size(); ++d) inner *= x[d];
  std::vector<float> scale(channels), shift(channels);
  batch_norm_affine(a, channels, in[1], in[2], in[3], in[4], scale.data(), shift.data());
  const int64_t total = element_count(x);
  for (int64_t i = 0; i < total; ++i) {
    const int64_t c = (i / inner) % channels;
    out[i] = in[0][i] * scale[c] + shift[c];
  }
}

Result<std::unique_ptr<TileKernel>> bind(const BatchNormAttrs&, const BindArgs& args) {
  return Status::error(args.path + ": internal error: BatchNormalization must be folded or lowered before binding");
}

}  // namespace tessera::ops
