// Graph bookkeeping: tensors, owned constants, consumers.
#include "core/graph/graph.h"

namespace tessera::graph {

int Graph::add_tensor(Tensor tensor) {
  if (tensor.layout.perm.empty()) tensor.layout = Layout::identity(static_cast<int>(tensor.shape.size()));
  tensors.push_back(std::move(tensor));
  return static_cast<int>(tensors.size()) - 1;
}

const void* Graph::keep(const tessera::Tensor& value) {
  if (!store_) store_ = std::make_shared<ConstantStore>();
  constant_data_.push_back(store_->intern(value.bytes.data(), value.bytes.size()));
  return constant_data_.back()->data();
}

const float* Graph::keep(std::vector<float> data) {
  if (!store_) store_ = std::make_shared<ConstantStore>();
  constant_data_.push_back(store_->intern(data.data(), data.size() * sizeof(float)));
  return constant_data_.back()->as<float>();
}

void Graph::use_copy(int tensor, std::shared_ptr<const AlignedBuffer> copy) {
  tensors[tensor].constant = copy->data();
  constant_data_.push_back(std::move(copy));
}

bool Graph::in_weights_file(int tensor) const {
  return weights_ && tensors[tensor].is_constant() && weights_->segment_of(tensors[tensor].constant) >= 0;
}

int Graph::add_constant(const std::string& constant_name, const Shape& shape, std::vector<float> data) {
  TESSERA_CHECK(static_cast<int64_t>(data.size()) == ops::element_count(shape));
  Tensor t;
  t.name = constant_name;
  t.shape = shape;
  t.constant = keep(std::move(data));
  return add_tensor(std::move(t));
}

ops::OpShapes Graph::shapes_of(const Node& node) const {
  ops::OpShapes s;
  for (int input : node.inputs) {
    s.inputs.push_back(input >= 0 ? tensors[input].shape : Shape{});
    s.input_dtypes.push_back(input >= 0 ? tensors[input].dtype : DType::kFloat32);
  }
  s.output = tensors[node.output].shape;
  s.output_dtype = tensors[node.output].dtype;
  return s;
}

tessera::Tensor Graph::evaluate(const Node& node) const {
  std::vector<const void*> inputs;
  for (int input : node.inputs) inputs.push_back(input >= 0 ? tensors[input].constant : nullptr);
  const Tensor& out = tensors[node.output];
  tessera::Tensor value = tessera::Tensor::spec(out.name, out.shape, out.dtype);
  value.bytes.resize(static_cast<size_t>(out.bytes()));
  ops::op_reference(node.attrs, shapes_of(node), inputs, value.bytes.data());
  return value;
}

std::vector<std::vector<int>> Graph::consumers() const {
  std::vector<std::vector<int>> result(tensors.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].removed) continue;
    for (int input : nodes[n].inputs) {
      if (input >= 0) result[input].push_back(static_cast<int>(n));
    }
  }
  return result;
}

int Graph::storage_of(int tensor) const {
  while (tensors[tensor].alias_of >= 0) tensor = tensors[tensor].alias_of;
  return tensor;
}

std::string Graph::path(int node) const {
  return "nodes[" + std::to_string(node) + "] (" + nodes[node].op + " \"" + nodes[node].name + "\")";
}

Graph Graph::borrowing_copy() const {
  Graph copy;
  copy.name = name;
  copy.tensors = tensors;
  copy.nodes = nodes;
  copy.inputs = inputs;
  copy.outputs = outputs;
  copy.store_ = store_;
  copy.weights_ = weights_;
  return copy;
}

void Graph::renumber_producers() {
  for (Tensor& t : tensors) {
    if (!t.is_constant()) t.producer = -1;
  }
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!nodes[n].removed) tensors[nodes[n].output].producer = static_cast<int>(n);
  }
}

}  // namespace tessera::graph
