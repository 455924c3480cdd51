// Coarsening by cut width: the number of tensors a cut between two positions of the layer
// order crosses (graph inputs come from the caller and cross none).
#include "core/plan/coarsen_layers.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/plan/layer_ideals.h"

namespace tessera::plan {
namespace {

// crossing[i]: tensors produced before position i and read at or after it (i in 1..n-1).
std::vector<size_t> cut_widths(const LayerGraph& graph) {
  const size_t n = graph.layers.size();
  std::vector<int64_t> delta(n + 1, 0);
  for (const LayerTensor& tensor : graph.tensors) {
    if (tensor.producer == kNoLayer || tensor.consumers.empty()) continue;
    const uint32_t last = *std::max_element(tensor.consumers.begin(), tensor.consumers.end());
    delta[tensor.producer + 1] += 1;
    delta[last + 1] -= 1;
  }
  std::vector<size_t> widths(n, 0);
  int64_t open = 0;
  for (size_t i = 1; i < n; ++i) {
    open += delta[i];
    widths[i] = static_cast<size_t>(open);
  }
  return widths;
}

// `group[l]`: the new layer of layer l, non-decreasing along the order.
LayerGraph merge_groups(const LayerGraph& graph, const std::vector<uint32_t>& group) {
  LayerGraph merged;
  std::string first_name;
  for (uint32_t l = 0; l < graph.layers.size(); ++l) {
    const Layer& layer = graph.layers[l];
    if (group[l] == merged.layers.size()) {
      Layer fresh;
      fresh.name = first_name = layer.name;
      fresh.seconds.assign(layer.seconds.size(), 0);
      merged.layers.push_back(std::move(fresh));
    }
    Layer& into = merged.layers[group[l]];
    if (!into.members.empty()) into.name = first_name + " .. " + layer.name;
    for (size_t t = 0; t < layer.seconds.size(); ++t) into.seconds[t] += layer.seconds[t];
    into.weight_bytes += layer.weight_bytes;
    into.alive_bytes = std::max(into.alive_bytes, layer.alive_bytes);
    if (layer.members.empty())
      into.members.push_back(l);
    else
      into.members.insert(into.members.end(), layer.members.begin(), layer.members.end());
  }
  for (const LayerTensor& tensor : graph.tensors) {
    LayerTensor mapped = tensor;
    mapped.producer = tensor.producer == kNoLayer ? kNoLayer : group[tensor.producer];
    mapped.consumers.clear();
    for (uint32_t c : tensor.consumers)
      if (group[c] != mapped.producer) mapped.consumers.push_back(group[c]);
    std::sort(mapped.consumers.begin(), mapped.consumers.end());
    mapped.consumers.erase(std::unique(mapped.consumers.begin(), mapped.consumers.end()), mapped.consumers.end());
    if (mapped.producer != kNoLayer && mapped.consumers.empty() && !mapped.graph_output) continue;  // inside one
    merged.tensors.push_back(std::move(mapped));
  }
  return merged;
}

}  // namespace

CoarseLayers coarsen_layers(const LayerGraph& graph, size_t max_ideals) {
  const size_t n = graph.layers.size();
  std::vector<uint32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0u);

  CoarseLayers coarse;
  coarse.graph = merge_groups(graph, identity);
  LayerIdeals ideals = layer_ideals(coarse.graph, max_ideals);
  if (ideals.complete) {
    coarse.ideals = std::move(ideals.sets);
    return coarse;
  }

  // The widest cut width keeps every cut (the graph above): coarsening starts below it.
  const std::vector<size_t> widths = cut_widths(graph);
  std::vector<size_t> levels(widths.begin() + (n > 0 ? 1 : 0), widths.end());
  std::sort(levels.begin(), levels.end(), std::greater<>());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  if (!levels.empty()) levels.erase(levels.begin());
  for (size_t width : levels) {
    std::vector<uint32_t> group(n, 0);
    for (size_t i = 1; i < n; ++i) group[i] = group[i - 1] + (widths[i] <= width ? 1 : 0);
    coarse.graph = merge_groups(graph, group);
    coarse.width = width;
    coarse.merged_regions = 0;
    coarse.merged_layers = 0;
    for (const Layer& layer : coarse.graph.layers)
      if (layer.members.size() > 1) {
        ++coarse.merged_regions;
        coarse.merged_layers += layer.members.size();
      }
    ideals = layer_ideals(coarse.graph, max_ideals);
    if (ideals.complete) {
      coarse.ideals = std::move(ideals.sets);
      return coarse;
    }
  }
  coarse.prefixes_only = true;
  coarse.ideals = {LayerSet(coarse.graph.layers.size())};
  for (uint32_t l = 0; l < coarse.graph.layers.size(); ++l) {
    LayerSet next = coarse.ideals.back();
    next.insert(l);
    coarse.ideals.push_back(std::move(next));
  }
  return coarse;
}

std::string describe(const CoarseLayers& coarse) {
  if (coarse.merged_regions == 0 && !coarse.prefixes_only)
    return "not coarsened (" + std::to_string(coarse.ideals.size()) + " ideals)";
  std::string text = std::to_string(coarse.merged_regions) + " regions of " + std::to_string(coarse.merged_layers) +
                     " layers merged at cuts crossed by at most " + std::to_string(coarse.width) +
                     " tensors: " + std::to_string(coarse.graph.layers.size()) + " layers";
  if (coarse.prefixes_only) return text + ", still too many ideals: consecutive runs of the layer order only";
  return text + ", " + std::to_string(coarse.ideals.size()) + " ideals";
}

}  // namespace tessera::plan
