// Plan files to and from JSON, and their checks against a model.
#include "core/engine/plan_file.h"

#include <nlohmann/json.hpp>

namespace tessera {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "tessera-plan";
constexpr int kVersion = 1;

std::string dims_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

std::string inputs_string(const InputDims& inputs) {
  std::string s;
  for (const auto& [name, dims] : inputs) {
    if (!s.empty()) s += " ";
    s += name + "=" + dims_string(dims);
  }
  return s;
}

bool int_list(const json& j, std::vector<int64_t>* out) {
  if (!j.is_array()) return false;
  out->clear();
  for (const json& v : j) {
    if (!v.is_number_integer()) return false;
    out->push_back(v.get<int64_t>());
  }
  return true;
}

}  // namespace

std::string plan_file_json(const std::string& model, const InputDims& inputs, const graph::Graph& g,
                           const tiles::TilingPlan& plan, const PlanReport& report) {
  json in = json::array();
  for (const auto& [name, dims] : inputs) in.push_back({{"name", name}, {"dims", dims}});
  json nodes = json::array();
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    if (!tiles::owns_tiles(g, n)) continue;
    json entry = {
        {"name", node.name}, {"op", node.op}, {"shape", g.tensors[node.output].shape}, {"cuts", plan.nodes[n].cuts}};
    if (*ops::op_algorithm_name(node.attrs) != '\0') entry["algorithm"] = ops::op_algorithm_name(node.attrs);
    nodes.push_back(std::move(entry));
  }
  const json root = {{"format", kFormat},
                     {"version", kVersion},
                     {"model", model},
                     {"inputs", in},
                     {"threads", report.threads},
                     {"planner", report.planner},
                     {"reuse_memory", report.reuse_memory},
                     {"nodes", nodes}};
  return root.dump(1);
}

Result<SavedPlan> parse_plan_file(const std::string& text) {
  const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return Status::error("plan file: not a JSON object");
  auto field = [&](const char* name) -> const json* {
    const auto it = root.find(name);
    return it == root.end() ? nullptr : &*it;
  };
  const json* format = field("format");
  if (!format || *format != kFormat) return Status::error("plan file: \"format\" must be \"tessera-plan\"");
  const json* version = field("version");
  if (!version || !version->is_number_integer() || version->get<int64_t>() != kVersion) {
    return Status::error("plan file: \"version\" must be " + std::to_string(kVersion));
  }
  SavedPlan saved;
  const json* model = field("model");
  if (!model || !model->is_string()) return Status::error("plan file: \"model\" must be a string");
  saved.model = model->get<std::string>();
  const json* inputs = field("inputs");
  if (!inputs || !inputs->is_array()) return Status::error("plan file: \"inputs\" must be an array");
  for (size_t i = 0; i < inputs->size(); ++i) {
    const json& in = (*inputs)[i];
    std::vector<int64_t> dims;
    if (!in.is_object() || !in.contains("name") || !in["name"].is_string() || !in.contains("dims") ||
        !int_list(in["dims"], &dims)) {
      return Status::error("plan file: inputs[" + std::to_string(i) + "] must be {\"name\", \"dims\": [...]}");
    }
    saved.inputs.emplace_back(in["name"].get<std::string>(), dims);
  }
  if (const json* reuse = field("reuse_memory")) {
    if (!reuse->is_boolean()) return Status::error("plan file: \"reuse_memory\" must be true or false");
    saved.reuse_memory = reuse->get<bool>();
  }
  const json* nodes = field("nodes");
  if (!nodes || !nodes->is_array()) return Status::error("plan file: \"nodes\" must be an array");
  for (size_t i = 0; i < nodes->size(); ++i) {
    const json& n = (*nodes)[i];
    const std::string where = "plan file: nodes[" + std::to_string(i) + "]";
    SavedPlan::Node node;
    if (!n.is_object() || !n.contains("name") || !n["name"].is_string() || !n.contains("op") || !n["op"].is_string()) {
      return Status::error(where + " must have a \"name\" and an \"op\"");
    }
    node.name = n["name"].get<std::string>();
    node.op = n["op"].get<std::string>();
    if (!n.contains("shape") || !int_list(n["shape"], &node.shape)) {
      return Status::error(where + " (" + node.name + "): \"shape\" must be a list of integers");
    }
    if (!n.contains("cuts") || !n["cuts"].is_array()) {
      return Status::error(where + " (" + node.name + "): \"cuts\" must be a list per dimension");
    }
    for (const json& c : n["cuts"]) {
      std::vector<int64_t> cuts;
      if (!int_list(c, &cuts)) return Status::error(where + " (" + node.name + "): cuts must be integers");
      node.cuts.push_back(std::move(cuts));
    }
    if (n.contains("algorithm")) {
      if (!n["algorithm"].is_string())
        return Status::error(where + " (" + node.name + "): \"algorithm\" must be a string");
      node.algorithm = n["algorithm"].get<std::string>();
    }
    saved.nodes.push_back(std::move(node));
  }
  return saved;
}

