// How a specialisation is computed and tiled: each node's algorithm and tiling, and whether
// its arena reuses memory, from a saved plan made for its dims, else from the cost model and
// the planner asked for (core/plan/algorithms.h, planner.h), and what `tessera plan` reports
// about it.
#include <chrono>

#include "core/engine/compiled_model.h"
#include "core/engine/plan_file.h"
#include "core/plan/algorithms.h"
#include "core/plan/planner.h"

namespace tessera {

namespace {

std::vector<int64_t> grid_of(const tiles::NodeTiling& tiling) {
  std::vector<int64_t> grid;
  for (const auto& cuts : tiling.cuts) grid.push_back(static_cast<int64_t>(cuts.size()) - 1);
  return grid;
}

}  // namespace

Status CompiledModel::choose_algorithms(graph::Graph& g, const InputDims& dims,
                                        const Result<plan::Profile>& profile) const {
  if (saved_plan_ && plan_matches_inputs(*saved_plan_, dims).ok()) {
    apply_saved_algorithms(*saved_plan_, g);
    return Status();
  }
  // Guesses would choose no better than the ops. A profile of another ISA or build is refused
  // where a planner cannot do without it (search), not here.
  if (!profile.ok() || !profile->calibrated) return Status();
  plan::TilingOptions tiling;
  tiling.target_tile_flops = options_.tile_flops;
  tiling.isa = isa_;
  tiles::CompileOptions compile;
  compile.reuse_memory = options_.reuse_memory;
  compile.max_isa = isa_;
  return plan::choose_algorithms(g, *profile, tiling, compile).status();
}

Result<tiles::TilingPlan> CompiledModel::plan_tiling(const graph::Graph& g, const InputDims& dims,
                                                     const Result<plan::Profile>& profile, PlanReport* report) const {
  report->threads = options_.threads;
  report->reuse_memory = options_.reuse_memory;
  plan::PlannerOptions options;
  options.defaults.threads = options_.threads;
  options.defaults.target_tile_flops = options_.tile_flops;
  options.defaults.isa = isa_;
  options.scheduler =
      options_.plan_scheduler == Scheduler::kBarrier ? plan::SimScheduler::kBarrier : plan::SimScheduler::kDynamic;
  options.compile.reuse_memory = options_.reuse_memory;
  options.compile.max_isa = isa_;
  auto describe = [&](const tiles::TilingPlan& chosen, const tiles::TilingPlan& default_plan,
                      const plan::PlannedTiling* planned) {
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (!tiles::owns_tiles(g, n)) continue;
      NodePlan node{g.nodes[n].name, g.nodes[n].op, grid_of(chosen.nodes[n]), grid_of(default_plan.nodes[n]),
                    ops::op_algorithm_name(g.nodes[n].attrs)};
      if (planned && planned->searched) {
        node.predicted_ms = planned->search.node_seconds[n] * 1e3;
        node.default_ms = planned->search.start_seconds[n] * 1e3;
        if (planned->kept_default) node.predicted_ms = node.default_ms;
      }
      report->nodes.push_back(std::move(node));
    }
  };

  if (saved_plan_ && plan_matches_inputs(*saved_plan_, dims).ok()) {
    TESSERA_ASSIGN_OR_RETURN(tiles::TilingPlan saved, saved_tiling(*saved_plan_, g, isa_));
    report->planner = "file";
    report->reuse_memory = options_.reuse_memory && saved_plan_->reuse_memory;
    describe(saved, plan::default_tiling(g, options.defaults), nullptr);
    return saved;
  }
  plan::parse_planner(options_.planner, &options.planner);  // checked when the model loaded
  // `auto` does without a profile, so one of another ISA or build only keeps the heuristic.
  if (options.planner == plan::Planner::kAuto) {
    options.planner = profile.ok() ? plan::resolve_planner(options.planner, *profile) : plan::Planner::kDefault;
  }
  report->planner = plan::planner_name(options.planner);
  if (options.planner == plan::Planner::kDefault) {
    tiles::TilingPlan default_plan = plan::default_tiling(g, options.defaults);
    describe(default_plan, default_plan, nullptr);
    return default_plan;
  }
  if (!profile.ok()) return profile.status();
  const auto start = std::chrono::steady_clock::now();
  TESSERA_ASSIGN_OR_RETURN(plan::PlannedTiling planned, plan::plan_tiling(g, *profile, options));
  report->planning_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  report->searched = true;
  report->kept_default = planned.kept_default;
  report->calibrated = profile->calibrated;
  report->search_path = plan::search_path_name(planned.search.search.path);
  report->configurations = planned.search.configurations;
  report->nodes_eliminated = planned.search.search.nodes_eliminated;
  report->edges_eliminated = planned.search.search.edges_eliminated;
  report->core_nodes = planned.search.search.core_nodes;
  report->default_predicted_ms = planned.default_seconds * 1e3;
  report->predicted_ms = planned.tiling_seconds() * 1e3;
  report->default_exposure_ms = planned.default_exposure * 1e3;
  report->exposure_ms = planned.tiling_exposure() * 1e3;
  report->reuse_memory = planned.reuse_memory;
  report->no_reuse_predicted_ms = planned.no_reuse_seconds * 1e3;
  describe(planned.plan, planned.default_plan, &planned);
  return std::move(planned.plan);
}

Result<PlanReport> CompiledModel::plan(const InputDims& dims) const {
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  return s->plan_report;
}

Result<std::string> CompiledModel::plan_json(const InputDims& dims) const {
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  return plan_file_json(desc_.name, s->dims, s->graph, s->plan, s->plan_report);
}

}  // namespace tessera
