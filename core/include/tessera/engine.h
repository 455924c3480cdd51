// Tessera's public C++ API.
//
//   auto pool = tessera::Executor::create(2);
//   auto model = tessera::Model::load_file("resnet50_b1.json", {});
//   tessera::Session session(model.value(), pool);
//   auto outputs = session.run({{"image", {1, 3, 224, 224}, pixels}}, {});
//
// Models may declare symbolic dims ("batch", "seq"): each run binds them from its inputs'
// dims, and the model is specialised (shape arithmetic evaluated, tiles compiled) once per
// distinct set of input dims, then cached. Specialisations share the weights and their
// packed forms.
//
// Ownership: a Model is immutable once loaded and shared (std::shared_ptr) by any number of
// Sessions; a Session owns the working memory (arena) of one run at a time; an Executor owns
// threads and may serve several Sessions, of one or several models, concurrently.
// Thread safety: Model and Executor are thread-safe; one Session runs one call at a time.
// Errors caused by input (bad model, wrong input name or shape) come back as Status.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/placement.h"
#include "tessera/status.h"
#include "tessera/tensor.h"

namespace tessera {

enum class Scheduler { kDynamic, kBarrier, kShuffle };
// "dynamic" / "barrier" / "shuffle"
bool parse_scheduler(const std::string& text, Scheduler* scheduler);
const char* scheduler_name(Scheduler scheduler);

struct CompileOptions {
  int threads = 1;            // threads the tiling is sized for (tiles per node >= threads)
  double tile_flops = 2.0e6;  // target work per tile
  // Share arena bytes between tensors with disjoint lifetimes: the search planner, or a plan
  // file, may still leave them apart where that is predicted faster (PlanReport::reuse_memory).
  bool reuse_memory = true;
  std::string isa = "auto";      // cap on kernel ISA: "auto", "avx512", "avx2", "scalar"
  int max_specializations = 16;  // compiled input-dims signatures kept (least recently used go)
  // The tiling planner (docs/planning.md): "default" (a heuristic), "search" (per-node
  // tilings searched on the cost model, kept only where the simulator predicts a faster run),
  // or "auto": search with a calibrated profile of this machine, the heuristic without one.
  std::string planner = "auto";
  Scheduler plan_scheduler = Scheduler::kDynamic;  // the scheduler `search` plans for
  // A cost-model profile's JSON for `search`. Empty: the profile saved for the ISA in use
  // (default_profile_path), else uncalibrated guesses.
  std::string profile = {};
  // A saved plan (Model::plan_json): the tiling of the specialisation for the input dims it
  // names, checked against the model when that specialisation compiles (for a model whose dims
  // are all fixed: at load). Other dims are planned by `planner`.
  std::string plan = {};
  // A model whose dims are all fixed, with its weights in heap memory (Model::load, and
  // always in WebAssembly), frees them once compiled at load: its kernels hold packed copies,
  // and the few constants read as they are get copies of their own. Keep them to run the
  // model over stages (Pipeline) or place it with layers split (Model::place), which bind or
  // split its weights again. Mapped files (Model::load_file) stay: packed pages go back.
  bool keep_weights = false;
};

// How one specialisation was tiled, and what the planner predicted (`tessera plan --explain`).
struct NodePlan {
  std::string name;
  std::string op;
  std::vector<int64_t> grid;          // tiles per output dimension, as planned
  std::vector<int64_t> default_grid;  // as the default heuristic tiles it
  // The op's algorithm ("winograd", "gemm"; empty for ops of one): the op's own choice, the
  // cost model's with a calibrated profile, or a saved plan's.
  std::string algorithm;
  double predicted_ms = 0;  // the search's cost of this node's choice (searched plans)
  double default_ms = 0;    // the search's cost of the default's choice
};
struct PlanReport {
  std::string planner;          // "default", "search" (either as `auto` chose) or "file" (a saved plan)
  bool searched = false;        // the search ran
  bool kept_default = false;    // it ran, and the simulator did not predict its plan 3 % faster
  bool calibrated = false;      // the profile was this machine's (else: uncalibrated guesses)
  int threads = 1;              // the thread count planned for
  std::string search_path;      // how the search solved what elimination left (config_search.h)
  uint64_t configurations = 0;  // over all nodes
  uint64_t nodes_eliminated = 0;
  uint64_t edges_eliminated = 0;
  uint64_t core_nodes = 0;
  double planning_ms = 0;           // the search and the simulator's check of its plan
  double predicted_ms = 0;          // simulated latency of the tiling in use, with arena reuse (searched plans)
  double default_predicted_ms = 0;  // simulated latency of the default plan (searched plans)
  // What a thread slowed by other work would add to each: every node's longest tile times the
  // planner's interference share. A searched plan must be faster with and without it.
  double exposure_ms = 0;
  double default_exposure_ms = 0;
  // Whether the arena shares bytes between tensors. On several threads the search turns it off
  // where the plan is predicted more than 5 % faster without (no writes over lines another
  // core read, no reuse edges ordering its tiles); so does a plan file saying so, and
  // CompileOptions::reuse_memory = false always.
  bool reuse_memory = true;
  double no_reuse_predicted_ms = 0;  // simulated latency of the tiling in use without reuse (when weighed)
  std::vector<NodePlan> nodes;       // in ModelInfo::nodes order
};

// Concrete dims per input name: which specialisation of a model to use.
using InputDims = std::vector<std::pair<std::string, std::vector<int64_t>>>;

struct RunOptions {
  Scheduler scheduler = Scheduler::kDynamic;
  uint64_t seed = 0;   // shuffle order
  bool trace = false;  // record when and where each tile ran (Session::last_trace)
};

// What `tessera inspect` shows: one row per compiled node (views are folded away).
struct NodeInfo {
  std::string name;
  std::string op;
  std::string kernel;
  std::string fused;  // fused epilogue, e.g. "+residual, clamp[0,inf]"
  std::vector<std::string> fused_nodes;
  std::vector<int64_t> shape;
  std::string layout;
  std::vector<int64_t> grid;  // tiles per output dimension
  uint32_t tiles = 0;
  uint64_t in_edges = 0;
  double flops = 0;
};

// What a model holds in memory beyond one run's arena: its weights file (0 once freed,
// CompileOptions::keep_weights), the constants its specialisations computed (folded weights,
// shape arithmetic, copies of what a run reads in place) and the weights packed for the
// kernels, each counted once however many specialisations share them.
struct ModelMemory {
  int64_t weight_bytes = 0;
  int64_t constant_bytes = 0;
  int64_t packed_bytes = 0;
  int specializations = 0;  // compiled and cached
};

// One specialisation of a model: the compiled graph for one set of input dims.
struct ModelInfo {
  std::string name;
  std::vector<NodeInfo> nodes;
  std::vector<Tensor> inputs, outputs;  // names, dims and dtypes (no data)
  uint64_t tiles = 0;
  uint64_t data_edges = 0;
  uint64_t reuse_edges = 0;
  double flops = 0;
  double critical_path_flops = 0;
  uint32_t critical_path_tiles = 0;
  int64_t arena_bytes = 0;
  int64_t tensor_bytes = 0;  // sum of all intermediates: the arena without reuse
  int64_t weight_bytes = 0;
  std::string isa;
  std::string planner;    // what tiled it: "default", "search" or "file"
  double compile_ms = 0;  // specialising: graph passes, planning, edges and weight packing
};

struct TileEvent {
  uint32_t tile = 0;
  uint32_t node = 0;  // index into ModelInfo::nodes
  uint32_t thread = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

class Executor {
 public:
  static std::shared_ptr<Executor> create(int threads);
  virtual ~Executor() = default;
  virtual int threads() const = 0;
};

// What the cost model predicts for one specialisation on `threads` threads
// (docs/cost-model.md).
struct PredictOptions {
  int threads = 1;
  Scheduler scheduler = Scheduler::kDynamic;  // dynamic or barrier
  // A profile's JSON (tessera::calibrate). Empty: the profile at default_profile_path for the
  // model's ISA when there is one, else uncalibrated guesses.
  std::string profile;
};

struct NodePrediction {
  std::string name;
  std::string op;
  double ms = 0;  // the sum of its tiles' kernel times (what a trace measures per node)
};

struct ModelPrediction {
  bool calibrated = false;  // false: no profile for this ISA; the numbers are guesses
  std::string profile;      // "avx512 native, AMD EPYC ..., 2026-11-24T..." or "uncalibrated"
  int threads = 1;
  Scheduler scheduler = Scheduler::kDynamic;
  double latency_ms = 0;
  double critical_path_ms = 0;
  std::vector<double> idle_ms;        // per thread
  std::vector<NodePrediction> nodes;  // in ModelInfo::nodes order
};

class Model {
 public:
  // Reads `path` (model JSON) and its weights file (see docs/model-format.md).
  static Result<std::shared_ptr<const Model>> load_file(const std::string& path, const CompileOptions& options);
  // From memory: the JSON text and the weights bytes.
  static Result<std::shared_ptr<const Model>> load(const std::string& json_text, std::vector<uint8_t> weights,
                                                   const CompileOptions& options);
  virtual ~Model() = default;
  virtual const std::string& name() const = 0;
  // The inputs and outputs as declared: dims may be symbols.
  virtual const std::vector<ValueSpec>& inputs() const = 0;
  virtual const std::vector<ValueSpec>& outputs() const = 0;
  // The specialisation for these input dims (`{}` when every dim is fixed): compiled on first
  // use, then cached. A binding that contradicts the model (rank, a fixed dim, one symbol
  // bound to two values) is an error naming the input, the dim and both values.
  virtual Result<ModelInfo> info(const InputDims& dims = {}) const = 0;
  // Seeded inputs for these dims: floats uniform in [-1, 1); integer inputs that index a
  // table (token ids into an embedding) uniform over its rows; other integers and bools 0/1.
  virtual Result<std::vector<Tensor>> random_inputs(const InputDims& dims, uint64_t seed) const = 0;
  virtual ModelMemory memory() const = 0;
  // Predicted latency and per-node time of the specialisation for `dims`. A profile made for
  // another ISA or build is refused, naming both.
  virtual Result<ModelPrediction> predict(const InputDims& dims, const PredictOptions& options) const = 0;
  // How the specialisation for `dims` was tiled, and the planner's predictions.
  virtual Result<PlanReport> plan(const InputDims& dims = {}) const = 0;
  // Its tiling as a plan file (docs/planning.md) that CompileOptions::plan loads back.
  virtual Result<std::string> plan_json(const InputDims& dims = {}) const = 0;
  // The specialisation for `dims` split into stages over workers (docs/placement.md), checked
  // by an independent verifier. Fails, naming the node, when one node does not fit a worker.
  virtual Result<PlacementReport> place(const InputDims& dims, const PlaceOptions& options) const = 0;
};

class Session {
 public:
  Session(std::shared_ptr<const Model> model, std::shared_ptr<Executor> executor);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Inputs by name, of the declared dtypes, with dims the model accepts; returns the outputs
  // in the model's order.
  Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs, const RunOptions& options);
  // Tiles of the last run made with RunOptions::trace, and the specialisation it ran.
  const std::vector<TileEvent>& last_trace() const;
  const ModelInfo& last_info() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Inputs for tensors of these names, dims and dtypes (e.g. ModelInfo::inputs): floats
// uniform in [-1, 1), integers and bools 0 or 1. The same seed always gives the same values.
// For benchmarks, tests and demos; Model::random_inputs also keeps token ids in range.
std::vector<Tensor> random_inputs(const std::vector<Tensor>& specs, uint64_t seed);
// The dims of `inputs`, as a specialisation key.
InputDims dims_of(const std::vector<Tensor>& inputs);

// The compiled model as JSON (what `tessera inspect --json` writes).
std::string model_info_json(const ModelInfo& info);
// The model's declared inputs and outputs as JSON: {"name", "inputs": [{"name", "dtype",
// "dims": [1, "seq"]}], "outputs": [...]}.
std::string model_signature_json(const Model& model);

// A prediction as JSON: {"calibrated", "profile", "threads", "scheduler", "latency_ms",
// "critical_path_ms", "idle_ms": [...], "nodes": [{"name", "op", "ms"}]}.
std::string model_prediction_json(const ModelPrediction& prediction);

// A plan report as JSON: {"planner", "searched", "kept_default", "calibrated", "threads",
// "search_path", "configurations", "nodes_eliminated", "edges_eliminated", "core_nodes",
// "planning_ms", "predicted_ms", "default_predicted_ms", "exposure_ms", "default_exposure_ms", "reuse_memory",
// "no_reuse_predicted_ms", "nodes": [{"name", "op", "grid", "default_grid", "algorithm", "predicted_ms",
// "default_ms"}]}.
std::string plan_report_json(const PlanReport& report);

// The tile timeline as Chrome / Perfetto trace JSON (one track per thread).
std::string chrome_trace_json(const ModelInfo& info, const std::vector<TileEvent>& events);

}  // namespace tessera
