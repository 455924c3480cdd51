// BatchNormalization: folded into the preceding Conv or ConvTranspose, or lowered to Mul + Add.
#include <cmath>

#include "core/graph/conv_affine.h"
#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

struct Affine {
  std::vector<float> scale, shift;
};

Affine affine_of(const Graph& g, const Node& bn) {
  const auto& a = std::get<ops::BatchNormAttrs>(bn.attrs);
  const int64_t channels = g.tensors[bn.inputs[1]].shape[0];
  Affine f{std::vector<float>(channels), std::vector<float>(channels)};
  ops::batch_norm_affine(a, channels, g.tensors[bn.inputs[1]].floats(), g.tensors[bn.inputs[2]].floats(),
                         g.tensors[bn.inputs[3]].floats(), g.tensors[bn.inputs[4]].floats(), f.scale.data(),
                         f.shift.data());
  return f;
}

// Index of the Conv or ConvTranspose that only feeds `bn`, or -1.
int foldable_conv(const Graph& g, const Node& bn, const std::vector<std::vector<int>>& consumers) {
  const Tensor& x = g.tensors[bn.inputs[0]];
  if (x.producer < 0 || x.is_graph_output || consumers[bn.inputs[0]].size() != 1) return -1;
  return is_convolution(g.nodes[x.producer]) ? x.producer : -1;
}

void fold_into_conv(Graph& g, Node& bn, int conv_index) {
  Node& conv = g.nodes[conv_index];
  const Affine f = affine_of(g, bn);
  fold_channel_affine(g, conv, f.scale, f.shift);
  conv.fused_nodes.push_back(bn.name);
  conv.output = bn.output;
  g.tensors[bn.output].producer = conv_index;
  bn.removed = true;
}

// y = x * scale + shift with per-channel constants shaped [C, 1, ...] to broadcast on dim 1.
std::vector<Node> lower_to_mul_add(Graph& g, const Node& bn) {
  Affine f = affine_of(g, bn);
  const Shape x = g.tensors[bn.inputs[0]].shape;  // copied: adding tensors may move them
  Shape channel_shape(x.size() - 1, 1);
  channel_shape[0] = x[1];
  const int scale = g.add_constant(bn.name + ".scale", channel_shape, std::move(f.scale));
  const int shift = g.add_constant(bn.name + ".shift", channel_shape, std::move(f.shift));
  Tensor scaled;
  scaled.name = bn.name + ".scaled";
  scaled.shape = x;
  const int scaled_id = g.add_tensor(std::move(scaled));
  Node mul{bn.name + ".mul", "Mul", ops::BinaryAttrs{kernels::BinaryOp::kMul, {}}, {bn.inputs[0], scale}, scaled_id};
  Node add{bn.name + ".add", "Add", ops::BinaryAttrs{kernels::BinaryOp::kAdd, {}}, {scaled_id, shift}, bn.output};
  return {mul, add};
}

}  // namespace

void fold_batch_norm(Graph& g) {
  const auto consumers = g.consumers();
  std::vector<Node> nodes;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    Node& node = g.nodes[n];
    if (node.removed || !std::holds_alternative<ops::BatchNormAttrs>(node.attrs)) continue;
    const int conv = foldable_conv(g, node, consumers);
    if (conv >= 0) fold_into_conv(g, node, conv);
  }
  for (Node& node : g.nodes) {
    if (!node.removed && std::holds_alternative<ops::BatchNormAttrs>(node.attrs)) {
      for (Node& lowered : lower_to_mul_add(g, node)) nodes.push_back(std::move(lowered));
    } else {
      nodes.push_back(std::move(node));
    }
  }
  g.nodes = std::move(nodes);
  g.renumber_producers();
}

}  // namespace tessera::graph
