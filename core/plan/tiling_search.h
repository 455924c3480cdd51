// The tiling planner's search (ALGORITHMS.md section 2, after OptCNN): every computing node
// gets its configurations (tiling_configs.h), each priced by the cost model on P threads; every
// producer/consumer pair gets a table of what each pairing costs; config_search.h finds the
// cheapest assignment. Plain data in, plain data out. docs/planning.md gives the cost terms.
#pragma once

#include <vector>

#include "core/graph/graph.h"
#include "core/plan/config_search.h"
#include "core/plan/profile.h"
#include "core/plan/simulator.h"
#include "core/plan/tiling_configs.h"
#include "core/tiles/tiling_plan.h"
#include "tessera/status.h"

namespace tessera::plan {

struct TilingSearchOptions {
  int threads = 1;
  SimScheduler scheduler = SimScheduler::kDynamic;  // barrier: no overlap between nodes
  double model_bytes = 0;                           // weights and arena: where weights come from
  // How much slower any one thread may run for a while: other processes, a browser's other
  // tabs, a host's other tenants (2-thread runs on the development VM: up to 35 %). Dynamic
  // scheduling spreads such a slowdown over the tiles still queued, except for the tile the
  // slow thread holds: every configuration pays this share of its longest tile.
  double interference = 0.25;
  ConfigOptions configs;  // its thread count is set from `threads`
  SearchOptions search;   // its start is set from the start plan
};

struct TilingSearch {
  tiles::TilingPlan plan;
  SearchResult search;                // how the assignment was found; search.cost is its cost
  double start_cost = 0;              // the start plan's cost in the same model
  std::vector<double> node_seconds;   // per graph node: the chosen configuration's cost (0: views)
  std::vector<double> start_seconds;  // per graph node: the start plan's configuration's cost
  size_t nodes = 0;                   // computing nodes
  size_t classes = 0;                 // of nodes priced alike, each priced once (docs/planning.md)
  size_t configurations = 0;          // over all nodes
  size_t edges = 0;                   // producer/consumer pairs
};

// The cheapest plan by the model of docs/planning.md. `start` (the default plan) is one of
// every node's configurations and where local search starts, so the search never predicts
// worse than it.
Result<TilingSearch> search_tiling(const graph::Graph& g, const Profile& profile, const tiles::TilingPlan& start,
                                   const TilingSearchOptions& options);

}  // namespace tessera::plan
