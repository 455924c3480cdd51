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
  out.default_plan = default_tiling(g, options.defaults);
  out.plan = out.default_plan;
  if (options.planner == Planner::kDefault) return out;

  tiles::CompileOptions skeleton = options.compile;
  skeleton.bind_kernels = false;
  skeleton.store = nullptr;
  const int threads = options.defaults.threads;
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph start, tiles::compile(g, out.default_plan, skeleton));
  out.default_seconds = predict(start, profile, threads, options.scheduler).latency;

  TilingSearchOptions search = options.search;
  search.configs.isa = options.defaults.isa;
  search.threads = threads;
  search.scheduler = options.scheduler;
  search.model_bytes = static_cast<double>(start.weight_bytes + start.arena_bytes);
  TESSERA_ASSIGN_OR_RETURN(out.search, search_tiling(g, profile, out.default_plan, search));
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph searched, tiles::compile(g, out.search.plan, skeleton));
  out.search_seconds = predict(searched, profile, threads, options.scheduler).latency;
  out.searched = true;
  out.kept_default = out.search_seconds >= out.default_seconds;
  if (!out.kept_default) out.plan = out.search.plan;
  return out;
}

}  // namespace tessera::plan
