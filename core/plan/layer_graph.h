// The layer graph the placement planner splits over workers (ALGORITHMS.md section 3): one
// layer per compiled node, its predicted time per thread count and its memory, and the tensors
// between layers with their bytes. Plain data; how a model becomes one lives in the engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/status.h"

namespace tessera::plan {

inline constexpr uint32_t kNoLayer = UINT32_MAX;

struct Layer {
  std::string name;
  std::vector<double> seconds;  // predicted time on 1, 2, ... threads: seconds[t - 1]
  int64_t weight_bytes = 0;     // the constants it keeps in its worker's memory
  // Activations alive while it runs, in the model's order: what a worker running it holds at
  // that point at most (a stage's own arena holds no more than this of what it runs).
  int64_t alive_bytes = 0;
  // The layers of the graph this one stands for, when coarsening merged them (in order).
  std::vector<uint32_t> members;
};

struct LayerTensor {
  std::string name;
  uint32_t producer = kNoLayer;  // kNoLayer: a graph input, which the caller sends
  std::vector<uint32_t> consumers;
  int64_t bytes = 0;
  bool graph_output = false;  // its producer sends it back to the caller
};

struct LayerGraph {
  std::vector<Layer> layers;  // in a topological order
  std::vector<LayerTensor> tensors;
};

// Checks what the planner relies on: layers in topological order, one time per thread count
// (the same count for all), no negative sizes, consumers and producers in range.
Status check_layer_graph(const LayerGraph& graph);

// The time `layer` takes on `threads` threads: its last entry beyond what was predicted.
double layer_seconds(const Layer& layer, int threads);

}  // namespace tessera::plan
