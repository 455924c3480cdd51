// Enumerating ideals breadth first: every ideal of size s + 1 is one of size s plus a layer
// whose producers it holds, so level by level finds each once (a hash set drops repeats).
#include "core/plan/layer_ideals.h"

#include <algorithm>
#include <bit>
#include <unordered_set>

namespace tessera::plan {

bool LayerSet::subset_of(const LayerSet& other) const {
  for (size_t w = 0; w < words_.size(); ++w)
    if (words_[w] & ~other.words_[w]) return false;
  return true;
}

std::vector<uint32_t> LayerSet::minus(const LayerSet& other) const {
  std::vector<uint32_t> layers;
  for (size_t w = 0; w < words_.size(); ++w)
    for (uint64_t bits = words_[w] & ~other.words_[w]; bits != 0; bits &= bits - 1)
      layers.push_back(static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
  return layers;
}

size_t LayerSet::size() const {
  size_t count = 0;
  for (uint64_t word : words_) count += static_cast<size_t>(std::popcount(word));
  return count;
}

size_t LayerSet::hash() const {  // FNV-1a over the words
  uint64_t h = 1469598103934665603ull;
  for (uint64_t word : words_) h = (h ^ word) * 1099511628211ull;
  return static_cast<size_t>(h ^ (h >> 32));
}

std::vector<std::vector<uint32_t>> layer_producers(const LayerGraph& graph) {
  std::vector<std::vector<uint32_t>> producers(graph.layers.size());
  for (const LayerTensor& tensor : graph.tensors) {
    if (tensor.producer == kNoLayer) continue;
    for (uint32_t consumer : tensor.consumers) producers[consumer].push_back(tensor.producer);
  }
  for (std::vector<uint32_t>& list : producers) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return producers;
}

LayerIdeals layer_ideals(const LayerGraph& graph, size_t limit) {
  struct Hash {
    size_t operator()(const LayerSet& set) const { return set.hash(); }
  };
  const size_t n = graph.layers.size();
  const std::vector<std::vector<uint32_t>> producers = layer_producers(graph);
  LayerIdeals ideals;
  std::vector<LayerSet> level{LayerSet(n)};
  while (!level.empty()) {
    ideals.sets.insert(ideals.sets.end(), level.begin(), level.end());
    if (ideals.sets.size() > limit) {
      ideals.sets.resize(limit);
      ideals.complete = false;
      return ideals;
    }
    std::unordered_set<LayerSet, Hash> next;
    for (const LayerSet& set : level)
      for (uint32_t layer = 0; layer < n; ++layer) {
        if (set.contains(layer)) continue;
        const std::vector<uint32_t>& needs = producers[layer];
        if (!std::all_of(needs.begin(), needs.end(), [&](uint32_t p) { return set.contains(p); })) continue;
        LayerSet grown = set;
        grown.insert(layer);
        next.insert(std::move(grown));
      }
    level.assign(next.begin(), next.end());
    std::sort(level.begin(), level.end());  // the hash set's order is not the same everywhere
  }
  return ideals;
}

}  // namespace tessera::plan
