// Per-output-channel affine folded into convolution weights and bias.
#include "core/graph/conv_affine.h"

#include <type_traits>

namespace tessera::graph {

namespace {

// The output channel weight element i belongs to: Conv weights are [M, C/group, kH, kW],
// ConvTranspose weights [C, M/group, kH, kW].
int64_t output_channel(bool transposed, const Shape& w, int64_t group, int64_t i) {
  const int64_t taps = w[2] * w[3];
  if (!transposed) return i / (w[1] * taps);
  const int64_t c = i / (w[1] * taps);
  return c / (w[0] / group) * w[1] + i / taps % w[1];
}

template <class Attrs>
void fold(Graph& g, Node& conv, Attrs& attrs, bool transposed, const std::vector<float>& scale,
          const std::vector<float>& shift) {
  const Tensor& w = g.tensors[conv.inputs[1]];
  const Shape weight_shape = w.shape;  // copied: adding tensors may move them
  const int64_t channels = static_cast<int64_t>(scale.size());
  std::vector<float> weights(w.floats(), w.floats() + ops::element_count(w.shape));
  for (int64_t i = 0; i < static_cast<int64_t>(weights.size()); ++i) {
    weights[i] *= scale[output_channel(transposed, weight_shape, attrs.group, i)];
  }
  std::vector<float> bias(channels, 0.0f);
  if (attrs.has_bias) bias.assign(g.tensors[conv.inputs[2]].floats(), g.tensors[conv.inputs[2]].floats() + channels);
  for (int64_t m = 0; m < channels; ++m) bias[m] = bias[m] * scale[m] + shift[m];
  conv.inputs[1] = g.add_constant(conv.name + ".weight*", weight_shape, std::move(weights));
  const int bias_id = g.add_constant(conv.name + ".bias*", {channels}, std::move(bias));
  conv.inputs.resize(std::max<size_t>(conv.inputs.size(), 3), -1);
  conv.inputs[2] = bias_id;
  attrs.has_bias = true;
}

}  // namespace

bool is_convolution(const Node& node) {
  return std::holds_alternative<ops::ConvAttrs>(node.attrs) || std::holds_alternative<ops::ConvTransposeAttrs>(node.attrs);
}

int64_t output_channels(const Graph& g, const Node& conv) { return g.tensors[conv.output].shape[1]; }

void fold_channel_affine(Graph& g, Node& conv, const std::vector<float>& scale, const std::vector<float>& shift) {
  if (auto* a = std::get_if<ops::ConvAttrs>(&conv.attrs)) fold(g, conv, *a, false, scale, shift);
  if (auto* a = std::get_if<ops::ConvTransposeAttrs>(&conv.attrs)) fold(g, conv, *a, true, scale, shift);
}

}  // namespace tessera::graph
