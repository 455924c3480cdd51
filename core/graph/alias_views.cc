// Views and byte-preserving relayouts share their input's storage; dead nodes are dropped.
#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

bool moves_no_bytes(const Graph& g, const Node& node) {
  if (ops::is_view(node.attrs)) return true;
  const auto* t = std::get_if<ops::TransposeAttrs>(&node.attrs);
  if (!t) return false;
  const Tensor& in = g.tensors[node.inputs[0]];
  const Tensor& out = g.tensors[node.output];
  // Output dimension d is input dimension perm[d]; compare both in input dimensions.
  const std::vector<int> itself = Layout::identity(static_cast<int>(in.shape.size())).perm;
  return ops::memory_order(out.shape, out.layout, t->perm) == ops::memory_order(in.shape, in.layout, itself);
}

}  // namespace

void alias_views(Graph& g) {
  for (const Node& node : g.nodes) {
    const Tensor& in = g.tensors[node.inputs[0]];
    if (node.removed || in.is_constant() || !moves_no_bytes(g, node)) continue;
    g.tensors[node.output].alias_of = node.inputs[0];
  }
}

void remove_dead_nodes(Graph& g) {
  std::vector<bool> needed(g.tensors.size(), false);
  for (int output : g.outputs) needed[output] = true;
  std::vector<bool> live(g.nodes.size(), false);
  for (int n = static_cast<int>(g.nodes.size()) - 1; n >= 0; --n) {
    const Node& node = g.nodes[n];
    if (node.removed || !needed[node.output]) continue;
    live[n] = true;
    for (int input : node.inputs) {
      if (input >= 0) needed[input] = true;
    }
  }
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (live[n]) kept.push_back(std::move(g.nodes[n]));
  }
  g.nodes = std::move(kept);
  g.renumber_producers();
}

}  // namespace tessera::graph
