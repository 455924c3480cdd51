// Layout assignment: each op states the layouts it needs and produces; where a consumer
// needs another layout than its input has, a Relayout node converts (once per layout).
#include <map>

#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

class LayoutAssigner {
 public:
  explicit LayoutAssigner(Graph& g) : g_(g) {}

  void run() {
    std::vector<Node> old = std::move(g_.nodes);
    g_.nodes.clear();
    for (Node& node : old) {
      if (node.removed) continue;
      ops::LayoutQuery query;
      for (int input : node.inputs) {
        query.inputs.push_back(input >= 0 ? g_.tensors[input].layout : Layout());
        query.constant.push_back(input < 0 || g_.tensors[input].is_constant());
      }
      const ops::LayoutChoice choice = ops::op_choose_layout(node.attrs, g_.shapes_of(node), query);
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (query.constant[i] || i >= choice.inputs.size() || !choice.inputs[i]) continue;
        node.inputs[i] = in_layout(node.inputs[i], *choice.inputs[i]);
      }
      g_.tensors[node.output].layout = choice.output;
      g_.nodes.push_back(std::move(node));
    }
    for (int& output : g_.outputs) {
      const Tensor& t = g_.tensors[output];
      if (t.layout.is_identity()) continue;
      // The row-major copy takes over the output's name; the original is renamed.
      const int converted = in_layout(output, Layout::identity(static_cast<int>(t.shape.size())));
      std::swap(g_.tensors[converted].name, g_.tensors[output].name);
      g_.tensors[output].is_graph_output = false;
      g_.tensors[converted].is_graph_output = true;
      output = converted;
    }
    g_.renumber_producers();
  }

 private:
  // `tensor` in `layout`: itself, or the output of a (shared) Relayout node.
  int in_layout(int tensor, const Layout& layout) {
    if (g_.tensors[tensor].layout == layout) return tensor;
    auto key = std::make_pair(tensor, layout.perm);
    if (auto it = converted_.find(key); it != converted_.end()) return it->second;
    Tensor t;
    t.name = g_.tensors[tensor].name + "@" + layout.name();
    t.shape = g_.tensors[tensor].shape;
    t.dtype = g_.tensors[tensor].dtype;
    t.layout = layout;
    const int id = g_.add_tensor(std::move(t));
    ops::TransposeAttrs attrs;
    attrs.perm = Layout::identity(static_cast<int>(layout.perm.size())).perm;
    attrs.output_layout = layout;
    g_.nodes.push_back(Node{g_.tensors[id].name, "Relayout", attrs, {tensor}, id});
    converted_[key] = id;
    return id;
  }

  Graph& g_;
  std::map<std::pair<int, std::vector<int>>, int> converted_;
};

}  // namespace

void assign_layouts(Graph& g) { LayoutAssigner(g).run(); }

}  // namespace tessera::graph
