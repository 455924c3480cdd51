// The tiling planners behind `--planner`: the default heuristic, or the search
// (tiling_search.h) checked by the simulator against the default, whose plan it replaces only
// when the simulated run is faster; the search also decides whether the arena reuses memory.
// Plain data in, plain data out.
#pragma once

#include <string>

#include "core/graph/graph.h"
#include "core/plan/default_tiling.h"
#include "core/plan/profile.h"
#include "core/plan/simulator.h"
#include "core/plan/tiling_search.h"
#include "core/tiles/compile.h"

namespace tessera::plan {

// kAuto searches where the profile is calibrated and keeps the default heuristic where it is
// not: priced with guesses, a search plans no better than the heuristic.
enum class Planner { kAuto, kDefault, kSearch };
// "auto" / "default" / "search"
bool parse_planner(const std::string& text, Planner* planner);
const char* planner_name(Planner planner);
// The planner kAuto stands for with `profile`; the others stand for themselves.
Planner resolve_planner(Planner planner, const Profile& profile);

struct PlannerOptions {
  Planner planner = Planner::kDefault;
  SimScheduler scheduler = SimScheduler::kDynamic;  // what the plan is for
  TilingOptions defaults;                           // the default plan; its threads are the plan's
  tiles::CompileOptions compile;                    // ISA and memory reuse of the model (kernels are not bound)
  TilingSearchOptions search;                       // threads, scheduler and model bytes are set here
};

struct PlannedTiling {
  tiles::TilingPlan plan;          // the plan to use
  tiles::TilingPlan default_plan;  // the default heuristic's, whatever the planner
  bool searched = false;           // the search ran
  bool kept_default = false;       // it ran, and its plan was not predicted faster by kSearchMargin (and with exposure)
  double default_seconds = 0;      // simulated latency of the default plan (searched only)
  double search_seconds = 0;       // simulated latency of the searched plan (searched only)
  // What a slowed thread would add to each (TilingSearchOptions::interference, summed over
  // nodes): the check weighs it too, so a plan of a few long tiles must win by more.
  double default_exposure = 0;
  double search_exposure = 0;
  // Whether the arena shares bytes between tensors: as asked, unless the search ran on several
  // threads and the plan was predicted more than kNoReuseMargin faster without (no writes
  // over lines other cores read, no reuse edges ordering the tiles; every output to lines
  // last touched a run ago).
  bool reuse_memory = true;
  double no_reuse_seconds = 0;  // simulated latency of the plan without reuse (searched, reuse asked)
  TilingSearch search;          // searched only

  // Simulated latency of the tiling in use, with arena reuse, and its exposure (searched only).
  double tiling_seconds() const { return kept_default ? default_seconds : search_seconds; }
  double tiling_exposure() const { return kept_default ? default_exposure : search_exposure; }
};

// How much faster the searched plan must be predicted to replace the default. Whole-model
// predictions err by up to 5-7 % (docs/cost-model.md), much of it shared by two plans of one
// model, but plans predicted within a few percent of each other measure either way:
// MobileNetV2 b1 1.01x predicted, 0.91-0.97x measured; BERT-base 1.01x, 0.98x.
constexpr double kSearchMargin = 0.03;

// How much faster a run without arena reuse must be predicted for the search to give it up:
// a fresh arena costs memory (PP-OCR cls: 3.3 MB instead of 0.35).
constexpr double kNoReuseMargin = 0.05;

// TilingSearchOptions::interference times the longest tile of every node of `graph`.
double interference_exposure(const tiles::TileGraph& graph, const Profile& profile, int threads, double interference);

Result<PlannedTiling> plan_tiling(const graph::Graph& g, const Profile& profile, const PlannerOptions& options);

}  // namespace tessera::plan