Status saved_plan_matches_model(const SavedPlan& saved, const std::string& model) {
  if (saved.model == model) return Status();
  return Status::error("the plan was made for model \"" + saved.model + "\", not \"" + model + "\"");
}

void apply_saved_algorithms(const SavedPlan& saved, graph::Graph& g) {
  size_t next = 0;
  for (size_t n = 0; n < g.nodes.size() && next < saved.nodes.size(); ++n) {
    if (!tiles::owns_tiles(g, n)) continue;
    graph::Node& node = g.nodes[n];
    const SavedPlan::Node& entry = saved.nodes[next++];
    if (entry.name != node.name || entry.algorithm.empty()) continue;
    const int count = ops::op_algorithm_count(node.attrs, g.shapes_of(node));
    for (int algorithm = 0; algorithm < count; ++algorithm) {
      ops::OpAttrs attrs = ops::op_with_algorithm(node.attrs, algorithm);
      if (entry.algorithm == ops::op_algorithm_name(attrs)) node.attrs = std::move(attrs);
    }
  }
}

Result<tiles::TilingPlan> saved_tiling(const SavedPlan& saved, const graph::Graph& g, Isa isa) {
  tiles::TilingPlan plan;
  size_t next = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    const ops::Shape& shape = g.tensors[node.output].shape;
    if (!tiles::owns_tiles(g, n)) {
      plan.nodes.push_back(tiles::NodeTiling::whole(shape));
      continue;
    }
    if (next == saved.nodes.size()) {
      return Status::error("the plan has " + std::to_string(saved.nodes.size()) + " nodes and no entry for node \"" +
                           node.name + "\": it was made for another version of the model");
    }
    const SavedPlan::Node& entry = saved.nodes[next++];
    if (entry.name != node.name || entry.op != node.op) {
      return Status::error("plan entry " + std::to_string(next - 1) + " is node \"" + entry.name + "\" (" + entry.op +
                           "), the model has \"" + node.name + "\" (" + node.op + ") there");
    }
    if (entry.shape != shape) {
      return Status::error("the plan tiles node \"" + node.name + "\" with output " + dims_string(entry.shape) +
                           ", the model's is " + dims_string(shape) + ": the plan was made for other input dims");
    }
    if (!entry.algorithm.empty() && entry.algorithm != ops::op_algorithm_name(node.attrs)) {
      return Status::error("the plan runs node \"" + node.name + "\" by algorithm \"" + entry.algorithm +
                           "\", which it does not have here");
    }
    plan.nodes.push_back({entry.cuts});
  }
  if (next != saved.nodes.size()) {
    return Status::error("the plan has " + std::to_string(saved.nodes.size() - next) +
                         " more nodes than the model, from \"" + saved.nodes[next].name + "\" on");
  }
  TESSERA_RETURN_IF_ERROR(tiles::validate_plan(g, plan, isa).with_context("the plan"));
  return plan;
}

Status plan_matches_inputs(const SavedPlan& saved, const InputDims& inputs) {
  if (saved.inputs == inputs) return Status();
  return Status::error("the plan was made for inputs " + inputs_string(saved.inputs) + ", not " +
                       inputs_string(inputs));
}

}  // namespace tessera
