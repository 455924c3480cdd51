// What `Model::place` answers (docs/placement.md): a model split into stages over workers, each
// a group of threads with its own memory budget, planned on the cost model's predictions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/milp.h"

namespace tessera {

struct PlaceOptions {
  int workers = 2;
  int threads = 2;            // in all: each worker gets threads / workers (at least one)
  int64_t worker_memory = 0;  // bytes each worker may hold, all told; 0: no limit
  // What a worker holds beyond one copy of its stage's weights and its activations: more
  // copies of the weights (a WebAssembly worker keeps the weights it loaded beside their packed
  // copy) and what it takes before it loads anything (its runtime and threads).
  int weight_copies = 1;
  int64_t worker_reserve = 0;
  std::string objective = "latency";  // "latency" (one input) or "throughput" (a stream)
  // A profile's JSON (tessera::calibrate). Empty: the one saved for the model's ISA, else
  // uncalibrated guesses.
  std::string profile;
  // > 0: after the dynamic program, an integer program over non-contiguous splits too (any
  // node on any worker), warm-started from it and given this many seconds, solved by
  // `milp_solver`. Its plan is kept only if it does better for the objective, or if no
  // contiguous split fits the workers' memory.
  double ip_seconds = 0;
  MilpSolver milp_solver;
};

struct StagePlan {
  int worker = 0;
  int threads = 1;
  std::vector<std::string> nodes;  // compiled nodes (ModelInfo::nodes names), in order
  double compute_ms = 0;           // predicted, its nodes one after another
  double transfer_ms = 0;          // receiving its inputs, sending its outputs
  int64_t weight_bytes = 0;
  int64_t memory_bytes = 0;  // weights plus the most activations alive at one of its nodes
  int64_t bytes_in = 0;      // crossing its first cut (and the caller's inputs)
  int64_t bytes_out = 0;     // crossing its last cut (and the outputs)
};

struct PlacementReport {
  bool calibrated = false;           // the profile was this machine's
  bool transfer_calibrated = false;  // its transfer costs were measured (else estimated)
  std::string objective;
  int workers = 1;
  int threads_per_worker = 1;
  int64_t worker_memory = 0;
  std::vector<StagePlan> stages;
  double latency_ms = 0;  // one input through the stages in turn
  double period_ms = 0;   // a stream's: its slowest stage
  // The alternatives, predicted the same way: one instance with all the threads (0 when it
  // does not fit one worker's memory), and one instance per worker each taking whole inputs.
  double single_ms = 0;
  double replicas_period_ms = 0;
  // What the objective favours, by the predictions above: "stages" (the planned ones), "single"
  // or "replicas"; the simpler on a tie, and never a pipeline the memory does not need unless
  // it is predicted faster.
  std::string choice;
  // Layers whose weights took more than half a worker's memory, split into column pieces
  // (nodes "NAME/0", "NAME/1", ... joined by a Concat named NAME) before placing.
  uint64_t split_nodes = 0;
  std::string coarsening;  // how the layer graph was coarsened for the dynamic program
  // The integer program, when asked for: its size, whether it proved its plan optimal, and
  // whether the stages are contiguous (else a tensor goes back to an earlier worker, and a
  // worker runs its nodes in several segments, docs/placement.md).
  bool ip_ran = false;
  bool ip_optimal = false;
  bool contiguous = true;
  uint64_t ip_columns = 0;
  uint64_t ip_rows = 0;
  uint64_t layers = 0;
  uint64_t ideals = 0;
  double planning_ms = 0;
};

// {"calibrated", "transfer_calibrated", "objective", "workers", "threads_per_worker",
// "worker_memory", "latency_ms", "period_ms", "single_ms", "replicas_period_ms", "choice", "split_nodes",
// "coarsening", "ip_ran", "ip_optimal", "contiguous", "ip_columns", "ip_rows",
// "layers", "ideals", "planning_ms", "stages": [{"worker", "threads", "nodes", "compute_ms",
// "transfer_ms", "weight_bytes", "memory_bytes", "bytes_in", "bytes_out"}]}
std::string placement_report_json(const PlacementReport& report);

// Bytes of a model's weights file: `count` runs of `bytes` bytes, each `stride` bytes after the
// last, from `offset` (a column slice of a matrix is one run per row); they go one after
// another at `at` in a stage's weights.
struct WeightExtent {
  int64_t offset = 0;
  int64_t bytes = 0;
  int64_t stride = 0;
  int64_t count = 1;
  int64_t at = 0;
};

// One stage as a model of its own (format version 2, fixed dims, no "weights" field): what a
// worker with its own memory loads. Its weights file is `weight_bytes` bytes gathered from the
// model's by `weights`. A stage whose nodes are not contiguous runs in several segments, each
// a model of its own on the same worker.
struct StageModel {
  int worker = 0;
  int threads = 1;
  std::string json;
  std::vector<WeightExtent> weights;
  int64_t weight_bytes = 0;
  std::vector<std::string> inputs;   // the caller's inputs or earlier stages' outputs, by name
  std::vector<std::string> outputs;  // what later stages or the caller read
};

struct StagedModel {
  PlacementReport placement;
  std::vector<StageModel> stages;  // in the order they run (one per stage, or per segment)
};

// {"placement": placement_report_json, "stages": [{"worker", "threads", "json" (the model, as
// text), "weights": [[offset, bytes, stride, count, at], ...], "weight_bytes", "inputs",
// "outputs"}]}
std::string staged_model_json(const StagedModel& staged);

}  // namespace tessera
