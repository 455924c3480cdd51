// Builds the typed graph for one input binding, checking every node through its op and
// evaluating what depends only on shapes and constants.
#include "core/graph/build.h"

#include <unordered_map>

#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// Compares a computed output with its declared dims; symbols the inputs do not bind are
// bound here, by the first output that uses them.
Status check_output(const model::ValueInfo& declared, const Tensor& t, const std::string& path,
                    std::map<std::string, int64_t>& symbols) {
  bool matches = declared.dims.size() == t.shape.size() && declared.dtype == t.dtype;
  for (size_t d = 0; matches && d < t.shape.size(); ++d) {
    const Dim& dim = declared.dims[d];
    if (!dim.is_symbol()) {
      matches = dim.size == t.shape[d];
    } else {
      auto [it, inserted] = symbols.emplace(dim.symbol, t.shape[d]);
      matches = inserted || it->second == t.shape[d];
    }
  }
  if (matches) return Status();
  return Status::error(path + ": declared " + dtype_name(declared.dtype) + " " + declared.dims_string() +
                       " but the graph computes " + dtype_name(t.dtype) + " " + ops::shape_string(t.shape));
}

}  // namespace

Result<InputBinding> bind_inputs(const std::vector<model::ValueInfo>& declared,
                                 const std::vector<std::pair<std::string, Shape>>& given) {
  InputBinding binding;
  binding.shapes.resize(declared.size());
  std::vector<bool> seen(declared.size(), false);
  std::map<std::string, std::string> bound_by;  // symbol -> the input that bound it
  for (const auto& [name, dims] : given) {
    size_t i = 0;
    while (i < declared.size() && declared[i].name != name) ++i;
    if (i == declared.size()) return Status::error("input " + quoted(name) + ": the model has no input of that name");
    if (seen[i]) return Status::error("input " + quoted(name) + ": given twice");
    seen[i] = true;
    const model::ValueInfo& spec = declared[i];
    const std::string path = "input " + quoted(name);
    if (dims.size() != spec.dims.size()) {
      return Status::error(path + ": expected rank " + std::to_string(spec.dims.size()) + " " + spec.dims_string() +
                           ", got dims " + ops::shape_string(dims));
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      const Dim& dim = spec.dims[d];
      const std::string at = path + ": dim " + std::to_string(d);
      if (dims[d] <= 0) return Status::error(at + " is " + std::to_string(dims[d]) + ", not a positive size");
      if (!dim.is_symbol()) {
        if (dim.size != dims[d]) {
          return Status::error(at + " is fixed at " + std::to_string(dim.size) + ", got " + std::to_string(dims[d]));
        }
        continue;
      }
      auto [it, inserted] = binding.symbols.emplace(dim.symbol, dims[d]);
      if (!inserted && it->second != dims[d]) {
        return Status::error(at + " (" + quoted(dim.symbol) + ") is " + std::to_string(dims[d]) + ", but input " +
                             quoted(bound_by[dim.symbol]) + " binds " + quoted(dim.symbol) + " to " +
                             std::to_string(it->second));
      }
      bound_by.emplace(dim.symbol, name);
    }
    binding.shapes[i] = dims;
  }
  for (size_t i = 0; i < declared.size(); ++i) {
    if (!seen[i]) return Status::error("input " + quoted(declared[i].name) + ": missing");
  }
  return binding;
}

Result<InputBinding> static_binding(const std::vector<model::ValueInfo>& declared) {
  std::vector<std::pair<std::string, Shape>> given;
  for (const model::ValueInfo& input : declared) {
    if (!input.is_static()) {
      return Status::error("input " + quoted(input.name) + " has symbolic dims " + input.dims_string() +
                           ": give its dims to specialise the model");
    }
    given.emplace_back(input.name, input.static_dims());
  }
  return bind_inputs(declared, given);
}

