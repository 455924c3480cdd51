// Prices a stage's transfers and memory (placement.h): what it receives and sends, its weights
// and the most activations alive at one of its layers. Shared by the dynamic program and the
// integer program's read-back; the checker recomputes the same by its own route.
#pragma once

#include <algorithm>
#include <vector>

#include "core/plan/layer_graph.h"
#include "core/plan/placement.h"

namespace tessera::plan {

// Prices stages of one graph: the tensors each layer reads and writes, and a stamp per
// tensor so a stage counts each once.
class StagePricer {
 public:
  StagePricer(const LayerGraph& graph, const PlacementOptions& options)
      : graph_(graph), transfer_(options.transfer), weight_copies_(options.weight_copies) {
    reads_.resize(graph.layers.size());
    writes_.resize(graph.layers.size());
    for (uint32_t t = 0; t < graph.tensors.size(); ++t) {
      const LayerTensor& tensor = graph.tensors[t];
      if (tensor.producer != kNoLayer) writes_[tensor.producer].push_back(t);
      for (uint32_t c : tensor.consumers) reads_[c].push_back(t);
    }
    stamp_.assign(graph.tensors.size(), 0);
  }

  // Everything but the compute time, which depends on the worker's threads, of the stage
  // `layers`, whose members `in_stage` tells.
  // A whole stage of `layers` on worker `worker`: priced as above, plus its layers' compute
  // on the worker's threads and the stage's run. Its `layers` are the caller's to fill.
  template <class InStage>
  Stage stage(const std::vector<uint32_t>& layers, const InStage& in_stage, uint32_t worker,
              const PlacementOptions& options) {
    Stage out;
    out.worker = worker;
    price(layers, in_stage, &out);
    out.compute_seconds = options.stage_seconds;
    for (uint32_t l : layers) out.compute_seconds += layer_seconds(graph_.layers[l], options.workers[worker].threads);
    return out;
  }

  template <class InStage>
  void price(const std::vector<uint32_t>& layers, const InStage& in_stage, Stage* out) {
    ++epoch_;
    out->weight_bytes = 0;
    out->bytes_in = out->bytes_out = 0;
    out->transfer_seconds = 0;
    int64_t alive = 0;
    for (uint32_t l : layers) {
      const Layer& layer = graph_.layers[l];
      out->weight_bytes += layer.weight_bytes;
      alive = std::max(alive, layer.alive_bytes);
      for (uint32_t t : reads_[l]) {
        const LayerTensor& tensor = graph_.tensors[t];
        if (stamp_[t] == epoch_ || (tensor.producer != kNoLayer && in_stage(tensor.producer))) continue;
        stamp_[t] = epoch_;
        out->bytes_in += tensor.bytes;
        out->transfer_seconds += transfer_.message_seconds + copy_seconds(tensor.bytes);
      }
      for (uint32_t t : writes_[l]) {
        const LayerTensor& tensor = graph_.tensors[t];
        const bool leaves = tensor.graph_output || std::any_of(tensor.consumers.begin(), tensor.consumers.end(),
                                                               [&](uint32_t c) { return !in_stage(c); });
        if (!leaves) continue;
        out->bytes_out += tensor.bytes;
        out->transfer_seconds += copy_seconds(tensor.bytes);
      }
    }
    out->memory_bytes = weight_copies_ * out->weight_bytes + alive;
  }

 private:
  double copy_seconds(int64_t bytes) const {
    return transfer_.bytes_per_second > 0 ? static_cast<double>(bytes) / transfer_.bytes_per_second : 0;
  }

  const LayerGraph& graph_;
  TransferCosts transfer_;
  int64_t weight_copies_;
  std::vector<std::vector<uint32_t>> reads_, writes_;
  std::vector<uint64_t> stamp_;
  uint64_t epoch_ = 0;
};

// A placement's latency and period from its stages.
inline void total_stages(Placement* placement) {
  placement->latency = placement->period = 0;
  for (const Stage& s : placement->stages) {
    placement->latency += s.seconds();
    placement->period = std::max(placement->period, s.seconds());
  }
}

}  // namespace tessera::plan
