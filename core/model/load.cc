// Model JSON -> ModelDesc: schema checks with a path in every message, name resolution,
// topological ordering (cycles are errors) and weight range checks.
#include "core/model/load.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <queue>
#include <set>
#include <unordered_map>

#include "core/base/checked_math.h"

namespace tessera::model {

using nlohmann::json;

std::string NodeDesc::path() const { return "nodes[" + std::to_string(index) + "] (" + op + " \"" + name + "\")"; }

namespace {

constexpr int kMaxRank = 8;

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

std::string type_name(const json& value) {
  if (value.is_number_integer()) return "an integer";
  if (value.is_number_float()) return "a float";
  return std::string("a ") + value.type_name();
}

Result<const json*> member(const json& object, const char* key, const std::string& path, json::value_t type,
                           const char* type_text) {
  auto it = object.find(key);
  if (it == object.end()) return Status::error(path + ": missing \"" + key + "\"");
  const bool matches = type == json::value_t::number_integer ? it->is_number_integer() : it->type() == type;
  if (!matches) {
    return Status::error(path + ": \"" + key + "\" must be " + type_text + ", got " + type_name(*it));
  }
  return &*it;
}

Result<std::string> string_member(const json& object, const char* key, const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(const json* value, member(object, key, path, json::value_t::string, "a string"));
  return value->get<std::string>();
}

Result<DType> dtype_from_text(const std::string& text, const std::string& path) {
  DType dtype;
  if (!tessera::parse_dtype(text, &dtype)) {
    return Status::error(path + ": unsupported dtype " + in_quotes(text) +
                         " (expected float32, int64, int32, bool or uint8)");
  }
  return dtype;
}

Result<DType> parse_dtype(const json& object, const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(std::string text, string_member(object, "dtype", path));
  return dtype_from_text(text, path);
}

Status check_dims(const std::vector<int64_t>& dims, const std::string& path, int64_t* element_count) {
  if (dims.size() > kMaxRank) {
    return Status::error(path + ": rank " + std::to_string(dims.size()) + " exceeds the maximum of " +
                         std::to_string(kMaxRank));
  }
  for (int64_t d : dims) {
    if (d <= 0) return Status::error(path + ": shape dimension " + std::to_string(d) + " is not positive");
  }
  if (!checked_element_count(dims, element_count)) {
    return Status::error(path + ": shape holds more than " + std::to_string(kMaxTensorElements) + " elements");
  }
  return Status();
}

Result<std::vector<int64_t>> parse_shape(const json& object, const std::string& path, int64_t* element_count) {
  TESSERA_ASSIGN_OR_RETURN(const json* shape,
                           member(object, "shape", path, json::value_t::array, "a list of integers"));
  std::vector<int64_t> dims;
  for (const json& d : *shape) {
    if (!d.is_number_integer()) {
      return Status::error(path + ": shape must hold integers, got " + type_name(d));
    }
    dims.push_back(d.get<int64_t>());
  }
  TESSERA_RETURN_IF_ERROR(check_dims(dims, path, element_count));
  return dims;
}

// Dims of a graph input or output: positive integers, or (format v2) symbol names.
Result<std::vector<Dim>> parse_dims(const json& object, const std::string& path, int version) {
  TESSERA_ASSIGN_OR_RETURN(const json* shape,
                           member(object, "shape", path, json::value_t::array, "a list of sizes and symbol names"));
  std::vector<Dim> dims;
  std::vector<int64_t> sizes;
  for (const json& d : *shape) {
    if (d.is_string() && version >= 2) {
      if (d.get<std::string>().empty()) return Status::error(path + ": a symbolic dimension has an empty name");
      dims.push_back({0, d.get<std::string>()});
    } else if (d.is_number_integer()) {
      dims.push_back({d.get<int64_t>(), ""});
      sizes.push_back(d.get<int64_t>());
    } else {
      const char* expected = version >= 2 ? "integers or symbol names" : "integers (symbols need format version 2)";
      return Status::error(path + ": shape must hold " + std::string(expected) + ", got " + type_name(d));
    }
  }
  if (dims.size() > kMaxRank) {
    return Status::error(path + ": rank " + std::to_string(dims.size()) + " exceeds the maximum of " +
                         std::to_string(kMaxRank));
  }
  int64_t count = 0;
  TESSERA_RETURN_IF_ERROR(check_dims(sizes, path, &count));
  return dims;
}

Result<ValueInfo> parse_value_info(const json& entry, const std::string& path, int version) {
  if (!entry.is_object()) return Status::error(path + ": must be an object");
  ValueInfo info;
  TESSERA_ASSIGN_OR_RETURN(info.name, string_member(entry, "name", path));
  if (info.name.empty()) return Status::error(path + ": name is empty");
  const std::string named = path + " " + in_quotes(info.name);
  TESSERA_ASSIGN_OR_RETURN(info.dtype, parse_dtype(entry, named));
  if (info.dtype != DType::kFloat32 && version < 2) {
    return Status::error(named + ": graph inputs and outputs of format version 1 must be float32");
  }
  TESSERA_ASSIGN_OR_RETURN(info.dims, parse_dims(entry, named, version));
  return info;
}

// `{"dtype": "int64", "shape": [1], "values": [0]}`: a small tensor written inline.
Result<Tensor> parse_tensor_attribute(const json& value, const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(DType dtype, parse_dtype(value, path));
  int64_t count = 0;
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> dims, parse_shape(value, path, &count));
  TESSERA_ASSIGN_OR_RETURN(const json* values, member(value, "values", path, json::value_t::array, "a list"));
  if (static_cast<int64_t>(values->size()) != count) {
    return Status::error(path + ": holds " + std::to_string(values->size()) + " values, its shape needs " +
                         std::to_string(count));
  }
  Tensor t = Tensor::spec("", dims, dtype);
  t.bytes.resize(static_cast<size_t>(count) * dtype_size(dtype));
  for (int64_t i = 0; i < count; ++i) {
    const json& v = (*values)[i];
    if (!v.is_number() && !v.is_boolean()) return Status::error(path + ": values must be numbers");
    const double number = v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>();
    switch (dtype) {
      case DType::kFloat32: t.values<float>()[i] = static_cast<float>(number); break;
      case DType::kInt64:
        t.values<int64_t>()[i] = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(number);
        break;
      case DType::kInt32: t.values<int32_t>()[i] = static_cast<int32_t>(number); break;
      case DType::kBool: t.values<uint8_t>()[i] = number != 0; break;
      case DType::kUInt8: t.values<uint8_t>()[i] = static_cast<uint8_t>(number); break;
    }
  }
  return t;
}

Result<AttrValue> parse_attribute(const json& value, const std::string& path) {
  AttrValue attr;
  if (value.is_number_integer()) {
    attr.kind = AttrValue::Kind::kInt;
    attr.i = value.get<int64_t>();
    attr.f = static_cast<double>(attr.i);
  } else if (value.is_number_float()) {
    attr.kind = AttrValue::Kind::kFloat;
    attr.f = value.get<double>();
  } else if (value.is_string()) {
    attr.kind = AttrValue::Kind::kString;
    attr.s = value.get<std::string>();
  } else if (value.is_object()) {
    attr.kind = AttrValue::Kind::kTensor;
    TESSERA_ASSIGN_OR_RETURN(attr.tensor, parse_tensor_attribute(value, path));
  } else if (value.is_array()) {
    const bool all_ints = std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_number_integer(); });
    const bool all_numbers = std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_number(); });
    if (!all_numbers) return Status::error(path + ": a list attribute must hold only numbers");
    attr.kind = all_ints ? AttrValue::Kind::kInts : AttrValue::Kind::kFloats;
    for (const json& v : value) {
      attr.floats.push_back(v.get<double>());
      if (all_ints) attr.ints.push_back(v.get<int64_t>());
    }
  } else {
    return Status::error(path + ": unsupported attribute value (" + std::string(value.type_name()) + ")");
  }
  return attr;
}

