// Cutting a placed model into stage models. Works on the model description (the source
// nodes), guided by the compiled graph the planner placed: each compiled node's output names
// the stage that makes it, and a stage's model is what its outputs need, walked back until
// tensors another stage makes (which become its inputs, and that stage's outputs).
#include "core/engine/stage_models.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/engine/stage_graph.h"
#include "core/ops/geometry.h"
#include "core/tiles/tiling_plan.h"

namespace tessera {

namespace {

using json = nlohmann::ordered_json;

// A constant of a stage model: its bytes are runs of the model's weights file.
struct Constant {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  WeightExtent extent;  // `at` unset
};

// The model's nodes with every split layer replaced by its pieces and their Concat, and the
// constants they read.
struct SourceGraph {
  std::vector<model::NodeDesc> nodes;
  std::map<std::string, Constant> constants;
  std::map<std::string, size_t> producer;  // tensor -> position in `nodes`
};

int64_t attribute_int(const model::NodeDesc& node, const std::string& name, int64_t fallback) {
  auto it = node.attributes.find(name);
  return it != node.attributes.end() && it->second.kind == model::AttrValue::Kind::kInt ? it->second.i : fallback;
}

// Columns [begin, end) of a constant read per output column (a bias), or null when it is
// one value for all of them (kept whole); an error otherwise.
Result<const Constant*> column_slice(SourceGraph& source, const std::string& name, const std::string& slice_name,
                                     int64_t columns, int64_t begin, int64_t end, const std::string& where) {
  const Constant& c = source.constants.at(name);
  const int64_t count = ops::element_count(c.shape);
  if (count == 1) return nullptr;
  if (count != columns || c.shape.empty() || c.shape.back() != columns || c.extent.count != 1) {
    return Status::error(where + ": reads constant \"" + name + "\" of neither one value nor one per column");
  }
  const int64_t size = static_cast<int64_t>(dtype_size(c.dtype));
  Constant slice = c;
  slice.shape.back() = end - begin;
  slice.extent = {c.extent.offset + begin * size, (end - begin) * size, (end - begin) * size, 1, 0};
  return &(source.constants[slice_name] = std::move(slice));
}

// Replaces layer `at` (a MatMul or Gemm the planner split into pieces of `widths` columns)
// and the chain of activations fused into it, up to `output`, by the pieces and a Concat.
Status split_layer(SourceGraph& source, size_t at, const std::vector<int64_t>& widths, const std::string& output,
                   const std::map<std::string, std::vector<size_t>>& consumers) {
  const model::NodeDesc layer = source.nodes[at];
  const std::string where = "stage models: split layer \"" + layer.name + "\"";
  // The chain: each link the only reader of the last, its other inputs constants.
  std::vector<model::NodeDesc> chain;
  std::vector<size_t> dropped = {at};
  for (std::string t = layer.outputs[0]; t != output;) {
    auto it = consumers.find(t);
    if (it == consumers.end() || it->second.size() != 1)
      return Status::error(where + ": its output \"" + t + "\" does not lead to \"" + output + "\" alone");
    const model::NodeDesc& link = source.nodes[it->second[0]];
    for (const std::string& input : link.inputs)
      if (input != t && !input.empty() && !source.constants.count(input))
        return Status::error(where + ": node \"" + link.name + "\" fused into it reads \"" + input + "\"");
    chain.push_back(link);
    dropped.push_back(it->second[0]);
    t = link.outputs[0];
  }
  if (layer.inputs.size() < 2 || !source.constants.count(layer.inputs[1]))
    return Status::error(where + ": its weights \"" + layer.inputs.at(1) + "\" are not an initializer");
  const Constant weights = source.constants.at(layer.inputs[1]);
  if (weights.shape.size() != 2 || weights.dtype != DType::kFloat32 || weights.extent.count != 1)
    return Status::error(where + ": its weights are not a float32 matrix");
  const bool trans_b = layer.op == "Gemm" && attribute_int(layer, "transB", 0) != 0;
  const int64_t depth = trans_b ? weights.shape[1] : weights.shape[0];
  const int64_t columns = trans_b ? weights.shape[0] : weights.shape[1];

  std::vector<model::NodeDesc> pieces;
  model::NodeDesc concat;
  concat.op = "Concat";
  concat.name = layer.name;
  concat.outputs = {output};
  concat.attributes["axis"].i = 1;
  int64_t begin = 0;
  for (size_t p = 0; p < widths.size(); ++p) {
    const int64_t end = begin + widths[p];
    const std::string suffix = "/" + std::to_string(p), piece_out = layer.name + suffix;
    Constant w = weights;
    w.shape = trans_b ? std::vector<int64_t>{end - begin, depth} : std::vector<int64_t>{depth, end - begin};
    w.extent = trans_b ? WeightExtent{weights.extent.offset + begin * depth * 4, (end - begin) * depth * 4,
                                      (end - begin) * depth * 4, 1, 0}
                       : WeightExtent{weights.extent.offset + begin * 4, (end - begin) * 4, columns * 4, depth, 0};
    source.constants[layer.name + suffix + ".weight"] = w;
    model::NodeDesc piece = layer;
    piece.name = piece_out;
    piece.inputs[1] = layer.name + suffix + ".weight";
    for (size_t i = 2; i < piece.inputs.size(); ++i) {
      if (piece.inputs[i].empty()) continue;
      TESSERA_ASSIGN_OR_RETURN(const Constant* sliced, column_slice(source, piece.inputs[i], piece.inputs[i] + suffix,
                                                                    columns, begin, end, where));
      if (sliced) piece.inputs[i] += suffix;
    }
    // Links' outputs "NAME/p.1", "NAME/p.2", ... ("NAME/p" is the last): the source's names
    // with the suffix could clash (a layer named as its output).
    auto link_output = [&](size_t c) {
      return c == chain.size() ? piece_out : piece_out + "." + std::to_string(c + 1);
    };
    piece.outputs = {link_output(0)};
    pieces.push_back(piece);
    for (size_t c = 0; c < chain.size(); ++c) {
      model::NodeDesc link = chain[c];
      const std::string& from = c == 0 ? layer.outputs[0] : chain[c - 1].outputs[0];
      link.name += suffix;
      for (std::string& input : link.inputs) {
        if (input == from) {
          input = pieces.back().outputs[0];
        } else if (!input.empty()) {
          TESSERA_ASSIGN_OR_RETURN(const Constant* sliced,
                                   column_slice(source, input, input + suffix, columns, begin, end, where));
          if (sliced) input += suffix;
        }
      }
      link.outputs = {link_output(c + 1)};
      pieces.push_back(link);
    }
    concat.inputs.push_back(piece_out);
    begin = end;
  }
  if (begin != columns)
    return Status::error(where + ": its pieces do not cover its " + std::to_string(columns) + " columns");
  pieces.push_back(concat);

  // The pieces go where the layer was; its chain goes.
  std::vector<model::NodeDesc> nodes;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    if (n == at) nodes.insert(nodes.end(), pieces.begin(), pieces.end());
    if (std::find(dropped.begin(), dropped.end(), n) == dropped.end()) nodes.push_back(std::move(source.nodes[n]));
  }
  source.nodes = std::move(nodes);
  return Status();
}

// The model's nodes and constants, with the layers the planner split into pieces split the
// same way (the widths of the pieces "NAME/0", "NAME/1", ... in the compiled graph).
Result<SourceGraph> source_graph(const model::ModelDesc& desc, const graph::Graph& g) {
  SourceGraph source;
  source.nodes = desc.nodes;
  for (const model::Initializer& init : desc.initializers) {
    source.constants[init.name] = {init.dtype, init.shape, {init.offset, init.bytes(), init.bytes(), 1, 0}};
  }
  std::map<std::string, const graph::Node*> compiled;
  for (const graph::Node& node : g.nodes)
    if (!node.removed) compiled[node.name] = &node;
  std::vector<std::string> split;
  for (const model::NodeDesc& node : desc.nodes)
    if ((node.op == "Gemm" || node.op == "MatMul") && compiled.count(node.name + "/0")) split.push_back(node.name);
  for (const std::string& name : split) {
    std::vector<int64_t> widths;
    for (int p = 0; compiled.count(name + "/" + std::to_string(p)); ++p)
      widths.push_back(g.tensors[compiled.at(name + "/" + std::to_string(p))->output].shape.back());
    std::map<std::string, std::vector<size_t>> consumers;
    size_t at = 0;
    for (size_t n = 0; n < source.nodes.size(); ++n) {
      if (source.nodes[n].name == name) at = n;
      for (const std::string& input : source.nodes[n].inputs) consumers[input].push_back(n);
    }
    const std::string& output = g.tensors[compiled.at(name)->output].name;
    TESSERA_RETURN_IF_ERROR(split_layer(source, at, widths, output, consumers));
  }
  for (size_t n = 0; n < source.nodes.size(); ++n)
    for (const std::string& output : source.nodes[n].outputs) source.producer[output] = n;
  return source;
}

json attribute_json(const model::AttrValue& a) {
  using Kind = model::AttrValue::Kind;
  switch (a.kind) {
    case Kind::kInt: return a.i;
    case Kind::kFloat: return a.f;
    case Kind::kString: return a.s;
    case Kind::kInts: return a.ints;
    case Kind::kFloats: return a.floats;
    case Kind::kTensor: {
      json values = json::array();
      const Tensor& t = a.tensor;
      for (int64_t i = 0; i < t.element_count(); ++i) {
        switch (t.dtype) {
          case DType::kFloat32: values.push_back(t.values<float>()[i]); break;
          case DType::kInt64: values.push_back(t.values<int64_t>()[i]); break;
          case DType::kInt32: values.push_back(t.values<int32_t>()[i]); break;
          default: values.push_back(t.values<uint8_t>()[i]); break;
        }
      }
      return {{"dtype", dtype_name(t.dtype)}, {"shape", t.dims}, {"values", values}};
    }
  }
  return nullptr;
}

json node_json(const model::NodeDesc& node) {
  json out = {{"op", node.op}, {"name", node.name}, {"inputs", node.inputs}, {"outputs", node.outputs}};
  if (!node.attributes.empty()) {
    json attributes = json::object();
    for (const auto& [key, value] : node.attributes) attributes[key] = attribute_json(value);
    out["attributes"] = attributes;
  }
  return out;
}

}  // namespace

