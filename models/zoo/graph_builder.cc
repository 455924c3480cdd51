// GraphBuilder: name bookkeeping, 64-byte aligned weight packing, FLOP counting, JSON and
// .bin serialisation.
#include "models/zoo/graph_builder.h"

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/base/check.h"

namespace tessera::zoo {

using nlohmann::ordered_json;

int64_t element_count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

ordered_json value_info(const std::string& name, const Shape& shape) {
  return ordered_json{{"name", name}, {"dtype", "float32"}, {"shape", shape}};
}

// Shortest text that reads back as the same float, e.g. "6", "0.5", "1.4142135".
std::string float_text(float value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  TESSERA_CHECK(ec == std::errc());
  return std::string(buffer, end);
}

// Multiply-adds of the ops that dominate compute, from shapes alone.
int64_t macs_of(const std::string& op, const std::vector<Tensor>& inputs, const Shape& output,
                const Attributes& attributes) {
  const int64_t out = element_count(output);
  if (op == "Conv") {
    const Shape& w = inputs.at(1).shape;
    return out * (element_count(w) / w.at(0));
  }
  if (op == "MatMul") return out * inputs.at(0).shape.back();
  if (op == "Gemm") {
    const bool trans_a = attributes.value("transA", 0) != 0;
    const Shape& a = inputs.at(0).shape;
    return out * (trans_a ? a.at(0) : a.at(1));
  }
  return 0;
}

}  // namespace

GraphBuilder::GraphBuilder(std::string graph_name) : graph_name_(std::move(graph_name)) {}

void GraphBuilder::define_tensor(const std::string& name) {
  TESSERA_CHECK(!name.empty());
  const bool inserted = tensor_names_.insert(name).second;
  if (!inserted) std::fprintf(stderr, "duplicate tensor name \"%s\"\n", name.c_str());
  TESSERA_CHECK(inserted);
}

Tensor GraphBuilder::input(const std::string& name, Shape shape) {
  define_tensor(name);
  inputs_.push_back(value_info(name, shape));
  return Tensor{name, std::move(shape)};
}

Tensor GraphBuilder::output(const Tensor& tensor, const std::string& name) {
  TESSERA_CHECK(tensor_names_.count(tensor.name) == 1);
  Tensor out = tensor;
  if (!name.empty() && name != tensor.name) {
    int renamed = 0;
    for (auto& entry : nodes_) {
      for (const auto& input : entry["inputs"]) TESSERA_CHECK(input != tensor.name);
      if (entry["outputs"][0] == tensor.name) {
        entry["outputs"][0] = name;
        ++renamed;
      }
    }
    TESSERA_CHECK(renamed == 1);
    tensor_names_.erase(tensor.name);
    define_tensor(name);
    out.name = name;
  }
  outputs_.push_back(value_info(out.name, out.shape));
  return out;
}

size_t GraphBuilder::append_bytes(const void* data, size_t bytes) {
  const size_t offset = (weights_.size() + kInitializerAlignment - 1) / kInitializerAlignment * kInitializerAlignment;
  weights_.resize(offset + bytes);  // padding bytes are value-initialised to zero
  std::memcpy(weights_.data() + offset, data, bytes);
  return offset;
}

Tensor GraphBuilder::initializer(const std::string& name, Shape shape, const std::vector<float>& values,
                                 InitKind kind) {
  TESSERA_CHECK(static_cast<int64_t>(values.size()) == element_count(shape));
  define_tensor(name);
  const size_t bytes = values.size() * sizeof(float);
  const size_t offset = append_bytes(values.data(), bytes);
  initializers_.push_back(
      ordered_json{{"name", name}, {"dtype", "float32"}, {"shape", shape}, {"offset", offset}, {"length", bytes}});
  if (kind == InitKind::kParameter) parameter_count_ += static_cast<int64_t>(values.size());
  return Tensor{name, std::move(shape)};
}

