// TEST-ONLY ORACLE (see reference_interpreter.h): the op table and the per-node context that
// op implementations read inputs and attributes from. Ops throw OpError on bad input; the
// interpreter turns that into a Status naming the node.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/model_desc.h"
#include "models/check/reference_interpreter.h"

namespace tessera::zoo_check {

using Shape = std::vector<int64_t>;

struct OpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OpContext {
 public:
  OpContext(const model::NodeDesc& node, std::vector<const RefTensor*> inputs,
            std::vector<const std::vector<int64_t>*> int_inputs)
      : node_(node), inputs_(std::move(inputs)), int_inputs_(std::move(int_inputs)) {}

  size_t input_count() const { return inputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && (inputs_[i] || int_inputs_[i]); }
  const RefTensor& in(size_t i) const;
  // An int64/int32 initializer input (Reshape's shape, axes); fails if it is anything else.
  const std::vector<int64_t>& ints(size_t i) const;

  bool has_attr(const std::string& name) const { return node_.attributes.count(name) > 0; }
  int64_t attr_int(const std::string& name, int64_t fallback) const;
  double attr_float(const std::string& name, double fallback) const;
  std::string attr_string(const std::string& name, const std::string& fallback) const;
  std::vector<int64_t> attr_ints(const std::string& name, std::vector<int64_t> fallback) const;

  void add_macs(int64_t macs) { macs_ += macs; }
  int64_t macs() const { return macs_; }

 private:
  const model::AttrValue& attr(const std::string& name) const;

  const model::NodeDesc& node_;
  std::vector<const RefTensor*> inputs_;
  std::vector<const std::vector<int64_t>*> int_inputs_;
  int64_t macs_ = 0;
};

[[noreturn]] inline void fail(const std::string& message) { throw OpError(message); }
inline void require(bool ok, const std::string& message) {
  if (!ok) fail(message);
}

struct OpDef {
  RefTensor (*run)(OpContext& ctx);
  std::set<std::string> attributes;  // every attribute the op accepts
};
using OpTable = std::map<std::string, OpDef>;

void add_compute_ops(OpTable& table);      // reference_ops_compute.cc
void add_elementwise_ops(OpTable& table);  // reference_ops_elementwise.cc
void add_shape_ops(OpTable& table);        // reference_ops_shape.cc

// Normalises a possibly negative axis into [0, rank).
int64_t normalize_axis(int64_t axis, int64_t rank);

}  // namespace tessera::zoo_check
