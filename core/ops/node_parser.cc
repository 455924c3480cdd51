// Typed attribute and input access for op parsers.
#include "core/ops/node_parser.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/checked_math.h"

namespace tessera::ops {

namespace {

std::string count_text(size_t n) { return std::to_string(n) + (n == 1 ? " value" : " values"); }

}  // namespace

Status NodeParser::expect_inputs(size_t min_count, size_t max_count) const {
  size_t count = inputs_.size();
  while (count > 0 && !inputs_[count - 1].present) --count;
  if (count < min_count || count > max_count) {
    const std::string range = min_count == max_count ? std::to_string(min_count)
                                                     : std::to_string(min_count) + " to " + std::to_string(max_count);
    return error("takes " + range + " inputs, got " + std::to_string(count));
  }
  for (size_t i = 0; i < min_count; ++i) {
    if (!inputs_[i].present) return error("input " + std::to_string(i) + " is required");
  }
  return Status();
}

Status NodeParser::expect_outputs(size_t count) const {
  if (desc_.outputs.size() != count) {
    return error("has " + std::to_string(desc_.outputs.size()) + " outputs; Tessera supports " + std::to_string(count) +
                 " for this op");
  }
  return Status();
}

const float* NodeParser::constant_floats(size_t i) const {
  if (!is_constant(i) || inputs_[i].dtype != model::DType::kFloat32) return nullptr;
  return static_cast<const float*>(inputs_[i].constant);
}

Result<std::vector<int64_t>> NodeParser::constant_ints(size_t i, const char* what) const {
  if (!is_constant(i)) {
    return error(std::string(what) + " (input " + std::to_string(i) + " \"" + inputs_[i].name +
                 "\") must be known when the model is specialised: an initializer, or computed from input shapes "
                 "and constants, not from input data");
  }
  const ParsedInput& in = inputs_[i];
  const int64_t n = element_count(in.shape);
  std::vector<int64_t> values(static_cast<size_t>(n));
  if (in.dtype == model::DType::kInt64) {
    std::memcpy(values.data(), in.constant, values.size() * sizeof(int64_t));
  } else if (in.dtype == model::DType::kInt32) {
    const auto* data = static_cast<const int32_t*>(in.constant);
    for (size_t k = 0; k < values.size(); ++k) values[k] = data[k];
  } else {
    return error(std::string(what) + " (input " + std::to_string(i) + ") must be int64 or int32");
  }
  return values;
}

Status NodeParser::expect_float(size_t i) const { return expect_dtype(i, {DType::kFloat32}); }

Status NodeParser::expect_dtype(size_t i, std::initializer_list<DType> allowed) const {
  if (!has_input(i)) return Status();
  for (DType d : allowed) {
    if (inputs_[i].dtype == d) return Status();
  }
  std::string names;
  for (DType d : allowed) names += std::string(names.empty() ? "" : " or ") + dtype_name(d);
  return error("input " + std::to_string(i) + " \"" + inputs_[i].name + "\" is " + dtype_name(inputs_[i].dtype) +
               ", expected " + names);
}

Result<float> NodeParser::constant_scalar(size_t i, const char* what) const {
  const float* data = constant_floats(i);
  if (data == nullptr)
    return error(std::string(what) + " (input " + std::to_string(i) + ") must be a float initializer");
  if (element_count(inputs_[i].shape) != 1) return error(std::string(what) + " must hold one value");
  if (std::isnan(data[0])) return error(std::string(what) + " is NaN");
  return data[0];
}

const model::AttrValue* NodeParser::find(const char* name) {
  auto it = desc_.attributes.find(name);
  if (it == desc_.attributes.end()) return nullptr;
  read_.insert(name);
  return &it->second;
}

Result<int64_t> NodeParser::get_int(const char* name, int64_t default_value) {
  const model::AttrValue* value = find(name);
  if (value == nullptr) return default_value;
  if (value->kind != model::AttrValue::Kind::kInt) {
    return error("attribute \"" + std::string(name) + "\" must be an integer");
  }
  return value->i;
}

Result<float> NodeParser::get_float(const char* name, float default_value) {
  const model::AttrValue* value = find(name);
  if (value == nullptr) return default_value;
  if (value->kind != model::AttrValue::Kind::kInt && value->kind != model::AttrValue::Kind::kFloat) {
    return error("attribute \"" + std::string(name) + "\" must be a number");
  }
  if (!(std::fabs(value->f) <= std::numeric_limits<float>::max())) {
    return error("attribute \"" + std::string(name) + "\" must be a finite float32 value");
  }
  return static_cast<float>(value->f);
}

Result<std::string> NodeParser::get_string(const char* name, const std::string& default_value) {
  const model::AttrValue* value = find(name);
  if (value == nullptr) return default_value;
  if (value->kind != model::AttrValue::Kind::kString) {
    return error("attribute \"" + std::string(name) + "\" must be a string");
  }
  return value->s;
}

Result<std::vector<int64_t>> NodeParser::get_ints(const char* name, std::vector<int64_t> default_value,
                                                  int expected_count) {
  const model::AttrValue* value = find(name);
  if (value == nullptr) return default_value;
  if (value->kind != model::AttrValue::Kind::kInts) {
    return error("attribute \"" + std::string(name) + "\" must be a list of integers");
  }
  if (expected_count >= 0 && value->ints.size() != static_cast<size_t>(expected_count)) {
    return error("attribute \"" + std::string(name) + "\" must be a list of " + count_text(expected_count) + ", got " +
                 count_text(value->ints.size()));
  }
  return value->ints;
}

Result<Tensor> NodeParser::get_tensor(const char* name, Tensor default_value) {
  const model::AttrValue* value = find(name);
  if (value == nullptr) return default_value;
  if (value->kind != model::AttrValue::Kind::kTensor) {
    return error("attribute \"" + std::string(name) + "\" must be a tensor ({\"dtype\", \"shape\", \"values\"})");
  }
  return value->tensor;
}

Status NodeParser::check_work(const Shape& output, int64_t per_output) const {
  int64_t outputs = 0, total = 0;
  if (!checked_element_count(output, &outputs)) return error("output " + shape_string(output) + " is too large");
  if (!checked_mul(outputs, per_output, &total) || total > (int64_t{1} << 40)) {
    return error("would need more than 2^40 operations");
  }
  return Status();
}

Status NodeParser::finish() const {
  for (const auto& [name, value] : desc_.attributes) {
    if (!read_.count(name)) return error("unknown or unsupported attribute \"" + name + "\"");
  }
  return Status();
}

Result<int> normalize_axis(const NodeParser& p, int64_t axis, int rank, const char* what) {
  if (axis < -rank || axis >= rank) {
    return p.error(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
                   std::to_string(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

}  // namespace tessera::ops
