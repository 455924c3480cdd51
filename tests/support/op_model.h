// Builds small models in memory for tests: one node (or a few) with random or given data.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "tessera/engine.h"

namespace tessera::testing {

using Dims = std::vector<int64_t>;

// A tensor a test node reads: a run-time input, a float initializer or an int64 initializer.
struct TestTensor {
  enum class Kind { kInput, kWeight, kInts };
  std::string name;
  Kind kind = Kind::kInput;
  Dims dims;
  std::vector<float> data;
  std::vector<int64_t> ints;
};

// Model JSON + weights + the run-time inputs to feed it.
struct TestModel {
  std::string json;
  std::vector<uint8_t> weights;
  std::vector<Tensor> inputs;
};

// Accumulates tensors and nodes; `output` names the graph output. Output shapes are
// inferred by Tessera's own op parsers (so a test can also assert them via shape_of).
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
  // Adds a node; returns its output tensor's name. "" in inputs omits an optional input.
  std::string node(const std::string& op, std::vector<std::string> inputs, nlohmann::json attributes = {});
  // Adds a node with `outputs` outputs (e.g. Split); returns their names.
  std::vector<std::string> node_outputs(const std::string& op, std::vector<std::string> inputs,
                                        nlohmann::json attributes, int outputs);

  Dims shape_of(const std::string& tensor) const;
  TestModel build(const std::vector<std::string>& outputs) const;
  std::mt19937& rng() { return rng_; }

 private:
  std::vector<float> random_values(const Dims& dims, float lo, float hi);

  std::mt19937 rng_;
  std::vector<TestTensor> tensors_;
  nlohmann::json nodes_ = nlohmann::json::array();
  std::vector<std::pair<std::string, Dims>> shapes_;
};

// Random integer in [lo, hi].
int64_t random_int(std::mt19937& rng, int64_t lo, int64_t hi);

}  // namespace tessera::testing
