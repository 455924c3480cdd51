// Builds small models in memory for tests: one node (or a few) with random or given data.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tessera/engine.h"

namespace tessera::testing {

using Dims = std::vector<int64_t>;

// A tensor a test model holds: a run-time input or an initializer, of any dtype.
struct TestTensor {
  bool is_input = false;
  Tensor value;
};

// Model JSON + weights + the run-time inputs to feed it.
struct TestModel {
  std::string json;
  std::vector<uint8_t> weights;
  std::vector<Tensor> inputs;
};

// Accumulates tensors and nodes; `output` names the graph output. Output shapes and dtypes
// are inferred by Tessera's own op parsers (so a test can also assert them via shape_of),
// evaluating nodes fed only by constants as the engine does when it specialises a model.
class ModelBuilder {
 public:
  explicit ModelBuilder(uint32_t seed) : rng_(seed) {}

  std::string input(Dims dims, float lo = -1, float hi = 1);
  std::string weight(Dims dims, float lo = -1, float hi = 1);
  // A float initializer with these values (a separate name from weight(): `weight(d, {v})`
  // would pick the random overload with lo = v).
  std::string constant(Dims dims, std::vector<float> values);
  std::string ints(std::vector<int64_t> values);
  std::string ints(Dims dims, std::vector<int64_t> values);  // of any shape ({} for a scalar)
  // A run-time input or an initializer holding `value` (any dtype; its name is replaced).
  std::string input(Tensor value);
  std::string constant(Tensor value);
  // Adds a node; returns its output tensor's name. "" in inputs omits an optional input.
  std::string node(const std::string& op, std::vector<std::string> inputs, nlohmann::json attributes = {});
  // Adds a node with `outputs` outputs (e.g. Split); returns their names.
  std::vector<std::string> node_outputs(const std::string& op, std::vector<std::string> inputs,
                                        nlohmann::json attributes, int outputs);

  Dims shape_of(const std::string& tensor) const;
  DType dtype_of(const std::string& tensor) const;
  TestModel build(const std::vector<std::string>& outputs) const;
  std::mt19937& rng() { return rng_; }

 private:
  // What the builder knows of each tensor: dims, dtype, and the value of constants.
  struct Known {
    Dims dims;
    DType dtype = DType::kFloat32;
    std::optional<Tensor> value;
  };

  std::vector<float> random_values(const Dims& dims, float lo, float hi);
  std::string add(bool is_input, const char* prefix, Tensor value);

  std::mt19937 rng_;
  std::vector<TestTensor> tensors_;
  nlohmann::json nodes_ = nlohmann::json::array();
  std::map<std::string, Known> known_;
};

// Layers wide enough to split into column pieces (placement over workers with little memory):
// a Gemm with B transposed and a bias, then ReLU; a MatMul with B as is, at odd widths; a
// residual Add fused into a last MatMul, which must stay whole. Weights: 547, 2.7, 910 and 433 KiB.
TestModel wide_layers_model();

// A chain of five MatMul + ReLU layers with weights of 0.4, 0.5, 0.5, 0.3 and 0.25 MB: over two
// workers of 1.01 MB no prefix and suffix both fit, while layers 2 and 3 on one worker and the
// rest on the other do. Only a non-contiguous placement (the integer program's) fits.
TestModel interleaved_chain_model();
inline constexpr int64_t kInterleavedChainWorkerBytes = 1010000;

// Random integer in [lo, hi].
int64_t random_int(std::mt19937& rng, int64_t lo, int64_t hi);

}  // namespace tessera::testing
