// GraphBuilder: records a Tessera v1 graph (docs/model-format.md) as it is built — boundary
// tensors, initializers packed into one weights buffer, nodes — and serialises it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tessera/status.h"

namespace tessera::zoo {

using Shape = std::vector<int64_t>;
using Attributes = nlohmann::ordered_json;  // an object; insertion order is kept in the output

// A named tensor with its static shape; cheap to copy, owns nothing.
struct Tensor {
  std::string name;
  Shape shape;
};

int64_t element_count(const Shape& shape);

// How an initializer is counted: trainable weights, BN running statistics, or graph constants
// (shapes, axes, clip bounds, scalars). Only kParameter counts towards parameter_count().
enum class InitKind { kParameter, kBuffer, kConstant };

// Not thread-safe; one builder per model. Generator bugs (duplicate tensor names, a value
// count that does not match a shape) abort with file:line: they are never input errors.
class GraphBuilder {
 public:
  static constexpr size_t kInitializerAlignment = 64;

  explicit GraphBuilder(std::string graph_name);

  const std::string& graph_name() const { return graph_name_; }

  Tensor input(const std::string& name, Shape shape);
  // Declares a graph output. With `name`, first renames the tensor (which must be a node
  // output nothing consumes yet), so exported graphs end in "logits" rather than "fc".
  Tensor output(const Tensor& tensor, const std::string& name = "");

  Tensor initializer(const std::string& name, Shape shape, const std::vector<float>& values,
                     InitKind kind = InitKind::kParameter);
  Tensor int64_initializer(const std::string& name, Shape shape, const std::vector<int64_t>& values);
  // Shared constants, created on first use and named after their value ("const.6", "shape.1_128_768").
  Tensor scalar(float value);
  Tensor int64_list(const std::vector<int64_t>& values, const std::string& kind = "shape");

  // Adds one single-output node named `name` (made unique with a "_1", "_2"... suffix). Its
  // output tensor takes the node's name unless `output_name` is given. `output_shape` is what
  // the caller inferred; the reference interpreter re-checks it on every generated model.
  Tensor node(const std::string& op, const std::string& name, const std::vector<Tensor>& inputs, Shape output_shape,
              Attributes attributes = Attributes::object(), const std::string& output_name = "");

  int64_t parameter_count() const { return parameter_count_; }
  // 2 per multiply-add of Conv, Gemm and MatMul; elementwise work is not counted.
  int64_t flops() const { return flops_; }
  const std::vector<std::byte>& weights() const { return weights_; }
  size_t node_count() const { return nodes_.size(); }

  // The JSON text, one initializer or node per line; `weights_file` goes into "weights".
  std::string to_json(const std::string& weights_file) const;

 private:
  void define_tensor(const std::string& name);
  size_t append_bytes(const void* data, size_t bytes);

  std::string graph_name_;
  std::vector<nlohmann::ordered_json> inputs_, outputs_, initializers_, nodes_;
  std::set<std::string> tensor_names_, node_names_;
  std::map<std::string, Tensor> constants_;
  std::vector<std::byte> weights_;
  int64_t parameter_count_ = 0;
  int64_t flops_ = 0;
};

// Writes `<dir>/<stem>.json` and `<dir>/<stem>.bin`; the error names the failing path.
Status write_model(const GraphBuilder& graph, const std::string& dir, const std::string& stem);

}  // namespace tessera::zoo
