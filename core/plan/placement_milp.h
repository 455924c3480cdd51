// Placement by integer program (ALGORITHMS.md section 3): any layer on any worker, contiguous
// or not, for a stream's period (the largest worker's load) or one input's latency (the loads'
// sum: the stages run in turn). The program is built here as
// plain data; a solver outside core/plan (natively CBC) solves it, warm-started from the
// dynamic program's placement, which it can therefore never do worse than.
#pragma once

#include <vector>

#include "core/plan/layer_graph.h"
#include "core/plan/placement.h"
#include "tessera/milp.h"
#include "tessera/status.h"

namespace tessera::plan {

using tessera::Milp;
using tessera::MilpResult;
using tessera::MilpSolver;

struct IpPlacement {
  Placement placement;    // one stage per used worker, its layers in order (not contiguous)
  bool improved = false;  // better for the objective than the dynamic program's (or it found none)
  bool optimal = false;   // the solver proved it optimal
  size_t columns = 0, rows = 0;
};

// The dynamic program's placement for the objective, then the integer program warm-started
// from it, given `seconds`; the program's placement is kept only if it does better. When no
// contiguous placement fits, the program starts cold, and the dynamic program's error stands
// if it finds nothing either. Its `latency` is each worker's load added up. Check it with
// check_placement(..., contiguous = false).
Result<IpPlacement> place_layers_ip(const LayerGraph& graph, const PlacementOptions& options, const MilpSolver& solver,
                                    double seconds);

}  // namespace tessera::plan
