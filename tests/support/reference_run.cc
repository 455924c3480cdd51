// Whole-model reference evaluation (with an optional per-node observer), seeded inputs and
// comparison helpers for tests.
#include "tests/support/reference_run.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "core/graph/build.h"
#include "core/model/load.h"

namespace tessera::testing {

Result<std::vector<Tensor>> reference_run(const std::string& json_text, const std::vector<uint8_t>& weights,
                                          const std::vector<Tensor>& inputs, const TensorObserver& observe) {
  AlignedBuffer buffer = AlignedBuffer::allocate(weights.size());
  if (!weights.empty()) std::memcpy(buffer.data(), weights.data(), weights.size());
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model(json_text, std::move(buffer)));
  TESSERA_ASSIGN_OR_RETURN(graph::Graph g, graph::build_graph(desc));
  std::map<int, std::vector<float>> values;
  for (int id : g.inputs) {
    const graph::Tensor& t = g.tensors[id];
    for (const Tensor& given : inputs) {
      if (given.name == t.name) values[id] = given.data;
    }
    if (!values.count(id)) return Status::error("reference_run: missing input " + t.name);
  }
  for (const graph::Node& node : g.nodes) {
    std::vector<const float*> in;
    for (int id : node.inputs) {
      if (id < 0) {
        in.push_back(nullptr);
      } else if (g.tensors[id].is_constant()) {
        in.push_back(g.tensors[id].dtype == model::DType::kFloat32 ? g.tensors[id].floats() : nullptr);
      } else {
        in.push_back(values.at(id).data());
      }
    }
    std::vector<float> out(ops::element_count(g.tensors[node.output].shape));
    ops::op_reference(node.attrs, g.shapes_of(node), in, out.data());
    if (observe) observe(g.tensors[node.output].name, g.tensors[node.output].shape, out);
    values[node.output] = std::move(out);
  }
  std::vector<Tensor> outputs;
  for (int id : g.outputs) outputs.push_back({g.tensors[id].name, g.tensors[id].shape, values.at(id)});
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

double relative_error(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected) {
  double worst = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual[i].data.size() != expected[i].data.size()) return INFINITY;
    double scale = 1e-6, diff = 0;
    for (size_t k = 0; k < expected[i].data.size(); ++k) {
      scale = std::max(scale, std::fabs(static_cast<double>(expected[i].data[k])));
      const double d = std::fabs(static_cast<double>(actual[i].data[k]) - expected[i].data[k]);
      diff = std::isnan(d) ? INFINITY : std::max(diff, d);
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

bool bitwise_equal(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].dims != b[i].dims || a[i].data.size() != b[i].data.size()) return false;
    if (std::memcmp(a[i].data.data(), b[i].data.data(), 4 * a[i].data.size()) != 0) return false;
  }
  return true;
}

}  // namespace tessera::testing
