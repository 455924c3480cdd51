// plan::Milp solved by COIN-OR CBC (Debian's coinor-libcbc-dev, EPL-2.0), through its C API:
// the native solver behind `tessera place --ip`. Not in the wasm builds. Built as a shared
// library that the CLI loads only when --ip asks for it (native/milp/cbc_loader.h): CBC and
// the libraries it pulls in (CLP, LAPACK, gfortran) are 3 MiB resident in every process that
// links them.
#pragma once

#include "core/plan/placement_milp.h"

namespace tessera::milp {

// Solves `milp` within `seconds` from the feasible `start`; no output on the console.
Result<plan::MilpResult> solve_with_cbc(const plan::Milp& milp, const std::vector<double>& start, double seconds);

using SolveFunction = Result<plan::MilpResult> (*)(const plan::Milp&, const std::vector<double>&, double);

}  // namespace tessera::milp

// The library's one entry point for dlsym: solve_with_cbc.
extern "C" tessera::milp::SolveFunction tessera_cbc_solver();
