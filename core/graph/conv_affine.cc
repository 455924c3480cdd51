// Per-output-channel affine folded into a convolution: a weight scale and its bias.
#include "core/graph/conv_affine.h"

#include <algorithm>

namespace tessera::graph {

namespace {

// The scale joins the weights where they are packed (ops/conv_weights.h), combined with any
// scale folded before; the bias, small, is folded here.
template <class Attrs>
void fold(Graph& g, Node& conv, Attrs& attrs, const std::vector<float>& scale, const std::vector<float>& shift) {
  const int64_t channels = static_cast<int64_t>(scale.size());
  std::vector<float> weight_scale = scale;
  if (attrs.weight_scale_input >= 0) {
    const float* earlier = g.tensors[conv.inputs[attrs.weight_scale_input]].floats();
    for (int64_t m = 0; m < channels; ++m) weight_scale[m] *= earlier[m];
  }
  std::vector<float> bias(channels, 0.0f);
  if (attrs.has_bias) bias.assign(g.tensors[conv.inputs[2]].floats(), g.tensors[conv.inputs[2]].floats() + channels);
  for (int64_t m = 0; m < channels; ++m) bias[m] = bias[m] * scale[m] + shift[m];
  const int bias_id = g.add_constant(conv.name + ".bias*", {channels}, std::move(bias));
  const int scale_id = g.add_constant(conv.name + ".weight_scale*", {channels}, std::move(weight_scale));
  conv.inputs.resize(std::max<size_t>(conv.inputs.size(), 3), -1);
  conv.inputs[2] = bias_id;
  attrs.has_bias = true;
  if (attrs.weight_scale_input < 0) {
    attrs.weight_scale_input = static_cast<int>(conv.inputs.size());
    conv.inputs.push_back(scale_id);
  } else {
    conv.inputs[attrs.weight_scale_input] = scale_id;
  }
}

}  // namespace

bool is_convolution(const Node& node) {
  return std::holds_alternative<ops::ConvAttrs>(node.attrs) ||
         std::holds_alternative<ops::ConvTransposeAttrs>(node.attrs);
}

int64_t output_channels(const Graph& g, const Node& conv) { return g.tensors[conv.output].shape[1]; }

void fold_channel_affine(Graph& g, Node& conv, const std::vector<float>& scale, const std::vector<float>& shift) {
  if (auto* a = std::get_if<ops::ConvAttrs>(&conv.attrs)) fold(g, conv, *a, scale, shift);
  if (auto* a = std::get_if<ops::ConvTransposeAttrs>(&conv.attrs)) fold(g, conv, *a, scale, shift);
}

}  // namespace tessera::graph
