// In-memory test models, with output shapes from the engine's own op parsers.
#include "tests/support/op_model.h"

#include <cstring>

#include "core/ops/ops.h"

namespace tessera::testing {

int64_t random_int(std::mt19937& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng() % static_cast<uint32_t>(hi - lo + 1));
}

std::vector<float> ModelBuilder::random_values(const Dims& dims, float lo, float hi) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(n);
  for (float& x : v) x = lo + (hi - lo) * static_cast<float>(rng_() >> 8) / static_cast<float>(1 << 24);
  return v;
}

std::string ModelBuilder::input(Dims dims, float lo, float hi) {
  const std::string name = "in" + std::to_string(tensors_.size());
  tensors_.push_back({name, TestTensor::Kind::kInput, dims, random_values(dims, lo, hi), {}});
  shapes_.emplace_back(name, dims);
  return name;
}

std::string ModelBuilder::weight(Dims dims, float lo, float hi) { return constant(dims, random_values(dims, lo, hi)); }

std::string ModelBuilder::constant(Dims dims, std::vector<float> values) {
  const std::string name = "w" + std::to_string(tensors_.size());
  tensors_.push_back({name, TestTensor::Kind::kWeight, dims, std::move(values), {}});
  shapes_.emplace_back(name, dims);
  return name;
}

std::string ModelBuilder::ints(std::vector<int64_t> values) {
  const Dims dims{static_cast<int64_t>(values.size())};
  return ints(dims, std::move(values));
}

std::string ModelBuilder::ints(Dims dims, std::vector<int64_t> values) {
  const std::string name = "i" + std::to_string(tensors_.size());
  tensors_.push_back({name, TestTensor::Kind::kInts, dims, {}, std::move(values)});
  shapes_.emplace_back(name, dims);
  return name;
}

Dims ModelBuilder::shape_of(const std::string& tensor) const {
  for (const auto& [name, dims] : shapes_) {
    if (name == tensor) return dims;
  }
  return {};
}

std::string ModelBuilder::node(const std::string& op, std::vector<std::string> inputs, nlohmann::json attributes) {
  return node_outputs(op, std::move(inputs), std::move(attributes), 1)[0];
}

std::vector<std::string> ModelBuilder::node_outputs(const std::string& op, std::vector<std::string> inputs,
                                                    nlohmann::json attributes, int count) {
  const std::string name = op + std::to_string(nodes_.size());
  std::vector<std::string> outputs;
  for (int i = 0; i < count; ++i) {
    outputs.push_back(name + "_out");
    if (count > 1) outputs.back() += std::to_string(i);
  }
  nlohmann::json node = {{"op", op}, {"name", name}, {"inputs", inputs}, {"outputs", outputs}};
  if (!attributes.is_null()) node["attributes"] = attributes;
  nodes_.push_back(node);
  // Infer the output shape the way the engine will, so tests declare it correctly.
  model::NodeDesc desc;
  desc.op = op;
  desc.name = name;
  desc.inputs = inputs;
  desc.outputs = outputs;
  if (!attributes.is_null()) {
    for (const auto& [key, value] : attributes.items()) {
      model::AttrValue& a = desc.attributes[key];
      if (value.is_number_integer()) {
        a.kind = model::AttrValue::Kind::kInt;
        a.i = value.get<int64_t>();
        a.f = value.get<double>();
      } else if (value.is_number_float()) {
        a.kind = model::AttrValue::Kind::kFloat;
        a.f = value.get<double>();
      } else if (value.is_string()) {
        a.kind = model::AttrValue::Kind::kString;
        a.s = value.get<std::string>();
      } else {
        a.kind = model::AttrValue::Kind::kInts;
        a.ints = value.get<std::vector<int64_t>>();
      }
    }
  }
  std::vector<ops::ParsedInput> parsed;
  for (const std::string& in : inputs) {
    ops::ParsedInput p;
    for (const TestTensor& t : tensors_) {
      if (t.name != in) continue;
      p.present = true;
      p.shape = t.dims;
      if (t.kind == TestTensor::Kind::kWeight) p.constant = t.data.data();
      if (t.kind == TestTensor::Kind::kInts) p.constant = t.ints.data(), p.dtype = model::DType::kInt64;
    }
    if (!p.present && !in.empty()) p = {true, shape_of(in), model::DType::kFloat32, nullptr};
    parsed.push_back(p);
  }
  auto result = ops::parse_node(desc, parsed);
  for (int i = 0; i < count; ++i) {
    Dims shape;
    if (result.ok()) shape = i == 0 ? result->output : result->more_outputs[i - 1].output;
    shapes_.emplace_back(outputs[i], shape);
  }
  return outputs;
}

TestModel ModelBuilder::build(const std::vector<std::string>& outputs) const {
  TestModel m;
  nlohmann::json inputs = nlohmann::json::array(), initializers = nlohmann::json::array(),
                 outs = nlohmann::json::array();
  for (const TestTensor& t : tensors_) {
    if (t.kind == TestTensor::Kind::kInput) {
      inputs.push_back({{"name", t.name}, {"dtype", "float32"}, {"shape", t.dims}});
      m.inputs.push_back({t.name, t.dims, t.data});
      continue;
    }
    const bool is_int = t.kind == TestTensor::Kind::kInts;
    const size_t bytes = is_int ? 8 * t.ints.size() : 4 * t.data.size();
    const size_t offset = (m.weights.size() + 63) / 64 * 64;
    m.weights.resize(offset + bytes);
    std::memcpy(m.weights.data() + offset, is_int ? static_cast<const void*>(t.ints.data()) : t.data.data(), bytes);
    initializers.push_back({{"name", t.name},
                            {"dtype", is_int ? "int64" : "float32"},
                            {"shape", t.dims},
                            {"offset", offset},
                            {"length", bytes}});
  }
  for (const std::string& o : outputs) outs.push_back({{"name", o}, {"dtype", "float32"}, {"shape", shape_of(o)}});
  m.json = nlohmann::json{{"format", "tessera"}, {"version", 1},    {"name", "test"},
                          {"inputs", inputs},    {"outputs", outs}, {"initializers", initializers},
                          {"nodes", nodes_}}
               .dump();
  return m;
}

}  // namespace tessera::testing
