// In-memory test models, with output shapes from the engine's own op parsers.
#include "tests/support/op_model.h"

#include <cstring>
#include <utility>

#include "core/ops/ops.h"

namespace tessera::testing {

namespace {

// The attribute as the model loader would read it from JSON.
model::AttrValue attribute(const nlohmann::json& value) {
  model::AttrValue a;
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
  } else if (value.is_object()) {
    a.kind = model::AttrValue::Kind::kTensor;
    DType dtype = DType::kFloat32;
    parse_dtype(value["dtype"].get<std::string>(), &dtype);
    std::vector<double> values = value["values"].get<std::vector<double>>();
    a.tensor = Tensor::spec("", value["shape"].get<std::vector<int64_t>>(), dtype);
    a.tensor.bytes.resize(values.size() * dtype_size(dtype));
    // values<T>() is empty unless T is the dtype's type (subspan of it would be out of bounds).
    for (size_t i = 0; i < values.size(); ++i) {
      switch (dtype) {
        case DType::kFloat32: a.tensor.values<float>()[i] = static_cast<float>(values[i]); break;
        case DType::kInt64: a.tensor.values<int64_t>()[i] = static_cast<int64_t>(values[i]); break;
        case DType::kInt32: a.tensor.values<int32_t>()[i] = static_cast<int32_t>(values[i]); break;
        case DType::kBool:
        case DType::kUInt8: a.tensor.values<uint8_t>()[i] = static_cast<uint8_t>(values[i]); break;
      }
    }
  } else if (std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_number_integer(); })) {
    a.kind = model::AttrValue::Kind::kInts;
    a.ints = value.get<std::vector<int64_t>>();
    for (int64_t v : a.ints) a.floats.push_back(static_cast<double>(v));
  } else {
    a.kind = model::AttrValue::Kind::kFloats;
    a.floats = value.get<std::vector<double>>();
  }
  return a;
}

}  // namespace

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

std::string ModelBuilder::add(bool is_input, const char* prefix, Tensor value) {
  value.name = prefix + std::to_string(tensors_.size());
  known_[value.name] = {value.dims, value.dtype, is_input ? std::nullopt : std::optional<Tensor>(value)};
  tensors_.push_back({is_input, value});
  return value.name;
}

std::string ModelBuilder::input(Dims dims, float lo, float hi) {
  return add(true, "in", Tensor("", dims, random_values(dims, lo, hi)));
}

std::string ModelBuilder::input(Tensor value) { return add(true, "in", std::move(value)); }

std::string ModelBuilder::weight(Dims dims, float lo, float hi) { return constant(dims, random_values(dims, lo, hi)); }

std::string ModelBuilder::constant(Dims dims, std::vector<float> values) {
  return add(false, "w", Tensor("", std::move(dims), values));
}

std::string ModelBuilder::constant(Tensor value) { return add(false, "w", std::move(value)); }

std::string ModelBuilder::ints(std::vector<int64_t> values) {
  const Dims dims{static_cast<int64_t>(values.size())};
  return ints(dims, std::move(values));
}

std::string ModelBuilder::ints(Dims dims, std::vector<int64_t> values) {
  return add(false, "i", Tensor::of("", std::move(dims), DType::kInt64, values.data()));
}

Dims ModelBuilder::shape_of(const std::string& tensor) const {
  auto it = known_.find(tensor);
  return it == known_.end() ? Dims{} : it->second.dims;
}

