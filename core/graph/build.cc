// Builds the typed graph from a loaded model, checking every node through its op.
#include "core/graph/build.h"

#include <unordered_map>

#include "core/graph/passes.h"

namespace tessera::graph {

Result<Graph> build_graph(const model::ModelDesc& model) {
  Graph g;
  g.name = model.name;
  g.hold_weights(model.weights);
  std::unordered_map<std::string, int> by_name;
  for (const model::ValueInfo& input : model.inputs) {
    Tensor t;
    t.name = input.name;
    t.shape = input.shape;
    t.is_graph_input = true;
    const int id = g.add_tensor(std::move(t));
    g.inputs.push_back(id);
    by_name[input.name] = id;
  }
  for (const model::Initializer& init : model.initializers) {
    Tensor t;
    t.name = init.name;
    t.shape = init.shape;
    t.dtype = init.dtype;
    t.constant = init.data;
    by_name[init.name] = g.add_tensor(std::move(t));
  }
  for (const model::NodeDesc& desc : model.nodes) {
    std::vector<ops::ParsedInput> parsed;
    std::vector<int> inputs;
    for (const std::string& name : desc.inputs) {
      if (name.empty()) {
        parsed.emplace_back();
        inputs.push_back(-1);
        continue;
      }
      const auto found = by_name.find(name);
      if (found == by_name.end()) return Status::error(desc.path() + ": internal error: unresolved input " + name);
      const int id = found->second;
      const Tensor& t = g.tensors[id];
      parsed.push_back({true, t.shape, t.dtype, t.constant});
      inputs.push_back(id);
    }
    TESSERA_ASSIGN_OR_RETURN(ops::ParsedOp op, ops::parse_node(desc, std::move(parsed)));
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Tensor* t = inputs[i] >= 0 ? &g.tensors[inputs[i]] : nullptr;
      if (t && t->dtype != model::DType::kFloat32 && !t->is_constant()) {
        return Status::error(desc.path() + ": input \"" + t->name + "\" is not float32");
      }
    }
    // One graph node per output: a multi-output node (Split) becomes nodes "<name>:<i>".
    std::vector<ops::ParsedOp> per_output = std::move(op.more_outputs);
    per_output.insert(per_output.begin(), std::move(op));
    for (size_t i = 0; i < per_output.size(); ++i) {
      Tensor out;
      out.name = desc.outputs[i];
      out.shape = per_output[i].output;
      out.producer = static_cast<int>(g.nodes.size());
      const int out_id = g.add_tensor(std::move(out));
      by_name[desc.outputs[i]] = out_id;
      const std::string name = per_output.size() == 1 ? desc.name : desc.name + ":" + std::to_string(i);
      g.nodes.push_back(Node{name, desc.op, std::move(per_output[i].attrs), inputs, out_id});
    }
  }
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    const model::ValueInfo& declared = model.outputs[i];
    const std::string path = "outputs[" + std::to_string(i) + "] \"" + declared.name + "\"";
    const auto found = by_name.find(declared.name);
    if (found == by_name.end()) return Status::error(path + ": internal error: unresolved output");
    const int id = found->second;
    Tensor& t = g.tensors[id];
    if (t.shape != declared.shape) {
      return Status::error(path + ": declared shape " + ops::shape_string(declared.shape) + " but the graph computes " +
                           ops::shape_string(t.shape));
    }
    t.is_graph_output = true;
    g.outputs.push_back(id);
  }
  return g;
}

Status optimize(Graph& g) {
  fold_batch_norm(g);
  fold_constants(g);
  recognize_activations(g);
  fuse_epilogues(g);
  assign_layouts(g);
  alias_views(g);
  remove_dead_nodes(g);
  return Status();
}

}  // namespace tessera::graph
