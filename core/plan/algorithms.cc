// Per node, the algorithm predicted fastest: the graph compiled (kernels unbound) once with
// every such node on each algorithm, its tasks priced by the cost model, summed per node.
#include "core/plan/algorithms.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/plan/cost_model.h"

namespace tessera::plan {

namespace {

// Predicted seconds per graph node (0: views) with every node of more than `algorithm`
// algorithms set to it.
Result<std::vector<double>> graph_node_seconds(graph::Graph& g, const std::vector<int>& counts, int algorithm,
                                               const Profile& profile, const TilingOptions& tiling,
                                               const tiles::CompileOptions& compile) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (counts[n] > algorithm) g.nodes[n].attrs = ops::op_with_algorithm(g.nodes[n].attrs, algorithm);
  }
  TilingOptions one_thread = tiling;
  one_thread.threads = 1;
  tiles::CompileOptions skeleton = compile;
  skeleton.bind_kernels = false;
  skeleton.store = nullptr;
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph tasks, tiles::compile(g, default_tiling(g, one_thread), skeleton));
  const std::vector<double> compiled = node_seconds(tasks, predict_task_seconds(tasks, profile, 1));
  std::vector<double> out(g.nodes.size(), 0.0);
  size_t next = 0;  // compiled nodes are the graph's that own tiles, in order
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (tiles::owns_tiles(g, n)) out[n] = compiled[next++];
  }
  return out;
}

}  // namespace

Result<int> choose_algorithms(graph::Graph& g, const Profile& profile, const TilingOptions& tiling,
                              const tiles::CompileOptions& compile) {
  std::vector<int> counts(g.nodes.size(), 1), own(g.nodes.size(), 0);
  int most = 1;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    counts[n] = ops::op_algorithm_count(g.nodes[n].attrs, g.shapes_of(g.nodes[n]));
    own[n] = ops::op_algorithm(g.nodes[n].attrs);
    most = std::max(most, counts[n]);
  }
  if (most < 2) return 0;
  std::vector<double> best(g.nodes.size(), std::numeric_limits<double>::infinity());
  std::vector<int> chosen = own;
  for (int algorithm = 0; algorithm < most; ++algorithm) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<double> seconds,
                             graph_node_seconds(g, counts, algorithm, profile, tiling, compile));
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (counts[n] > algorithm && seconds[n] < best[n]) best[n] = seconds[n], chosen[n] = algorithm;
    }
  }
  int changed = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (counts[n] < 2) continue;
    g.nodes[n].attrs = ops::op_with_algorithm(g.nodes[n].attrs, chosen[n]);
    changed += chosen[n] != own[n];
  }
  return changed;
}

}  // namespace tessera::plan
