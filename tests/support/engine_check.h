// The standard check of a model against the oracle: every ISA this CPU supports, several
// thread counts and all three schedulers; results within `tolerance` of the reference and
// bitwise identical to each other within one ISA.
#pragma once

#include "tests/support/op_model.h"

namespace tessera::testing {

struct CheckOptions {
  double tolerance = 1e-4;  // relative to the largest reference magnitude
  std::vector<int> threads = {1, 3};
  bool all_isas = true;  // also the scalar and AVX2 kernels where the CPU has better
};

// Runs Catch2 CHECKs; returns the reference outputs.
std::vector<Tensor> check_against_reference(const TestModel& model, const CheckOptions& options = {});

// The ISAs this CPU can run, best first, as CompileOptions::isa strings.
std::vector<std::string> supported_isas();

}  // namespace tessera::testing
