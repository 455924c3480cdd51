// plan::Milp solved by COIN-OR CBC (Debian's coinor-libcbc-dev, EPL-2.0), through its C API:
// the native solver behind `tessera place --ip`. Not in the wasm builds.
#pragma once

#include "core/plan/placement_milp.h"

namespace tessera::milp {

// Solves `milp` within `seconds` from the feasible `start`; no output on the console.
Result<plan::MilpResult> solve_with_cbc(const plan::Milp& milp, const std::vector<double>& start, double seconds);

}  // namespace tessera::milp
