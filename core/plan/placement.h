// The placement planner (ALGORITHMS.md section 3, after Tarnawski et al.): splits a layer graph
// into contiguous stages over workers with memory budgets, by dynamic programming over the
// graph's ideals. Plain data in, plain data out; placement_check.h re-verifies what it returns.
//
// A stage runs its layers one after another on its worker's threads; it receives the tensors
// it reads from other stages (and the caller's inputs), and sends the ones others read (and
// the graph's outputs). One input goes through the stages in turn (latency: their sum); a
// stream keeps every stage busy on consecutive inputs (period: the slowest stage).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plan/coarsen_layers.h"
#include "core/plan/layer_graph.h"
#include "tessera/status.h"

namespace tessera::plan {

struct Worker {
  int threads = 1;
  int64_t memory_bytes = 0;  // for the model's weights and activations; 0: no limit
};

// What moving one tensor between workers costs: the receiver pays a message and a copy in,
// the sender a copy out (out of a Wasm heap, or between two arenas natively).
struct TransferCosts {
  double message_seconds = 0;
  double bytes_per_second = 0;  // 0: copies are free
};

enum class Objective {
  kLatency,     // one input at a time: the sum of the stages
  kThroughput,  // a stream: the slowest stage (the period)
};
// "latency" / "throughput"
bool parse_objective(const std::string& text, Objective* objective);
const char* objective_name(Objective objective);

struct PlacementOptions {
  std::vector<Worker> workers;  // stages take them in this order; a worker may stay unused
  TransferCosts transfer;
  // Copies of its weights a worker holds once its stage is loaded: a stage's memory is this
  // many times its weights plus its activations.
  int weight_copies = 1;
  double stage_seconds = 0;  // what every stage's run costs beyond its layers (starting, ending)
  Objective objective = Objective::kLatency;
  size_t max_ideals = 4096;  // beyond this the graph is coarsened first (coarsen_layers.h)
};

struct Stage {
  uint32_t worker = 0;
  std::vector<uint32_t> layers;  // of the planned (uncoarsened) graph, in order
  double compute_seconds = 0;    // its layers on the worker's threads, and the stage's run
  double transfer_seconds = 0;   // receiving what it reads, sending what others read
  int64_t weight_bytes = 0;
  int64_t memory_bytes = 0;  // its weights' copies plus the most activations alive at one of its layers
  int64_t bytes_in = 0;      // received (from other stages and the caller)
  int64_t bytes_out = 0;     // sent (to other stages and the caller)
  double seconds() const { return compute_seconds + transfer_seconds; }
};

struct Placement {
  std::vector<Stage> stages;  // in worker order, none empty
  double latency = 0;         // one input through the stages in turn
  double period = 0;          // a stream's: the slowest stage
  CoarseLayers coarsening;    // what the dynamic program ran on: its layers' members, its ideals
};

// The cheapest contiguous split for the objective. Ties go to the other objective, then to
// fewer stages: exactly for latency; for throughput the program keeps one value per state, so
// among plans of the best period it prefers a low latency without guaranteeing the lowest.
// Fails, naming the layer, when a single layer cannot fit any worker, or when no split fits
// the memory budgets.
Result<Placement> place_layers(const LayerGraph& graph, const PlacementOptions& options);

}  // namespace tessera::plan
