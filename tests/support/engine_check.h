// The standard check of a model: ISAs, thread counts, schedulers (and optionally both
// arena plans, repeats, a tile size, algorithms); every run bitwise identical to the others of its ISA,
// and within `tolerance` of the reference kernels.
#pragma once

#include <map>
#include <string>

#include "tests/support/op_model.h"

namespace tessera::testing {

struct CheckOptions {
  double tolerance = 1e-4;  // relative to the largest reference magnitude; < 0 skips the reference
  std::vector<int> threads = {1, 3};
  bool all_isas = true;           // also the AVX2 and scalar kernels where the CPU has better
  bool both_arena_plans = false;  // also without arena reuse
  double tile_flops = 0;          // 0: the default tiling
  int repeats = 1;                // runs per scheduler and session
  // Node name -> the algorithm it runs by ("winograd_f2"), in one tile (with_algorithms).
  std::map<std::string, std::string> algorithms = {};
};

// Runs Catch2 CHECKs; returns the outputs of the first run.
std::vector<Tensor> check_model(const std::string& json, const std::vector<uint8_t>& weights,
                                const std::vector<Tensor>& inputs, const CheckOptions& options = {});

inline std::vector<Tensor> check_against_reference(const TestModel& model, const CheckOptions& options = {}) {
  return check_model(model.json, model.weights, model.inputs, options);
}

// The model compiled with `options` (its declared dims): what inspect shows of it. Fails the
// test if it does not load.
ModelInfo compiled_info(const TestModel& model, const CompileOptions& options = {});

// `options` with a plan that runs the named nodes by the given algorithms, each in one tile (a
// saved plan of the model compiled with `options`, edited). Fails the test if the model does
// not load.
CompileOptions with_algorithms(const std::string& json, const std::vector<uint8_t>& weights, CompileOptions options,
                               const std::map<std::string, std::string>& algorithms);

// One Session's outputs on one thread; fails the test if the run fails.
std::vector<Tensor> session_outputs(const std::shared_ptr<const Model>& model, const std::vector<Tensor>& inputs);

// Checks `got` against `want` tensor by tensor: names, dims, dtypes and bytes.
void check_identical(const std::vector<Tensor>& got, const std::vector<Tensor>& want);

// The ISAs this CPU can run, best first, as CompileOptions::isa strings.
std::vector<std::string> supported_isas();

}  // namespace tessera::testing
