// CompiledModel: the Model implementation. It keeps the loaded model description and its
// weights, and compiles one Specialization per distinct set of input dims (cached, least
// recently used evicted); all of them intern their constants and packed weights in one store.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <optional>

#include "core/base/constant_store.h"
#include "core/base/cpu_features.h"
#include "core/engine/plan_file.h"
#include "core/graph/build.h"
#include "core/model/model_desc.h"
#include "core/plan/profile.h"
#include "core/runtime/executor.h"
#include "core/tiles/tile_graph.h"
#include "tessera/engine.h"

namespace tessera {

// The model compiled for one set of input dims. Immutable; sessions hold it while they run.
struct Specialization {
  InputDims dims;
  graph::Graph graph;  // owns the constants the kernels point into
  tiles::TilingPlan plan;
  tiles::TileGraph tile_graph;
  ModelInfo info;
  PlanReport plan_report;
};

// A specialisation's graph as the placement planner splits it (placement.cc): its own, or a
// copy whose layers too large for a worker were split (graph::split_wide_nodes), compiled
// without kernels for the predictions.
struct PlacedGraph {
  std::shared_ptr<const Specialization> spec;  // what `split` borrows its constants from
  std::unique_ptr<graph::Graph> split;         // null: the specialisation's graph as it is
  tiles::TileGraph split_tiles;
  const graph::Graph& graph() const { return split ? *split : spec->graph; }
  const tiles::TileGraph& tiles() const { return split ? split_tiles : spec->tile_graph; }
};
struct Placed {
  PlacementReport report;
  PlacedGraph graph;
};

// The profile given as JSON, else the one calibrate saved for this ISA and build, else the
// uncalibrated guesses. A profile for another ISA or build is refused, naming both.
Result<plan::Profile> find_profile(const std::string& given, Isa isa);

class CompiledModel final : public Model {
 public:
  // Loads and validates the model; a model whose dims are all fixed is specialised now, so
  // its errors surface at load time.
  static Result<std::shared_ptr<const Model>> compile(const std::string& json_text, WeightsFile weights,
                                                      const CompileOptions& options);
  static Result<std::shared_ptr<const Model>> compile(model::ModelDesc desc, const CompileOptions& options) {
    return compile(std::move(desc), options, /*planning_only=*/false);
  }
  // A model to place over workers and cut into stage models (stage_models.h), and nothing
  // else: compiled without kernels from its small initializers only (model::planning_extents,
  // laid out in `read`), so it needs no more memory than its shapes however large its weights.
  static Result<std::shared_ptr<const CompiledModel>> compile_for_planning(const std::string& json_text,
                                                                           int64_t weights_bytes,
                                                                           const AlignedBuffer& read,
                                                                           const CompileOptions& options);

  const model::ModelDesc& desc() const { return desc_; }
  const std::string& name() const override { return desc_.name; }
  const std::vector<ValueSpec>& inputs() const override { return desc_.inputs; }
  const std::vector<ValueSpec>& outputs() const override { return desc_.outputs; }
  Result<ModelInfo> info(const InputDims& dims) const override;
  Result<std::vector<Tensor>> random_inputs(const InputDims& dims, uint64_t seed) const override;
  ModelMemory memory() const override;
  Result<ModelPrediction> predict(const InputDims& dims, const PredictOptions& options) const override;
  Result<PlanReport> plan(const InputDims& dims) const override;
  Result<std::string> plan_json(const InputDims& dims) const override;
  Result<PlacementReport> place(const InputDims& dims, const PlaceOptions& options) const override;
  // The placement, and the graph whose compiled nodes its stages name.
  Result<Placed> place_graph(const InputDims& dims, const PlaceOptions& options) const;

  // The specialisation for `dims`, compiled on a miss. Thread-safe.
  Result<std::shared_ptr<const Specialization>> specialize(const InputDims& dims) const;
  // A graph derived from a specialisation's (a stage, stage_graph.h, or one with layers split
  // for placement), tiled by the default heuristic for `threads` and compiled like a
  // specialisation, its kernels sharing the packed weights; without kernels, for predictions.
  Result<tiles::TileGraph> compile_stage(const graph::Graph& stage, int threads, bool bind_kernels = true) const;

 private:
  static Result<std::shared_ptr<const Model>> compile(model::ModelDesc desc, const CompileOptions& options,
                                                      bool planning_only);
  Result<std::shared_ptr<const Specialization>> build(const graph::InputBinding& binding) const;
  // The tiling of one specialisation (planning.cc), with its report.
  // The algorithm of each node whose op has several: a saved plan's for its dims, else the
  // cost model's with a calibrated profile, else the op's own (planning.cc).
  // Both price with `profile` (find_profile's, read once per specialisation).
  Status choose_algorithms(graph::Graph& g, const InputDims& dims, const Result<plan::Profile>& profile) const;
  Result<tiles::TilingPlan> plan_tiling(const graph::Graph& g, const InputDims& dims,
                                        const Result<plan::Profile>& profile, PlanReport* report) const;

  model::ModelDesc desc_;
  CompileOptions options_;
  bool planning_only_ = false;    // compiled without kernels: it cannot run
  bool release_weights_ = false;  // CompileOptions::keep_weights: weights freed once compiled
  Isa isa_ = Isa::kScalar;
  std::optional<SavedPlan> saved_plan_;  // CompileOptions::plan, parsed
  std::shared_ptr<ConstantStore> store_ = std::make_shared<ConstantStore>();
  mutable std::mutex mutex_;  // guards cache_; held while compiling, so one compile at a time
  mutable std::list<std::pair<std::string, std::shared_ptr<const Specialization>>> cache_;  // most recent first
};

// The Executor implementation: a runtime pool behind the public handle.
class ExecutorImpl final : public Executor {
 public:
  explicit ExecutorImpl(int threads) : pool_(threads) {}
  int threads() const override { return pool_.threads(); }
  runtime::Executor& pool() { return pool_; }

 private:
  runtime::Executor pool_;
};

}  // namespace tessera