Tensor GraphBuilder::int64_initializer(const std::string& name, Shape shape, const std::vector<int64_t>& values) {
  TESSERA_CHECK(static_cast<int64_t>(values.size()) == element_count(shape));
  define_tensor(name);
  const size_t bytes = values.size() * sizeof(int64_t);
  const size_t offset = append_bytes(values.data(), bytes);  // little-endian host (x86, wasm)
  initializers_.push_back(
      ordered_json{{"name", name}, {"dtype", "int64"}, {"shape", shape}, {"offset", offset}, {"length", bytes}});
  return Tensor{name, std::move(shape)};
}

Tensor GraphBuilder::scalar(float value) {
  const std::string name = "const." + float_text(value);
  if (auto it = constants_.find(name); it != constants_.end()) return it->second;
  Tensor t = initializer(name, {}, {value}, InitKind::kConstant);
  constants_.emplace(name, t);
  return t;
}

Tensor GraphBuilder::int64_list(const std::vector<int64_t>& values, const std::string& kind) {
  std::string name = kind + ".";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) name += '_';
    name += std::to_string(values[i]);
  }
  if (auto it = constants_.find(name); it != constants_.end()) return it->second;
  Tensor t = int64_initializer(name, {static_cast<int64_t>(values.size())}, values);
  constants_.emplace(name, t);
  return t;
}

Tensor GraphBuilder::node(const std::string& op, const std::string& name, const std::vector<Tensor>& inputs,
                          Shape output_shape, Attributes attributes, const std::string& output_name) {
  TESSERA_CHECK(attributes.is_object());
  std::string unique = name;
  for (int i = 1; node_names_.count(unique) || (output_name.empty() && tensor_names_.count(unique)); ++i) {
    unique = name + "_" + std::to_string(i);
  }
  node_names_.insert(unique);
  const std::string output = output_name.empty() ? unique : output_name;
  define_tensor(output);

  std::vector<std::string> input_names;
  for (const Tensor& t : inputs) {
    TESSERA_CHECK(tensor_names_.count(t.name) == 1);
    input_names.push_back(t.name);
  }
  ordered_json entry{
      {"op", op}, {"name", unique}, {"inputs", input_names}, {"outputs", std::vector<std::string>{output}}};
  if (!attributes.empty()) entry["attributes"] = attributes;
  nodes_.push_back(std::move(entry));
  flops_ += 2 * macs_of(op, inputs, output_shape, attributes);
  return Tensor{output, std::move(output_shape)};
}

std::string GraphBuilder::to_json(const std::string& weights_file) const {
  auto list = [](const std::vector<ordered_json>& entries) {
    if (entries.empty()) return std::string("[]");
    std::string text = "[\n";
    for (size_t i = 0; i < entries.size(); ++i) {
      text += "    " + entries[i].dump() + (i + 1 < entries.size() ? ",\n" : "\n");
    }
    return text + "  ]";
  };
  std::string text = "{\n";
  text += "  \"format\": \"tessera\",\n";
  text += "  \"version\": 1,\n";
  text += "  \"name\": " + ordered_json(graph_name_).dump() + ",\n";
  text += "  \"weights\": " + ordered_json(weights_file).dump() + ",\n";
  text += "  \"inputs\": " + list(inputs_) + ",\n";
  text += "  \"outputs\": " + list(outputs_) + ",\n";
  text += "  \"initializers\": " + list(initializers_) + ",\n";
  text += "  \"nodes\": " + list(nodes_) + "\n";
  return text + "}\n";
}

namespace {

Status write_file(const std::filesystem::path& path, const void* data, size_t bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return Status::error("cannot open \"" + path.string() + "\" for writing");
  file.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  file.close();
  if (!file) return Status::error("cannot write \"" + path.string() + "\"");
  return Status();
}

}  // namespace

Status write_model(const GraphBuilder& graph, const std::string& dir, const std::string& stem) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::error("cannot create directory \"" + dir + "\": " + ec.message());
  const std::filesystem::path base(dir);
  const std::string json_text = graph.to_json(stem + ".bin");
  TESSERA_RETURN_IF_ERROR(write_file(base / (stem + ".json"), json_text.data(), json_text.size()));
  return write_file(base / (stem + ".bin"), graph.weights().data(), graph.weights().size());
}

}  // namespace tessera::zoo
