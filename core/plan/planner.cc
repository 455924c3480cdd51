// Planning: the default plan, and with `search` the searched one if the simulator prefers it.
#include "core/plan/planner.h"

#include <algorithm>
#include <vector>

#include "core/plan/cost_model.h"

namespace tessera::plan {

bool parse_planner(const std::string& text, Planner* planner) {
  if (text == "default")
    *planner = Planner::kDefault;
  else if (text == "search")
    *planner = Planner::kSearch;
  else
    return false;
  return true;
}

const char* planner_name(Planner planner) { return planner == Planner::kSearch ? "search" : "default"; }

double interference_exposure(const tiles::TileGraph& graph, const Profile& profile, int threads, double interference) {
  if (threads <= 1) return 0;
  const std::vector<double> seconds = predict_task_seconds(graph, profile, threads);
  double exposure = 0;
  for (const tiles::CompiledNode& node : graph.nodes) {
    double longest = 0;
    for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t)
      longest = std::max(longest, seconds[t]);
    exposure += interference * longest;
  }
  return exposure;
}

Result<PlannedTiling> plan_tiling(const graph::Graph& g, const Profile& profile, const PlannerOptions& options) {
  PlannedTiling out;
  out.default_plan = default_tiling(g, options.defaults);
  out.plan = out.default_plan;
  if (options.planner == Planner::kDefault) return out;

  tiles::CompileOptions skeleton = options.compile;
  skeleton.bind_kernels = false;
  skeleton.store = nullptr;
  const int threads = options.defaults.threads;
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph start, tiles::compile(g, out.default_plan, skeleton));
  out.default_seconds = predict(start, profile, threads, options.scheduler).latency;
  const double interference = options.search.interference;
  out.default_exposure = interference_exposure(start, profile, threads, interference);

  TilingSearchOptions search = options.search;
  search.configs.isa = options.defaults.isa;
  search.threads = threads;
  search.scheduler = options.scheduler;
  search.model_bytes = static_cast<double>(start.weight_bytes + start.arena_bytes);
  TESSERA_ASSIGN_OR_RETURN(out.search, search_tiling(g, profile, out.default_plan, search));
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph searched, tiles::compile(g, out.search.plan, skeleton));
  out.search_seconds = predict(searched, profile, threads, options.scheduler).latency;
  out.search_exposure = interference_exposure(searched, profile, threads, interference);
  out.searched = true;
  // Faster, and still faster with a slowed thread: never predicted worse in either sense.
  out.kept_default = out.search_seconds >= out.default_seconds ||
                     out.search_seconds + out.search_exposure >= out.default_seconds + out.default_exposure;
  if (!out.kept_default) out.plan = out.search.plan;
  return out;
}

}  // namespace tessera::plan
