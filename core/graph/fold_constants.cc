// Constant folding: a node fed only by constants is evaluated once, by its reference kernel
// (also when its output is a graph output: the session then copies the constant out).
#include "core/graph/passes.h"

namespace tessera::graph {

void fold_constants(Graph& g) {
  for (Node& node : g.nodes) {
    Tensor& out = g.tensors[node.output];
    if (node.removed) continue;
    bool all_constant = true;
    for (int input : node.inputs) all_constant = all_constant && (input < 0 || g.tensors[input].is_constant());
    if (!all_constant) continue;
    std::vector<const float*> inputs;
    for (int input : node.inputs) {
      const bool is_float = input >= 0 && g.tensors[input].dtype == model::DType::kFloat32;
      inputs.push_back(is_float ? g.tensors[input].floats() : nullptr);  // shape-like inputs are read at parse time
    }
    std::vector<float> data(static_cast<size_t>(ops::element_count(out.shape)));
    ops::op_reference(node.attrs, g.shapes_of(node), inputs, data.data());
    out.constant = g.keep(std::move(data));
    out.producer = -1;
    node.removed = true;
  }
}

}  // namespace tessera::graph