Result<StagedModel> place_stage_models(const CompiledModel& model, const InputDims& dims, const PlaceOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(Placed placed, model.place_graph(dims, options));
  const graph::Graph& g = placed.graph.graph();
  const model::ModelDesc& desc = model.desc();
  TESSERA_ASSIGN_OR_RETURN(SourceGraph source, source_graph(desc, g));

  // The segments the stages run in (one per stage when they are contiguous): each its own
  // model. The segment making each compiled node's output, and every tensor of the compiled
  // graph.
  std::map<std::string, size_t> node_of;
  for (size_t n = 0; n < g.nodes.size(); ++n) node_of[g.nodes[n].name] = n;
  const std::vector<StagePlan>& plans = placed.report.stages;
  std::vector<int> stage_of(g.nodes.size(), -1);
  for (size_t s = 0; s < plans.size(); ++s)
    for (const std::string& name : plans[s].nodes) stage_of[node_of.at(name)] = static_cast<int>(s);
  const std::vector<StageSegment> segments = stage_segments(g, stage_of);
  std::map<std::string, size_t> made_in;
  std::map<std::string, const graph::Tensor*> tensor;
  for (const graph::Tensor& t : g.tensors) tensor[t.name] = &t;
  for (size_t s = 0; s < segments.size(); ++s)
    for (size_t n = 0; n < g.nodes.size(); ++n)
      if (segments[s].in_segment[n]) made_in[g.tensors[g.nodes[n].output].name] = s;
  std::set<std::string> graph_inputs;
  for (const ValueSpec& input : desc.inputs) graph_inputs.insert(input.name);

  // What each stage sends: the outputs it makes (the last stage: those no stage makes, such
  // as views of another stage's tensors), then what later stages find they need.
  std::vector<std::set<std::string>> sends(segments.size());
  for (const ValueSpec& output : desc.outputs) {
    if (graph_inputs.count(output.name) || source.constants.count(output.name))
      return Status::error("stage models: output \"" + output.name + "\" is an input or a constant, made by no stage");
    auto it = made_in.find(output.name);
    sends[it == made_in.end() ? segments.size() - 1 : it->second].insert(output.name);
  }

  StagedModel staged;
  staged.stages.resize(segments.size());
  for (size_t s = segments.size(); s-- > 0;) {
    std::vector<bool> include(source.nodes.size(), false);
    std::set<std::string> inputs, constants, seen;
    std::vector<std::string> stack(sends[s].begin(), sends[s].end());
    while (!stack.empty()) {
      const std::string t = stack.back();
      stack.pop_back();
      if (!seen.insert(t).second) continue;
      auto made = made_in.find(t);
      if (source.constants.count(t)) {
        constants.insert(t);
      } else if (graph_inputs.count(t)) {
        inputs.insert(t);
      } else if (made != made_in.end() && made->second != s) {
        if (made->second > s)
          return Status::error("stage models: stage " + std::to_string(s) + " reads \"" + t + "\" from a later stage");
        inputs.insert(t);
        sends[made->second].insert(t);
      } else {
        const size_t p = source.producer.at(t);
        include[p] = true;
        for (const std::string& input : source.nodes[p].inputs)
          if (!input.empty()) stack.push_back(input);
      }
    }

    StageModel& stage = staged.stages[s];
    stage.worker = plans[segments[s].stage].worker;
    stage.threads = plans[segments[s].stage].threads;
    json out = {{"format", "tessera"}, {"version", 2}, {"name", desc.name + "/stage" + std::to_string(s)}};
    auto value_json = [&](const std::string& name) -> Result<json> {
      auto it = tensor.find(name);
      if (it == tensor.end())
        return Status::error("stage models: tensor \"" + name + "\" is not in the compiled graph");
      return json{{"name", name}, {"dtype", dtype_name(it->second->dtype)}, {"shape", it->second->shape}};
    };
    out["inputs"] = json::array();
    for (const std::string& name : inputs) {
      TESSERA_ASSIGN_OR_RETURN(json value, value_json(name));
      out["inputs"].push_back(std::move(value));
      stage.inputs.push_back(name);
    }
    out["outputs"] = json::array();
    for (const std::string& name : sends[s]) {
      TESSERA_ASSIGN_OR_RETURN(json value, value_json(name));
      out["outputs"].push_back(std::move(value));
      stage.outputs.push_back(name);
    }
    out["initializers"] = json::array();
    for (const std::string& name : constants) {
      const Constant& c = source.constants.at(name);
      WeightExtent extent = c.extent;
      extent.at = stage.weight_bytes;
      out["initializers"].push_back({{"name", name},
                                     {"dtype", dtype_name(c.dtype)},
                                     {"shape", c.shape},
                                     {"offset", extent.at},
                                     {"length", extent.bytes * extent.count}});
      stage.weight_bytes = AlignedBuffer::padded(extent.at + extent.bytes * extent.count);
      stage.weights.push_back(extent);
    }
    out["nodes"] = json::array();
    for (size_t n = 0; n < source.nodes.size(); ++n)
      if (include[n]) out["nodes"].push_back(node_json(source.nodes[n]));
    stage.json = out.dump();
  }
  staged.placement = std::move(placed.report);
  return staged;
}

}  // namespace tessera
