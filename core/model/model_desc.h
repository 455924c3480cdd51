// ModelDesc: a loaded, structurally valid model (names resolved, acyclic, weights in range).
// Plain data with no JSON inside; op-specific meaning is checked later by the ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/weights_file.h"
#include "tessera/tensor.h"

namespace tessera::model {

using tessera::DType;
// A graph input or output: dims are sizes or symbols (format v2).
using ValueInfo = tessera::ValueSpec;

struct Initializer {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;  // empty for a scalar
  int64_t element_count = 1;
  int64_t offset = 0;               // of its bytes in the weights file
  const std::byte* data = nullptr;  // into ModelDesc::weights, aligned to the element size

  int64_t bytes() const { return element_count * static_cast<int64_t>(dtype_size(dtype)); }
};

// One attribute value as written in the JSON; ops read them with typed accessors.
// kTensor: a small inline tensor, `{"dtype": "int64", "shape": [1], "values": [0]}`
// (ConstantOfShape's value); its elements are in `tensor`.
struct AttrValue {
  enum class Kind { kInt, kFloat, kString, kInts, kFloats, kTensor };
  Kind kind = Kind::kInt;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  Tensor tensor;
};

struct NodeDesc {
  int index = 0;  // position in the JSON "nodes" array, for messages
  std::string op;
  std::string name;
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs;
  std::map<std::string, AttrValue> attributes;

  // `nodes[3] (Conv "conv2")`: the prefix of every message about this node.
  std::string path() const;
};

struct ModelDesc {
  std::string name;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<Initializer> initializers;
  std::vector<NodeDesc> nodes;                 // topologically ordered
  std::shared_ptr<const WeightsFile> weights;  // owns every initializer's bytes
};

}  // namespace tessera::model