DType ModelBuilder::dtype_of(const std::string& tensor) const {
  auto it = known_.find(tensor);
  return it == known_.end() ? DType::kFloat32 : it->second.dtype;
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
  // Infer the outputs the way the engine will, so tests declare them correctly.
  model::NodeDesc desc;
  desc.op = op;
  desc.name = name;
  desc.inputs = inputs;
  desc.outputs = outputs;
  if (!attributes.is_null()) {
    for (const auto& [key, value] : attributes.items()) desc.attributes[key] = attribute(value);
  }
  std::vector<ops::ParsedInput> parsed;
  std::vector<const void*> values;
  bool all_constant = true;
  for (const std::string& in : inputs) {
    ops::ParsedInput p;
    auto it = known_.find(in);
    if (it != known_.end()) {
      const Known& k = it->second;
      p = {true, k.dims, k.dtype, k.value ? k.value->bytes.data() : nullptr, in};
      all_constant = all_constant && k.value.has_value();
    }
    values.push_back(p.constant);
    parsed.push_back(p);
  }
  auto result = ops::parse_node(desc, parsed);
  if (!result.ok()) {
    for (const std::string& out : outputs) known_[out] = {};
    return outputs;
  }
  std::vector<ops::ParsedOp> per_output = std::move(result->more_outputs);
  per_output.insert(per_output.begin(), std::move(result.value()));
  for (int i = 0; i < count; ++i) {
    ops::ParsedOp& p = per_output[i];
    Known k{p.output, p.dtype, p.value};
    if (!k.value && all_constant) {
      ops::OpShapes shapes{{}, p.output, {}, p.dtype};
      for (const ops::ParsedInput& in : parsed) {
        shapes.inputs.push_back(in.shape);
        shapes.input_dtypes.push_back(in.dtype);
      }
      Tensor value = Tensor::spec(outputs[i], p.output, p.dtype);
      value.bytes.resize(static_cast<size_t>(value.element_count()) * dtype_size(p.dtype));
      ops::op_reference(p.attrs, shapes, values, value.bytes.data());
      k.value = std::move(value);
    }
    known_[outputs[i]] = std::move(k);
  }
  return outputs;
}

TestModel ModelBuilder::build(const std::vector<std::string>& outputs) const {
  TestModel m;
  nlohmann::json inputs = nlohmann::json::array(), initializers = nlohmann::json::array(),
                 outs = nlohmann::json::array();
  for (const TestTensor& t : tensors_) {
    const Tensor& v = t.value;
    if (t.is_input) {
      inputs.push_back({{"name", v.name}, {"dtype", dtype_name(v.dtype)}, {"shape", v.dims}});
      m.inputs.push_back(v);
      continue;
    }
    const size_t offset = (m.weights.size() + 63) / 64 * 64;
    m.weights.resize(offset + v.bytes.size());
    if (!v.bytes.empty()) std::memcpy(m.weights.data() + offset, v.bytes.data(), v.bytes.size());
    initializers.push_back({{"name", v.name},
                            {"dtype", dtype_name(v.dtype)},
                            {"shape", v.dims},
                            {"offset", offset},
                            {"length", v.bytes.size()}});
  }
  for (const std::string& o : outputs) {
    outs.push_back({{"name", o}, {"dtype", dtype_name(dtype_of(o))}, {"shape", shape_of(o)}});
  }
  m.json = nlohmann::json{{"format", "tessera"}, {"version", 2},    {"name", "test"},
                          {"inputs", inputs},    {"outputs", outs}, {"initializers", initializers},
                          {"nodes", nodes_}}
               .dump();
  return m;
}

TestModel wide_layers_model() {
  ModelBuilder b(11);
  const std::string x = b.input({3, 200});
  std::string h = b.node("Gemm", {x, b.weight({700, 200}), b.weight({700})}, {{"transB", 1}});
  h = b.node("Relu", {h});
  const std::string wide = b.node("MatMul", {h, b.weight({700, 333})});
  const std::string skip = b.node("MatMul", {wide, b.weight({333, 333})});
  return b.build({b.node("Add", {skip, wide})});
}

TestModel interleaved_chain_model() {
  ModelBuilder b(3);
  std::string h = b.input({1, 200});
  for (const auto& [in, out] : {std::pair<int64_t, int64_t>{200, 500}, {500, 250}, {250, 500}, {500, 150}, {150, 416}})
    h = b.node("Relu", {b.node("MatMul", {h, b.weight({in, out})})});
  return b.build({h});
}

}  // namespace tessera::testing
