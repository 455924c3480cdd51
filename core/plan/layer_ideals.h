// The ideals of a layer graph (sets closed under "every producer of a member is a member"):
// the states of the placement planner's dynamic program, where the difference of two nested
// ideals is a contiguous stage. They stay few for narrow graphs: a chain of n layers has n + 1,
// two parallel chains of a and b layers (a + 1)(b + 1); wide graphs are coarsened first
// (coarsen_layers.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/plan/layer_graph.h"

namespace tessera::plan {

// A set of layers as a bitset.
class LayerSet {
 public:
  explicit LayerSet(size_t layers = 0) : words_((layers + 63) / 64, 0) {}
  void insert(uint32_t layer) { words_[layer / 64] |= uint64_t{1} << (layer % 64); }
  bool contains(uint32_t layer) const { return (words_[layer / 64] >> (layer % 64)) & 1; }
  bool subset_of(const LayerSet& other) const;
  // The layers in this set and not in `other`, ascending.
  std::vector<uint32_t> minus(const LayerSet& other) const;
  size_t size() const;
  bool operator==(const LayerSet& other) const { return words_ == other.words_; }
  bool operator<(const LayerSet& other) const { return words_ < other.words_; }
  size_t hash() const;

 private:
  std::vector<uint64_t> words_;
};

// Each layer's producers (layers whose tensors it reads), each once.
std::vector<std::vector<uint32_t>> layer_producers(const LayerGraph& graph);

struct LayerIdeals {
  std::vector<LayerSet> sets;  // by size, ascending: the empty set first, all layers last
  bool complete = true;        // false: more than the limit exist, `sets` holds the first found
};

// Breadth-first from the empty set, each ideal grown by one layer whose producers it holds.
LayerIdeals layer_ideals(const LayerGraph& graph, size_t limit);

}  // namespace tessera::plan
