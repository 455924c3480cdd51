// Planning: the default plan, and with `search` the searched one if the simulator prefers it.
#include "core/plan/planner.h"

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

Result<PlannedTiling> plan_tiling(const graph::Graph& g, const Profile& profile, const PlannerOptions& options) {
  PlannedTiling out;
  out.planner = options.planner;
  out.plan = default_tiling(g, options.defaults);
  if (options.planner == Planner::kDefault) return out;

  tiles::CompileOptions skeleton = options.compile;
  skeleton.bind_kernels = false;
  skeleton.store = nullptr;
  const int threads = options.defaults.threads;
  auto simulate_plan = [&](const tiles::TilingPlan& plan) -> Result<double> {
    TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph graph, tiles::compile(g, plan, skeleton));
    return predict(graph, profile, threads, options.scheduler).latency;
  };
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph start, tiles::compile(g, out.plan, skeleton));
  out.default_seconds = predict(start, profile, threads, options.scheduler).latency;

  TilingSearchOptions search = options.search;
  search.configs.isa = options.defaults.isa;
  search.threads = threads;
  search.scheduler = options.scheduler;
  search.model_bytes = static_cast<double>(start.weight_bytes + start.arena_bytes);
  TESSERA_ASSIGN_OR_RETURN(out.search, search_tiling(g, profile, out.plan, search));
  TESSERA_ASSIGN_OR_RETURN(out.search_seconds, simulate_plan(out.search.plan));
  out.searched = true;
  out.kept_default = out.search_seconds >= out.default_seconds;
  if (!out.kept_default) out.plan = out.search.plan;
  return out;
}

}  // namespace tessera::plan
