// TEST-ONLY ORACLE (see reference_interpreter.h): the driver — initializers, op dispatch,
// freeing tensors after their last use, output shape checks — plus loading and statistics.
#include "models/check/reference_interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "core/model/load.h"
#include "models/check/reference_ops.h"

namespace tessera::zoo_check {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t normalize_axis(int64_t axis, int64_t rank) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  require(a >= 0 && a < rank, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return a;
}

const RefTensor& OpContext::in(size_t i) const {
  require(i < inputs_.size() && inputs_[i] != nullptr, "float input " + std::to_string(i) + " is missing");
  return *inputs_[i];
}

const std::vector<int64_t>& OpContext::ints(size_t i) const {
  require(i < int_inputs_.size() && int_inputs_[i] != nullptr,
          "input " + std::to_string(i) + " must be an int64/int32 initializer");
  return *int_inputs_[i];
}

const model::AttrValue& OpContext::attr(const std::string& name) const { return node_.attributes.at(name); }

int64_t OpContext::attr_int(const std::string& name, int64_t fallback) const {
  if (!has_attr(name)) return fallback;
  require(attr(name).kind == model::AttrValue::Kind::kInt, "attribute \"" + name + "\" must be an integer");
  return attr(name).i;
}

double OpContext::attr_float(const std::string& name, double fallback) const {
  if (!has_attr(name)) return fallback;
  const auto kind = attr(name).kind;
  require(kind == model::AttrValue::Kind::kFloat || kind == model::AttrValue::Kind::kInt,
          "attribute \"" + name + "\" must be a number");
  return attr(name).f;
}

std::string OpContext::attr_string(const std::string& name, const std::string& fallback) const {
  if (!has_attr(name)) return fallback;
  require(attr(name).kind == model::AttrValue::Kind::kString, "attribute \"" + name + "\" must be a string");
  return attr(name).s;
}

std::vector<int64_t> OpContext::attr_ints(const std::string& name, std::vector<int64_t> fallback) const {
  if (!has_attr(name)) return fallback;
  require(attr(name).kind == model::AttrValue::Kind::kInts, "attribute \"" + name + "\" must be a list of integers");
  return attr(name).ints;
}

namespace {

const OpTable& op_table() {
  static const OpTable table = [] {
    OpTable t;
    add_compute_ops(t);
    add_elementwise_ops(t);
    add_shape_ops(t);
    return t;
  }();
  return table;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

}  // namespace

Result<ReferenceRun> run_reference(const model::ModelDesc& model, const std::map<std::string, RefTensor>& inputs,
                                   const NodeObserver& observer) {
  std::map<std::string, RefTensor> values;
  std::map<std::string, std::vector<int64_t>> int_values;
  for (const model::Initializer& init : model.initializers) {
    const auto n = static_cast<size_t>(init.element_count);
    if (init.dtype == model::DType::kFloat32) {
      RefTensor t{init.shape, std::vector<float>(n)};
      std::memcpy(t.data.data(), init.data, n * sizeof(float));
      values[init.name] = std::move(t);
    } else {
      std::vector<int64_t> v(n);
      for (size_t i = 0; i < n; ++i) {
        if (init.dtype == model::DType::kInt64) {
          std::memcpy(&v[i], init.data + i * 8, 8);
        } else {
          int32_t x;
          std::memcpy(&x, init.data + i * 4, 4);
          v[i] = x;
        }
      }
      int_values[init.name] = std::move(v);
    }
  }
  for (const model::ValueInfo& info : model.inputs) {
    auto it = inputs.find(info.name);
    if (it == inputs.end()) return Status::error("input \"" + info.name + "\" was not given");
    if (it->second.shape != info.shape) {
      return Status::error("input \"" + info.name + "\" has shape " + shape_text(it->second.shape) +
                           ", the model declares " + shape_text(info.shape));
    }
    values[info.name] = it->second;
  }

  std::map<std::string, int> remaining_uses;
  for (const model::NodeDesc& node : model.nodes) {
    for (const std::string& name : node.inputs) ++remaining_uses[name];
  }
  for (const model::ValueInfo& info : model.outputs) remaining_uses[info.name] += 1 << 20;  // never freed

  ReferenceRun run;
  for (const model::NodeDesc& node : model.nodes) {
    auto op = op_table().find(node.op);
    if (op == op_table().end()) return Status::error(node.path() + ": op is not supported by the reference");
    for (const auto& [name, value] : node.attributes) {
      if (!op->second.attributes.count(name)) {
        return Status::error(node.path() + ": attribute \"" + name + "\" is not known to the reference");
      }
    }
    std::vector<const RefTensor*> float_inputs;
    std::vector<const std::vector<int64_t>*> int_inputs;
    for (const std::string& name : node.inputs) {
      auto f = values.find(name);
      auto i = int_values.find(name);
      float_inputs.push_back(f == values.end() ? nullptr : &f->second);
      int_inputs.push_back(i == int_values.end() ? nullptr : &i->second);
    }
    OpContext ctx(node, std::move(float_inputs), std::move(int_inputs));
    RefTensor out;
    try {
      out = op->second.run(ctx);
    } catch (const OpError& e) {
      return Status::error(node.path() + ": " + e.what());
    }
    if (static_cast<int64_t>(out.data.size()) != element_count(out.shape)) {
      return Status::error(node.path() + ": reference produced a tensor inconsistent with its shape");
    }
    run.macs += ctx.macs();
    if (observer) observer(node, out);
    values[node.outputs.at(0)] = std::move(out);
    for (const std::string& name : node.inputs) {
      if (--remaining_uses[name] == 0) values.erase(name);
    }
  }
  for (const model::ValueInfo& info : model.outputs) {
    auto it = values.find(info.name);
    if (it == values.end()) return Status::error("output \"" + info.name + "\" is not a float tensor");
    if (it->second.shape != info.shape) {
      return Status::error("output \"" + info.name + "\" has shape " + shape_text(it->second.shape) +
                           ", the model declares " + shape_text(info.shape));
    }
    run.outputs[info.name] = it->second;
  }
  return run;
}

std::map<std::string, RefTensor> random_inputs(const model::ModelDesc& model, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::map<std::string, RefTensor> inputs;
  for (const model::ValueInfo& info : model.inputs) {
    RefTensor t{info.shape, std::vector<float>(static_cast<size_t>(element_count(info.shape)))};
    for (float& v : t.data) v = static_cast<float>(static_cast<double>(engine() >> 11) * 0x1p-52 - 1.0);
    inputs[info.name] = std::move(t);
  }
  return inputs;
}

Result<model::ModelDesc> load_model_file(const std::string& json_path) {
  std::ifstream file(json_path, std::ios::binary);
  if (!file) return Status::error("cannot open \"" + json_path + "\"");
  std::stringstream text;
  text << file.rdbuf();
  const std::string json_text = text.str();
  TESSERA_ASSIGN_OR_RETURN(std::string weights_name, model::weights_file_name(json_text));
  std::filesystem::path weights_path(json_path);
  if (weights_name.empty()) {
    weights_path.replace_extension(".bin");
  } else {
    weights_path = weights_path.parent_path() / weights_name;
  }
  AlignedBuffer weights;
  if (std::filesystem::exists(weights_path)) {
    TESSERA_ASSIGN_OR_RETURN(weights, model::read_file(weights_path.string()));
  }
  auto loaded = model::load_model(json_text, std::move(weights));
  if (!loaded.ok()) return loaded.status().with_context(json_path);
  return loaded;
}

TensorStats summarize(const RefTensor& tensor) {
  TensorStats s;
  s.count = static_cast<int64_t>(tensor.data.size());
  double sum = 0, sum_sq = 0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -std::numeric_limits<double>::infinity();
  int64_t finite = 0;
  for (float v : tensor.data) {
    if (!std::isfinite(v)) {
      ++s.non_finite;
      continue;
    }
    ++finite;
    sum += v;
    sum_sq += static_cast<double>(v) * v;
    s.min = std::min(s.min, static_cast<double>(v));
    s.max = std::max(s.max, static_cast<double>(v));
  }
  if (finite > 0) {
    s.mean = sum / finite;
    s.rms = std::sqrt(sum_sq / finite);
    s.std = std::sqrt(std::max(0.0, sum_sq / finite - s.mean * s.mean));
  }
  return s;
}

bool is_healthy(const TensorStats& s) {
  return s.count > 0 && s.non_finite == 0 && s.max > s.min && s.rms >= 1e-2 && s.rms <= 1e2;
}

double mean_row_max(const RefTensor& probs) {
  const int64_t len = probs.shape.empty() ? 1 : probs.shape.back();
  const int64_t rows = static_cast<int64_t>(probs.data.size()) / len;
  double sum = 0;
  for (int64_t r = 0; r < rows; ++r) {
    sum += *std::max_element(probs.data.begin() + r * len, probs.data.begin() + (r + 1) * len);
  }
  return rows > 0 ? sum / rows : 0.0;
}

double token_shared_energy(const RefTensor& x) {
  if (x.shape.size() != 3) return 0.0;
  const int64_t seq = x.shape[1], hidden = x.shape[2];
  double shared = 0, total = 0;
  for (int64_t b = 0; b < x.shape[0]; ++b) {
    for (int64_t h = 0; h < hidden; ++h) {
      double mean = 0;
      for (int64_t t = 0; t < seq; ++t) mean += x.data[(b * seq + t) * hidden + h];
      mean /= static_cast<double>(seq);
      shared += mean * mean * static_cast<double>(seq);
    }
  }
  for (float v : x.data) total += static_cast<double>(v) * v;
  return total > 0 ? shared / total : 0.0;
}

}  // namespace tessera::zoo_check
