// An independent check of a placement (what place_layers or any other planner returns): it
// recomputes everything from the layer graph by its own route and names the first fault.
#pragma once

#include "core/plan/layer_graph.h"
#include "core/plan/placement.h"
#include "tessera/status.h"

namespace tessera::plan {

// Verifies that every layer is placed exactly once and every stage has its own worker; with
// `contiguous`, that no tensor flows from a later worker to an earlier one; that every stage
// fits its worker's memory; and that each stage's times, bytes and memory, the latency and the
// period match their recomputation.
Status check_placement(const LayerGraph& graph, const PlacementOptions& options, const Placement& placement,
                       bool contiguous = true);

// Whether no tensor flows from a later stage to an earlier one (stages in their order), so
// each stage can run once per input, after the ones before it.
bool is_contiguous(const LayerGraph& graph, const Placement& placement);

}  // namespace tessera::plan
