// Graph: the typed IR between the model description and the tile compiler. Tensors carry
// logical shapes and, after the layout pass, physical layouts; nodes carry op attributes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/base/constant_store.h"
#include "core/model/model_desc.h"
#include "core/ops/ops.h"

namespace tessera::graph {

using ops::Layout;
using ops::Shape;

struct Tensor {
  std::string name;
  Shape shape;
  Layout layout;  // identity until the layout pass
  model::DType dtype = model::DType::kFloat32;
  const void* constant = nullptr;  // initializer or folded data; null for run-time values
  int producer = -1;               // node index; -1 for graph inputs and constants
  bool is_graph_input = false;
  bool is_graph_output = false;
  int alias_of = -1;  // a view's storage tensor (set by the view pass), else -1

  bool is_constant() const { return constant != nullptr; }
  const float* floats() const { return static_cast<const float*>(constant); }
  int64_t bytes() const { return ops::element_count(shape) * static_cast<int64_t>(dtype_size(dtype)); }
};

struct Node {
  std::string name;
  std::string op;  // the ONNX op type, or "Relayout" for conversions the compiler adds
  ops::OpAttrs attrs;
  std::vector<int> inputs;  // tensor ids; -1 marks an omitted optional input
  int output = -1;
  bool removed = false;                       // set by passes; remove_dead_nodes drops it
  std::vector<std::string> fused_nodes = {};  // nodes folded into this one's epilogue, for inspect
};

class Graph {
 public:
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;  // topological order
  std::vector<int> inputs;
  std::vector<int> outputs;

  Graph() = default;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  int add_tensor(Tensor tensor);
  // A float constant owned by the graph.
  int add_constant(const std::string& name, const Shape& shape, std::vector<float> data);
  // Keeps the bytes of `value` alive as long as the graph; returns their (stable) address.
  // Constants equal to one an earlier specialisation kept are shared through the store.
  const void* keep(const tessera::Tensor& value);
  const float* keep(std::vector<float> data);
  // Points constant `tensor` at `copy` of its bytes, kept as long as the graph.
  void use_copy(int tensor, std::shared_ptr<const AlignedBuffer> copy);
  // Whether constant `tensor` points into the model's weights file.
  bool in_weights_file(int tensor) const;
  // Keeps the model's weights alive as long as the graph points into them.
  void hold_weights(std::shared_ptr<const WeightsFile> weights) { weights_ = std::move(weights); }
  // The model's weights file, or null: kernels that packed its bytes may release their pages.
  const std::shared_ptr<const WeightsFile>& weights() const { return weights_; }
  // Where kept constants are interned: shared by every specialisation of one model.
  void use_store(std::shared_ptr<ConstantStore> store) { store_ = std::move(store); }

  ops::OpShapes shapes_of(const Node& node) const;
  // The output of a node whose inputs are all constants, by the op's reference kernel.
  tessera::Tensor evaluate(const Node& node) const;
  // For each tensor, the live nodes reading it (each listed once per input slot).
  std::vector<std::vector<int>> consumers() const;
  // The tensor whose bytes `tensor` occupies (itself unless it is a view).
  int storage_of(int tensor) const;
  // `nodes[3] (Conv "conv2")`.
  std::string path(int node) const;
  // Re-derives every tensor's producer from the node list (after nodes moved).
  void renumber_producers();
  // The same nodes and tensors, whose constants still point into this graph: valid while it
  // lives. Constants added to the copy are the copy's own.
  Graph borrowing_copy() const;

 private:
  std::shared_ptr<const WeightsFile> weights_;
  std::shared_ptr<ConstantStore> store_;
  std::vector<std::shared_ptr<const AlignedBuffer>> constant_data_;
};

}  // namespace tessera::graph
