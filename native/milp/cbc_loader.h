// The CBC solver library (native/milp/cbc_solver.h), loaded on first use from the directory
// of the running executable, where the build puts it.
#pragma once

#include "tessera/milp.h"
#include "tessera/status.h"

namespace tessera::milp {

// The solver, or an error naming the library and why it did not load.
Result<MilpSolver> load_cbc_solver();

}  // namespace tessera::milp
