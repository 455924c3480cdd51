// NodeParser: what an op sees while it checks one model node: its inputs' shapes and
// constant values, and typed attribute access that reports errors with the node's path.
#pragma once

#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "core/model/model_desc.h"
#include "core/ops/geometry.h"
#include "tessera/status.h"

namespace tessera::ops {

// One input of the node being parsed; `constant` is set for initializers (and folded
// constants), null for values computed at run time and for omitted optional inputs.
struct ParsedInput {
  bool present = false;
  Shape shape;
  model::DType dtype = model::DType::kFloat32;
  const void* constant = nullptr;
  std::string name;  // the tensor's name, for messages
};

class NodeParser {
 public:
  NodeParser(const model::NodeDesc& desc, std::vector<ParsedInput> inputs) : desc_(desc), inputs_(std::move(inputs)) {}

  const model::NodeDesc& desc() const { return desc_; }
  Status error(const std::string& message) const { return Status::error(desc_.path() + ": " + message); }

  // Input count within [min_count, max_count] and the first min_count inputs present.
  // Trailing omitted inputs count as absent.
  Status expect_inputs(size_t min_count, size_t max_count) const;
  Status expect_outputs(size_t count) const;

  size_t num_inputs() const { return inputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i].present; }
  const Shape& shape(size_t i) const { return inputs_[i].shape; }
  DType dtype(size_t i) const { return inputs_[i].dtype; }
  bool is_constant(size_t i) const { return has_input(i) && inputs_[i].constant != nullptr; }
  const void* constant_data(size_t i) const { return has_input(i) ? inputs_[i].constant : nullptr; }
  const float* constant_floats(size_t i) const;
  // An integer input known when the model is specialised (an initializer, or computed from
  // shapes and constants), read as int64; an error naming `what` otherwise.
  Result<std::vector<int64_t>> constant_ints(size_t i, const char* what) const;
  // Fails unless input i (if present) holds float32 data.
  Status expect_float(size_t i) const;
  // Fails unless input i (if present) has one of `allowed` dtypes.
  Status expect_dtype(size_t i, std::initializer_list<DType> allowed) const;
  // A float initializer holding exactly one value (not NaN).
  Result<float> constant_scalar(size_t i, const char* what) const;

  Result<int64_t> get_int(const char* name, int64_t default_value);
  Result<float> get_float(const char* name, float default_value);
  Result<std::string> get_string(const char* name, const std::string& default_value);
  // A list attribute; `expected_count` < 0 accepts any length.
  Result<std::vector<int64_t>> get_ints(const char* name, std::vector<int64_t> default_value, int expected_count = -1);
  // A tensor attribute (`{"dtype": ..., "shape": ..., "values": ...}`, e.g. ConstantOfShape's value).
  Result<Tensor> get_tensor(const char* name, Tensor default_value);
  bool has_attribute(const char* name) const { return desc_.attributes.count(name) != 0; }

  // Errors when an output of this shape, each value needing `per_output` operations,
  // exceeds kMaxTensorElements values or 2^40 operations: such a model is an input error, not a job.
  Status check_work(const Shape& output, int64_t per_output) const;

  // Errors on attributes the op did not read (typos, unsupported features).
  Status finish() const;

 private:
  const model::AttrValue* find(const char* name);

  const model::NodeDesc& desc_;
  std::vector<ParsedInput> inputs_;
  std::set<std::string> read_;
};

// Normalises a possibly negative axis for `rank`, or fails naming the attribute.
Result<int> normalize_axis(const NodeParser& p, int64_t axis, int rank, const char* what);

}  // namespace tessera::ops