Result<std::vector<std::string>> parse_names(const json& node, const char* key, const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(const json* list, member(node, key, path, json::value_t::array, "a list of tensor names"));
  std::vector<std::string> names;
  for (const json& name : *list) {
    if (!name.is_string()) return Status::error(path + ": \"" + key + "\" must hold strings");
    names.push_back(name.get<std::string>());
  }
  return names;
}

Result<NodeDesc> parse_node(const json& entry, int index) {
  const std::string at = "nodes[" + std::to_string(index) + "]";
  if (!entry.is_object()) return Status::error(at + ": must be an object");
  NodeDesc node;
  node.index = index;
  TESSERA_ASSIGN_OR_RETURN(node.op, string_member(entry, "op", at));
  TESSERA_ASSIGN_OR_RETURN(node.name, string_member(entry, "name", at));
  if (node.name.empty()) return Status::error(at + " (" + node.op + "): name is empty");
  const std::string path = node.path();
  TESSERA_ASSIGN_OR_RETURN(node.inputs, parse_names(entry, "inputs", path));
  TESSERA_ASSIGN_OR_RETURN(node.outputs, parse_names(entry, "outputs", path));
  if (node.outputs.empty()) return Status::error(path + ": has no outputs");
  for (const std::string& output : node.outputs) {
    if (output.empty()) return Status::error(path + ": an output name is empty");
  }
  if (auto it = entry.find("attributes"); it != entry.end()) {
    if (!it->is_object()) return Status::error(path + ": \"attributes\" must be an object");
    for (const auto& [key, value] : it->items()) {
      TESSERA_ASSIGN_OR_RETURN(node.attributes[key], parse_attribute(value, path + ": attribute " + in_quotes(key)));
    }
  }
  return node;
}

