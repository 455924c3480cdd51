// Checks of a layer graph, and its times per thread count.
#include "core/plan/layer_graph.h"

#include <algorithm>

namespace tessera::plan {

Status check_layer_graph(const LayerGraph& graph) {
  const size_t n = graph.layers.size();
  if (n == 0) return Status::error("layer graph: no layers");
  const size_t counts = graph.layers[0].seconds.size();
  for (const Layer& layer : graph.layers) {
    if (layer.seconds.empty() || layer.seconds.size() != counts)
      return Status::error("layer graph: layer '" + layer.name + "' has " + std::to_string(layer.seconds.size()) +
                           " times per thread count, the first layer " + std::to_string(counts));
    for (double s : layer.seconds)
      if (!(s >= 0)) return Status::error("layer graph: layer '" + layer.name + "' has a negative or NaN time");
    if (layer.weight_bytes < 0 || layer.alive_bytes < 0)
      return Status::error("layer graph: layer '" + layer.name + "' has a negative size");
  }
  for (const LayerTensor& tensor : graph.tensors) {
    if (tensor.bytes < 0) return Status::error("layer graph: tensor '" + tensor.name + "' has a negative size");
    if (tensor.producer != kNoLayer && tensor.producer >= n)
      return Status::error("layer graph: tensor '" + tensor.name + "' has no producer layer " +
                           std::to_string(tensor.producer));
    for (uint32_t c : tensor.consumers) {
      if (c >= n)
        return Status::error("layer graph: tensor '" + tensor.name + "' has no consumer layer " + std::to_string(c));
      if (tensor.producer != kNoLayer && c <= tensor.producer)
        return Status::error("layer graph: tensor '" + tensor.name + "' is read by layer '" + graph.layers[c].name +
                             "', which does not come after its producer '" + graph.layers[tensor.producer].name + "'");
    }
  }
  return Status();
}

double layer_seconds(const Layer& layer, int threads) {
  const size_t i = static_cast<size_t>(std::max(threads, 1)) - 1;
  return layer.seconds[std::min(i, layer.seconds.size() - 1)];
}

}  // namespace tessera::plan
