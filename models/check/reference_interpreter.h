// TEST-ONLY ORACLE for the model zoo: a plain, slow, naive-loop interpreter of exactly the ops
// tessera-zoo emits (float32 data, double accumulation, NCHW). It checks that generated graphs
// are well-formed and numerically sane before the engine exists. Never use it for inference
// or as a performance baseline; the engine's own reference kernels live in core/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/model/model_desc.h"
#include "tessera/status.h"

namespace tessera::zoo_check {

// A dense row-major float tensor; a scalar has an empty shape and one value.
struct RefTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

int64_t element_count(const std::vector<int64_t>& shape);

struct ReferenceRun {
  std::map<std::string, RefTensor> outputs;
  int64_t macs = 0;  // multiply-adds of Conv, Gemm and MatMul
};

// Called after every node with the node and its output (for per-layer statistics).
using NodeObserver = std::function<void(const model::NodeDesc& node, const RefTensor& output)>;

// Runs the graph on `inputs` (one per graph input, shapes as declared). Fails with a message
// naming the node on an unsupported op or attribute, a shape error, or an output whose shape
// differs from the declared one.
Result<ReferenceRun> run_reference(const model::ModelDesc& model, const std::map<std::string, RefTensor>& inputs,
                                   const NodeObserver& observer = nullptr);

// Uniform [-1, 1) inputs for every graph input, from a fixed seed (library-independent).
std::map<std::string, RefTensor> random_inputs(const model::ModelDesc& model, uint64_t seed);

// Reads `<path>.json` and the weights file it names (or its default) and loads it.
Result<model::ModelDesc> load_model_file(const std::string& json_path);

struct TensorStats {
  int64_t count = 0;
  int64_t non_finite = 0;
  double min = 0, max = 0, mean = 0, std = 0, rms = 0;
};
TensorStats summarize(const RefTensor& tensor);

// Finite, not all equal, and typical magnitude (rms) within [1e-2, 1e2].
bool is_healthy(const TensorStats& stats);

// The mean over rows (last axis) of each row's largest value: for softmax output, 1/len means
// uniform attention and 1 means one-hot.
double mean_row_max(const RefTensor& probs);

// For [batch, seq, hidden]: the share of energy in each sequence's mean token; 1 means every
// token carries the same vector (the "token collapse" of deep random transformers).
double token_shared_energy(const RefTensor& x);

}  // namespace tessera::zoo_check