// Checks the initializer's bytes lie in a `file_bytes`-byte weights file; `data` is set later.
Result<Initializer> parse_initializer(const json& entry, int index, int64_t file_bytes) {
  std::string path = "initializers[" + std::to_string(index) + "]";
  if (!entry.is_object()) return Status::error(path + ": must be an object");
  Initializer init;
  TESSERA_ASSIGN_OR_RETURN(init.name, string_member(entry, "name", path));
  if (init.name.empty()) return Status::error(path + ": name is empty");
  path += " " + in_quotes(init.name);
  TESSERA_ASSIGN_OR_RETURN(init.dtype, parse_dtype(entry, path));
  TESSERA_ASSIGN_OR_RETURN(init.shape, parse_shape(entry, path, &init.element_count));
  TESSERA_ASSIGN_OR_RETURN(const json* offset_json,
                           member(entry, "offset", path, json::value_t::number_integer, "an integer"));
  TESSERA_ASSIGN_OR_RETURN(const json* length_json,
                           member(entry, "length", path, json::value_t::number_integer, "an integer"));
  const int64_t offset = offset_json->get<int64_t>();
  const int64_t length = length_json->get<int64_t>();
  const int64_t element_bytes = static_cast<int64_t>(dtype_size(init.dtype));
  if (offset < 0 || length < 0) return Status::error(path + ": offset and length must not be negative");
  if (offset % element_bytes != 0) {
    return Status::error(path + ": offset " + std::to_string(offset) + " is not a multiple of " +
                         std::to_string(element_bytes) + " (misaligned " + dtype_name(init.dtype) + " data)");
  }
  if (length != init.element_count * element_bytes) {
    return Status::error(path + ": length " + std::to_string(length) + " bytes does not match shape (" +
                         std::to_string(init.element_count * element_bytes) + " bytes expected)");
  }
  int64_t end = 0;
  if (!checked_add(offset, length, &end) || end > file_bytes) {
    return Status::error(path + ": bytes [" + std::to_string(offset) + ", " + std::to_string(offset + length) +
                         ") lie past the end of the " + std::to_string(file_bytes) + "-byte weights file");
  }
  init.offset = offset;
  return init;
}

