// The test oracle for whole models: every node evaluated by its plain reference kernel,
// in model order, with no graph passes, no tiling and no threads.
#pragma once

#include <string>
#include <vector>

#include "tessera/engine.h"

namespace tessera::testing {

Result<std::vector<Tensor>> reference_run(const std::string& json_text, const std::vector<uint8_t>& weights,
                                          const std::vector<Tensor>& inputs);

// Reads a model's JSON and weights files (weights: the JSON's "weights" field or the .bin twin).
struct ModelFiles {
  std::string json;
  std::vector<uint8_t> weights;
};
ModelFiles read_model_files(const std::string& json_path);

// Largest |a - b| over all elements, divided by the largest |b| (at least 1e-6).
double relative_error(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected);

bool bitwise_equal(const std::vector<Tensor>& a, const std::vector<Tensor>& b);

}  // namespace tessera::testing