Result<Graph> build_graph(const model::ModelDesc& model, const InputBinding& binding,
                          std::shared_ptr<ConstantStore> store) {
  Graph g;
  g.name = model.name;
  g.hold_weights(model.weights);
  g.use_store(std::move(store));
  std::unordered_map<std::string, int> by_name;
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    Tensor t;
    t.name = model.inputs[i].name;
    t.shape = binding.shapes[i];
    t.dtype = model.inputs[i].dtype;
    t.is_graph_input = true;
    const int id = g.add_tensor(std::move(t));
    g.inputs.push_back(id);
    by_name[model.inputs[i].name] = id;
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
    bool all_constant = true;
    for (const std::string& name : desc.inputs) {
      if (name.empty()) {
        parsed.emplace_back();
        inputs.push_back(-1);
        continue;
      }
      const auto found = by_name.find(name);
      if (found == by_name.end()) return Status::error(desc.path() + ": internal error: unresolved input " + name);
      const Tensor& t = g.tensors[found->second];
      parsed.push_back({true, t.shape, t.dtype, t.constant, t.name});
      inputs.push_back(found->second);
      all_constant = all_constant && t.is_constant();
    }
    TESSERA_ASSIGN_OR_RETURN(ops::ParsedOp op, ops::parse_node(desc, std::move(parsed)));
    // One graph node per output: a multi-output node (Split) becomes nodes "<name>:<i>".
    std::vector<ops::ParsedOp> per_output = std::move(op.more_outputs);
    per_output.insert(per_output.begin(), std::move(op));
    for (size_t i = 0; i < per_output.size(); ++i) {
      Tensor out;
      out.name = desc.outputs[i];
      out.shape = per_output[i].output;
      out.dtype = per_output[i].dtype;
      const int out_id = g.add_tensor(std::move(out));
      by_name[desc.outputs[i]] = out_id;
      if (per_output[i].value) {  // known from shapes alone (Shape, Size)
        g.tensors[out_id].constant = g.keep(*per_output[i].value);
        continue;
      }
      const std::string name = per_output.size() == 1 ? desc.name : desc.name + ":" + std::to_string(i);
      Node node{name, desc.op, std::move(per_output[i].attrs), inputs, out_id};
      if (all_constant) {  // shapes, indices and constant subgraphs: evaluated now
        g.tensors[out_id].constant = g.keep(g.evaluate(node));
        continue;
      }
      g.tensors[out_id].producer = static_cast<int>(g.nodes.size());
      g.nodes.push_back(std::move(node));
    }
  }
  std::map<std::string, int64_t> symbols = binding.symbols;
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    const model::ValueInfo& declared = model.outputs[i];
    const std::string path = "outputs[" + std::to_string(i) + "] " + quoted(declared.name);
    const auto found = by_name.find(declared.name);
    if (found == by_name.end()) return Status::error(path + ": internal error: unresolved output");
    Tensor& t = g.tensors[found->second];
    TESSERA_RETURN_IF_ERROR(check_output(declared, t, path, symbols));
    t.is_graph_output = true;
    g.outputs.push_back(found->second);
  }
  return g;
}

Result<Graph> build_graph(const model::ModelDesc& model) {
  TESSERA_ASSIGN_OR_RETURN(InputBinding binding, static_binding(model.inputs));
  return build_graph(model, binding, std::make_shared<ConstantStore>());
}

Status optimize(Graph& g) {
  fold_batch_norm(g);
  fold_constants(g);
  recognize_activations(g);
  fuse_epilogues(g);
  flush_subnormal_constants(g);
  assign_layouts(g);
  alias_views(g);
  remove_dead_nodes(g);
  // What the passes read of the weights (a batch norm's parameters, folded constants) is not
  // read again; what the kernels pack comes back as they read it (and goes again,
  // tiles/compile.cc).
  if (const WeightsFile* weights = g.weights().get()) weights->release_all_pages();
  return Status();
}

}  // namespace tessera::graph
