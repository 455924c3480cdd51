// The test oracle for whole models: every node evaluated by its plain reference kernel,
// in model order, with no graph passes, no tiling and no threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/engine.h"

namespace tessera::testing {

// Sees every node's output (named as in the model JSON) right after it is computed, in model
// order, so tests can check intermediate activations; the references are valid during the call.
using TensorObserver = std::function<void(const Tensor& value)>;

// Evaluates the model on `inputs` (matched by name; missing ones are an error) and returns the
// graph outputs in the model's order. A model the loader rejects or a missing input is a Status.
Result<std::vector<Tensor>> reference_run(const std::string& json_text, const std::vector<uint8_t>& weights,
                                          const std::vector<Tensor>& inputs, const TensorObserver& observe = {});

// Reads a model's JSON and weights files (weights: the JSON's "weights" field or the .bin twin).
struct ModelFiles {
  std::string json;
  std::vector<uint8_t> weights;
};
ModelFiles read_model_files(const std::string& json_path);

// Largest |a - b| over all elements (of any dtype, read as doubles), divided by the largest
// |b| (at least 1e-6); infinite when dims or dtypes differ.
double relative_error(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected);

bool bitwise_equal(const std::vector<Tensor>& a, const std::vector<Tensor>& b);

}  // namespace tessera::testing