// Kahn's algorithm; nodes left over sit on or behind a cycle.
Result<std::vector<NodeDesc>> topological_order(std::vector<NodeDesc> nodes,
                                                const std::unordered_map<std::string, int>& producer) {
  const size_t n = nodes.size();
  std::vector<int> missing_inputs(n, 0);
  std::vector<std::vector<int>> consumers(n);
  for (size_t i = 0; i < n; ++i) {
    for (const std::string& input : nodes[i].inputs) {
      auto it = producer.find(input);
      if (it == producer.end()) continue;
      ++missing_inputs[i];
      consumers[it->second].push_back(static_cast<int>(i));
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;  // keeps JSON order where free
  for (size_t i = 0; i < n; ++i) {
    if (missing_inputs[i] == 0) ready.push(static_cast<int>(i));
  }
  std::vector<NodeDesc> ordered;
  std::vector<bool> done(n, false);
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    done[i] = true;
    for (int c : consumers[i]) {
      if (--missing_inputs[c] == 0) ready.push(c);
    }
    ordered.push_back(nodes[i]);
  }
  if (ordered.size() != n) {
    for (size_t i = 0; i < n; ++i) {
      if (!done[i]) return Status::error(nodes[i].path() + ": is part of a cycle (or depends on one)");
    }
  }
  return ordered;
}

// A SAX handler that accepts everything and keeps the parser's error message, which names
// the byte position; the core is built without exceptions, so the DOM parser cannot tell us.
class ErrorCollector final : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) override {
    message = error.what();
    return false;
  }
  std::string message = "unknown parse error";
};

std::string json_error(std::string_view text) {
  ErrorCollector collector;
  json::sax_parse(text, &collector);
  return collector.message;
}

}  // namespace

Result<std::string> weights_file_name(std::string_view json_text) {
  json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Status::error("model JSON is malformed: " + json_error(json_text));
  if (!root.is_object()) return Status::error("model JSON must be an object");
  auto it = root.find("weights");
  if (it == root.end()) return std::string();
  if (!it->is_string()) return Status::error("\"weights\" must be a string");
  return it->get<std::string>();
}

