// The checker works from a layer -> stage map and walks the tensors once, where the planner
// prices each candidate stage from its layers.
#include "core/plan/placement_check.h"

#include <algorithm>
#include <cmath>

namespace tessera::plan {
namespace {

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({std::fabs(a), std::fabs(b), 1e-12}); }

std::string stage_name(size_t s) { return "stage " + std::to_string(s); }

}  // namespace

Status check_placement(const LayerGraph& graph, const PlacementOptions& options, const Placement& placement,
                       bool contiguous) {
  const size_t n = graph.layers.size();
  const size_t stages = placement.stages.size();
  if (stages == 0) return Status::error("placement check: no stages");
  std::vector<size_t> stage_of(n, SIZE_MAX);
  for (size_t s = 0; s < stages; ++s) {
    const Stage& stage = placement.stages[s];
    if (stage.worker >= options.workers.size())
      return Status::error("placement check: " + stage_name(s) + " is on worker " + std::to_string(stage.worker) +
                           " of " + std::to_string(options.workers.size()));
    if (s > 0 && stage.worker <= placement.stages[s - 1].worker)
      return Status::error("placement check: " + stage_name(s) + " does not come after the previous stage's worker");
    if (stage.layers.empty()) return Status::error("placement check: " + stage_name(s) + " is empty");
    for (uint32_t l : stage.layers) {
      if (l >= n) return Status::error("placement check: " + stage_name(s) + " names layer " + std::to_string(l));
      if (stage_of[l] != SIZE_MAX)
        return Status::error("placement check: layer '" + graph.layers[l].name + "' is placed twice");
      stage_of[l] = s;
    }
  }
  for (size_t l = 0; l < n; ++l)
    if (stage_of[l] == SIZE_MAX)
      return Status::error("placement check: layer '" + graph.layers[l].name + "' is not placed");

  std::vector<Stage> expected(stages);
  for (Stage& stage : expected) stage.compute_seconds = options.stage_seconds;
  std::vector<int64_t> alive(stages, 0);
  for (size_t l = 0; l < n; ++l) {
    const size_t s = stage_of[l];
    const Layer& layer = graph.layers[l];
    expected[s].compute_seconds += layer_seconds(layer, options.workers[placement.stages[s].worker].threads);
    expected[s].weight_bytes += layer.weight_bytes;
    alive[s] = std::max(alive[s], layer.alive_bytes);
  }
  const TransferCosts& transfer = options.transfer;
  const auto copy = [&](int64_t bytes) {
    return transfer.bytes_per_second > 0 ? static_cast<double>(bytes) / transfer.bytes_per_second : 0.0;
  };
  for (const LayerTensor& tensor : graph.tensors) {
    const size_t from = tensor.producer == kNoLayer ? SIZE_MAX : stage_of[tensor.producer];
    std::vector<size_t> to;
    for (uint32_t c : tensor.consumers) {
      if (contiguous && from != SIZE_MAX && stage_of[c] < from)
        return Status::error("placement check: tensor '" + tensor.name + "' flows back from " + stage_name(from) +
                             " to " + stage_name(stage_of[c]) + " (not contiguous)");
      if (stage_of[c] != from) to.push_back(stage_of[c]);
    }
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
    for (size_t s : to) {
      expected[s].bytes_in += tensor.bytes;
      expected[s].transfer_seconds += transfer.message_seconds + copy(tensor.bytes);
    }
    if (from != SIZE_MAX && (tensor.graph_output || !to.empty())) {
      expected[from].bytes_out += tensor.bytes;
      expected[from].transfer_seconds += copy(tensor.bytes);
    }
  }

  double latency = 0, period = 0;
  for (size_t s = 0; s < stages; ++s) {
    const Stage& got = placement.stages[s];
    Stage& want = expected[s];
    want.memory_bytes = options.weight_copies * want.weight_bytes + alive[s];
    const int64_t budget = options.workers[got.worker].memory_bytes;
    if (budget != 0 && want.memory_bytes > budget)
      return Status::error("placement check: " + stage_name(s) + " needs " + std::to_string(want.memory_bytes) +
                           " bytes, its worker has " + std::to_string(budget));
    if (!close(got.compute_seconds, want.compute_seconds) || !close(got.transfer_seconds, want.transfer_seconds))
      return Status::error("placement check: " + stage_name(s) + "'s times do not match their recomputation");
    if (got.weight_bytes != want.weight_bytes || got.memory_bytes != want.memory_bytes ||
        got.bytes_in != want.bytes_in || got.bytes_out != want.bytes_out)
      return Status::error("placement check: " + stage_name(s) + "'s bytes do not match their recomputation");
    latency += want.seconds();
    period = std::max(period, want.seconds());
  }
  if (!close(placement.latency, latency) || !close(placement.period, period))
    return Status::error("placement check: the latency or period does not match the stages");
  return Status();
}

bool is_contiguous(const LayerGraph& graph, const Placement& placement) {
  std::vector<size_t> stage_of(graph.layers.size(), 0);
  for (size_t s = 0; s < placement.stages.size(); ++s)
    for (uint32_t l : placement.stages[s].layers) stage_of[l] = s;
  for (const LayerTensor& tensor : graph.tensors) {
    if (tensor.producer == kNoLayer) continue;
    for (uint32_t c : tensor.consumers)
      if (stage_of[c] < stage_of[tensor.producer]) return false;
  }
  return true;
}

}  // namespace tessera::plan
