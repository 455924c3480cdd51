// Constant folding: a node fed only by constants is evaluated once, by its reference kernel
// (also when its output is a graph output: the session then copies the constant out). Passes
// that create such nodes (BatchNorm lowering) rely on it; the graph builder folds the rest.
#include "core/graph/passes.h"

namespace tessera::graph {

void fold_constants(Graph& g) {
  for (Node& node : g.nodes) {
    Tensor& out = g.tensors[node.output];
    if (node.removed) continue;
    bool all_constant = true;
    for (int input : node.inputs) all_constant = all_constant && (input < 0 || g.tensors[input].is_constant());
    if (!all_constant) continue;
    out.constant = g.keep(g.evaluate(node));
    out.producer = -1;
    node.removed = true;
  }
}

}  // namespace tessera::graph