namespace {

// The model with every initializer checked against a `file_bytes`-byte weights file, its
// `data` not yet set.
Result<ModelDesc> parse_model(std::string_view json_text, int64_t file_bytes) {
  json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Status::error("model JSON is malformed: " + json_error(json_text));
  if (!root.is_object()) return Status::error("model JSON must be an object");
  TESSERA_ASSIGN_OR_RETURN(std::string format, string_member(root, "format", "model"));
  if (format != "tessera") return Status::error("model: \"format\" must be \"tessera\", got " + in_quotes(format));
  TESSERA_ASSIGN_OR_RETURN(const json* version,
                           member(root, "version", "model", json::value_t::number_integer, "an integer"));
  if (*version != 1 && *version != 2) {
    return Status::error("model: format version " + version->dump() +
                         " is not supported (this build reads versions 1 and 2)");
  }
  const int format_version = version->get<int>();

  ModelDesc model;
  if (auto it = root.find("name"); it != root.end() && it->is_string()) model.name = it->get<std::string>();

  for (const char* key : {"inputs", "outputs", "nodes"}) {
    TESSERA_RETURN_IF_ERROR(member(root, key, "model", json::value_t::array, "a list"));
  }
  std::unordered_map<std::string, std::string> defined;  // tensor name -> where it is defined
  auto define = [&](const std::string& name, const std::string& where) -> Status {
    auto [it, inserted] = defined.emplace(name, where);
    if (!inserted) return Status::error(where + ": tensor " + in_quotes(name) + " is already defined by " + it->second);
    return Status();
  };

  int index = 0;
  for (const json& entry : root["inputs"]) {
    const std::string path = "inputs[" + std::to_string(index++) + "]";
    TESSERA_ASSIGN_OR_RETURN(ValueInfo info, parse_value_info(entry, path, format_version));
    TESSERA_RETURN_IF_ERROR(define(info.name, path));
    model.inputs.push_back(std::move(info));
  }
  index = 0;
  if (auto it = root.find("initializers"); it != root.end()) {
    if (!it->is_array()) return Status::error("model: \"initializers\" must be a list");
    for (const json& entry : *it) {
      TESSERA_ASSIGN_OR_RETURN(Initializer init, parse_initializer(entry, index, file_bytes));
      TESSERA_RETURN_IF_ERROR(define(init.name, "initializers[" + std::to_string(index) + "]"));
      model.initializers.push_back(std::move(init));
      ++index;
    }
  }

  std::vector<NodeDesc> nodes;
  std::unordered_map<std::string, int> producer;  // tensor -> node position in `nodes`
  std::set<std::string> node_names;
  index = 0;
  for (const json& entry : root["nodes"]) {
    TESSERA_ASSIGN_OR_RETURN(NodeDesc node, parse_node(entry, index++));
    if (!node_names.insert(node.name).second) {
      return Status::error(node.path() + ": another node is already named " + in_quotes(node.name));
    }
    for (const std::string& output : node.outputs) {
      TESSERA_RETURN_IF_ERROR(define(output, node.path()));
      producer[output] = static_cast<int>(nodes.size());
    }
    nodes.push_back(std::move(node));
  }
  for (const NodeDesc& node : nodes) {
    for (const std::string& input : node.inputs) {
      if (!input.empty() && !defined.count(input)) {
        return Status::error(node.path() + ": input " + in_quotes(input) +
                             " is not a graph input, initializer or node output");
      }
    }
  }

  index = 0;
  for (const json& entry : root["outputs"]) {
    const std::string path = "outputs[" + std::to_string(index++) + "]";
    TESSERA_ASSIGN_OR_RETURN(ValueInfo info, parse_value_info(entry, path, format_version));
    if (!defined.count(info.name)) {
      return Status::error(path + " " + in_quotes(info.name) + ": no node, input or initializer produces it");
    }
    for (const ValueInfo& other : model.outputs) {
      if (other.name == info.name) return Status::error(path + " " + in_quotes(info.name) + ": listed twice");
    }
    model.outputs.push_back(std::move(info));
  }
  if (model.outputs.empty()) return Status::error("model: has no outputs");

  TESSERA_ASSIGN_OR_RETURN(model.nodes, topological_order(std::move(nodes), producer));
  return model;
}

bool read_for_planning(const Initializer& init) { return init.bytes() <= kPlanningBytes; }

// Where planning's initializers go in its buffer: one after another, in the model's order.
std::vector<PlanningExtent> planning_layout(const ModelDesc& model) {
  std::vector<PlanningExtent> extents;
  int64_t at = 0;
  for (const Initializer& init : model.initializers) {
    if (!read_for_planning(init)) continue;
    extents.push_back({init.offset, init.bytes(), at});
    at = AlignedBuffer::padded(at + init.bytes());
  }
  return extents;
}

}  // namespace

// Where an initializer of no bytes points: any non-null address (null would mean no constant).
alignas(AlignedBuffer::kAlignment) const std::byte kNoBytes[AlignedBuffer::kAlignment] = {};

Result<ModelDesc> load_model(std::string_view json_text, WeightsFile weights) {
  TESSERA_ASSIGN_OR_RETURN(ModelDesc model, parse_model(json_text, weights.size()));
  auto shared = std::make_shared<const WeightsFile>(std::move(weights));
  for (Initializer& init : model.initializers) {
    const bool held = shared->held_from(init.offset) >= init.bytes();
    init.data = init.bytes() == 0 ? kNoBytes : held ? shared->at(init.offset) : nullptr;
    if (init.data == nullptr) {
      return Status::error("initializer \"" + init.name + "\": its bytes were not loaded");
    }
  }
  model.weights = std::move(shared);
  return model;
}

Result<std::vector<std::pair<int64_t, int64_t>>> initializer_extents(std::string_view json_text,
                                                                     int64_t weights_bytes) {
  TESSERA_ASSIGN_OR_RETURN(ModelDesc model, parse_model(json_text, weights_bytes));
  std::vector<std::pair<int64_t, int64_t>> extents;
  for (const Initializer& init : model.initializers) extents.emplace_back(init.offset, init.bytes());
  return extents;
}

