// Planning: the default plan, and with `search` the searched one if the simulator prefers it.
#include "core/plan/planner.h"

#include <algorithm>
#include <vector>

#include "core/plan/cost_model.h"

namespace tessera::plan {

bool parse_planner(const std::string& text, Planner* planner) {
  if (text == "auto")
    *planner = Planner::kAuto;
  else if (text == "default")
    *planner = Planner::kDefault;
  else if (text == "search")
    *planner = Planner::kSearch;
  else
    return false;
  return true;
}

const char* planner_name(Planner planner) {
  switch (planner) {
    case Planner::kAuto: return "auto";
    case Planner::kSearch: return "search";
    case Planner::kDefault: break;
  }
  return "default";
}

Planner resolve_planner(Planner planner, const Profile& profile) {
  if (planner != Planner::kAuto) return planner;
  return profile.calibrated ? Planner::kSearch : Planner::kDefault;
}

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

namespace {

// Arena reuse makes a tensor's bytes another's once its readers are done: fewer bytes, still
// in cache, for the next writer, unless its readers ran on another core, which must give the
// lines up first (docs/cost-model.md), and reuse edges order each writer after them. Without
// reuse every output goes to lines last touched a run ago. The simulator weighs both.
Status choose_reuse(const graph::Graph& g, const Profile& profile, const PlannerOptions& options,
                    tiles::CompileOptions skeleton, PlannedTiling* out) {
  const int threads = options.defaults.threads;
  skeleton.reuse_memory = false;
  TESSERA_ASSIGN_OR_RETURN(tiles::TileGraph fresh, tiles::compile(g, out->plan, skeleton));
  out->no_reuse_seconds = predict(fresh, profile, threads, options.scheduler).latency;
  out->reuse_memory = out->no_reuse_seconds >= out->tiling_seconds() * (1 - kNoReuseMargin);
  return Status();
}

}  // namespace

Result<PlannedTiling> plan_tiling(const graph::Graph& g, const Profile& profile, const PlannerOptions& options) {
  PlannedTiling out;
  out.default_plan = default_tiling(g, options.defaults);
  out.plan = out.default_plan;
  out.reuse_memory = options.compile.reuse_memory;
  if (resolve_planner(options.planner, profile) == Planner::kDefault) return out;

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
  // Faster by the margin, and still faster with a slowed thread: never predicted worse in
  // either sense.
  out.kept_default = out.search_seconds >= out.default_seconds * (1 - kSearchMargin) ||
                     out.search_seconds + out.search_exposure >= out.default_seconds + out.default_exposure;
  if (!out.kept_default) out.plan = out.search.plan;
  // On one thread no core has lines to give up: reuse only saves.
  if (options.compile.reuse_memory && threads > 1) {
    TESSERA_RETURN_IF_ERROR(choose_reuse(g, profile, options, skeleton, &out));
  }
  return out;
}

}  // namespace tessera::plan
