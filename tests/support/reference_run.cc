// Whole-model reference evaluation (with an optional per-node observer), seeded inputs and
// comparison helpers for tests.
#include "tests/support/reference_run.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "core/base/constant_store.h"
#include "core/graph/build.h"
#include "core/model/load.h"

namespace tessera::testing {

Result<std::vector<Tensor>> reference_run(const std::string& json_text, const std::vector<uint8_t>& weights,
                                          const std::vector<Tensor>& inputs, const TensorObserver& observe) {
  AlignedBuffer buffer = AlignedBuffer::allocate(weights.size());
  if (!weights.empty()) std::memcpy(buffer.data(), weights.data(), weights.size());
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model(json_text, std::move(buffer)));
  TESSERA_ASSIGN_OR_RETURN(graph::InputBinding binding, graph::bind_inputs(desc.inputs, dims_of(inputs)));
  TESSERA_ASSIGN_OR_RETURN(graph::Graph g, graph::build_graph(desc, binding, std::make_shared<ConstantStore>()));
  std::map<int, Tensor> values;
  for (int id : g.inputs) {
    const graph::Tensor& t = g.tensors[id];
    for (const Tensor& given : inputs) {
      if (given.name == t.name) values[id] = given;
    }
    if (!values.count(id)) return Status::error("reference_run: missing input " + t.name);
  }
  for (const graph::Node& node : g.nodes) {
    std::vector<const void*> in;
    for (int id : node.inputs) {
      if (id < 0) {
        in.push_back(nullptr);
      } else if (g.tensors[id].is_constant()) {
        in.push_back(g.tensors[id].constant);
      } else {
        in.push_back(values.at(id).bytes.data());
      }
    }
    const graph::Tensor& t = g.tensors[node.output];
    Tensor out = Tensor::spec(t.name, t.shape, t.dtype);
    out.bytes.resize(static_cast<size_t>(t.bytes()));
    ops::op_reference(node.attrs, g.shapes_of(node), in, out.bytes.data());
    if (observe) observe(out);
    values[node.output] = std::move(out);
  }
  std::vector<Tensor> outputs;
  for (int id : g.outputs) {
    const graph::Tensor& t = g.tensors[id];
    outputs.push_back(t.is_constant() ? Tensor::of(t.name, t.shape, t.dtype, t.constant) : values.at(id));
  }
  return outputs;
}

ModelFiles read_model_files(const std::string& json_path) {
  auto read = model::read_model_files(json_path);
  REQUIRE(read.ok());
  ModelFiles files;
  files.json = std::move(read->json);
  const auto* bytes = reinterpret_cast<const uint8_t*>(read->weights.data());
  files.weights.assign(bytes, bytes + read->weights.size());
  return files;
}

namespace {

// Element i of `t` as a double, whatever its dtype.
double element(const Tensor& t, size_t i) {
  switch (t.dtype) {
    case DType::kFloat32: return t.values<float>()[i];
    case DType::kInt64: return static_cast<double>(t.values<int64_t>()[i]);
    case DType::kInt32: return t.values<int32_t>()[i];
    case DType::kBool:
    case DType::kUInt8: return t.values<uint8_t>()[i];
  }
  return 0;
}

}  // namespace

double relative_error(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected) {
  double worst = 0;
  if (actual.size() != expected.size()) return INFINITY;
  for (size_t i = 0; i < expected.size(); ++i) {
    const Tensor& a = actual[i];
    const Tensor& e = expected[i];
    if (a.dims != e.dims || a.dtype != e.dtype || a.bytes.size() != e.bytes.size()) return INFINITY;
    double scale = 1e-6, diff = 0;
    const auto n = static_cast<size_t>(e.element_count());
    for (size_t k = 0; k < n; ++k) {
      scale = std::max(scale, std::fabs(element(e, k)));
      const double d = std::fabs(element(a, k) - element(e, k));
      diff = std::isnan(d) ? INFINITY : std::max(diff, d);
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

bool bitwise_equal(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].dims != b[i].dims || a[i].dtype != b[i].dtype || a[i].bytes != b[i].bytes) return false;
  }
  return true;
}

}  // namespace tessera::testing