Result<std::vector<PlanningExtent>> planning_extents(std::string_view json_text, int64_t weights_bytes) {
  TESSERA_ASSIGN_OR_RETURN(ModelDesc model, parse_model(json_text, weights_bytes));
  return planning_layout(model);
}

Result<ModelDesc> load_model_for_planning(std::string_view json_text, int64_t weights_bytes,
                                          const AlignedBuffer& read) {
  TESSERA_ASSIGN_OR_RETURN(ModelDesc model, parse_model(json_text, weights_bytes));
  const std::vector<PlanningExtent> extents = planning_layout(model);
  const int64_t read_bytes = extents.empty() ? 0 : extents.back().at + extents.back().bytes;
  if (static_cast<int64_t>(read.size()) != read_bytes) {
    return Status::error("planning weights: " + std::to_string(read.size()) + " bytes given, the model's planning " +
                         "extents hold " + std::to_string(read_bytes));
  }
  int64_t largest_left = 0;
  for (const Initializer& init : model.initializers)
    if (!read_for_planning(init)) largest_left = std::max(largest_left, init.bytes());
  // The bytes read, then zeros standing in for every initializer left out.
  const int64_t zeros_at = AlignedBuffer::padded(read_bytes);
  AlignedBuffer buffer = AlignedBuffer::allocate(static_cast<size_t>(zeros_at + largest_left));
  if (zeros_at + largest_left > 0 && !buffer.data()) return Status::error("out of memory for the planning weights");
  if (read_bytes > 0) std::memcpy(buffer.data(), read.data(), read.size());
  std::memset(buffer.data() + zeros_at, 0, static_cast<size_t>(largest_left));
  auto shared = std::make_shared<const WeightsFile>(std::move(buffer));
  auto extent = extents.begin();
  for (Initializer& init : model.initializers) {
    const int64_t at = read_for_planning(init) ? (extent++)->at : zeros_at;
    init.data = init.bytes() == 0 ? kNoBytes : shared->at(at);
  }
  model.weights = std::move(shared);
  return model;
}

Result<ModelFiles> read_model_files(const std::string& json_path) {
  TESSERA_ASSIGN_OR_RETURN(AlignedBuffer json, read_file(json_path));
  ModelFiles files;
  files.json.assign(reinterpret_cast<const char*>(json.data()), json.size());
  TESSERA_ASSIGN_OR_RETURN(std::string weights_name, weights_file_name(files.json));
  std::string weights_path;
  if (!weights_name.empty()) {
    const size_t slash = json_path.find_last_of('/');
    weights_path = (slash == std::string::npos ? "" : json_path.substr(0, slash + 1)) + weights_name;
  } else {
    const size_t dot = json_path.rfind(".json");
    weights_path = (dot == std::string::npos ? json_path : json_path.substr(0, dot)) + ".bin";
  }
  auto weights = map_file(weights_path);
  if (weights.ok()) {
    files.weights = std::move(weights).value();
  } else if (!weights_name.empty()) {
    return weights.status();  // a named weights file must exist; a default one may be absent
  }
  return files;
}

Result<AlignedBuffer> read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return Status::error("cannot open " + in_quotes(path));
  const std::streamoff size = file.tellg();
  if (size < 0) return Status::error("cannot read " + in_quotes(path));
  AlignedBuffer buffer = AlignedBuffer::allocate(static_cast<size_t>(size));
  if (size > 0 && buffer.data() == nullptr) {
    return Status::error("out of memory reading " + in_quotes(path) + " (" + std::to_string(size) + " bytes)");
  }
  file.seekg(0);
  if (size > 0 && !file.read(reinterpret_cast<char*>(buffer.data()), size)) {
    return Status::error("cannot read " + in_quotes(path));
  }
  return buffer;
}

Result<AlignedBuffer> map_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::error("cannot open " + in_quotes(path));
  struct stat info {};
  AlignedBuffer mapped;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode))
    mapped = AlignedBuffer::map_file(fd, static_cast<size_t>(info.st_size));
  close(fd);  // the mapping keeps the file
  if (mapped.data() != nullptr) return mapped;
  return read_file(path);
}

}  // namespace tessera::model
