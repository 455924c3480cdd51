// Coarsening a layer graph whose ideals are too many for the placement planner's dynamic
// program (an Inception module's parallel branches multiply them). Cuts of the layer order
// crossed by few tensors (a module's input, its concatenated output) stay; the layers between
// two neighbouring kept cuts become one layer. The widest cuts are merged away first, and only
// as far as the limit requires.
#pragma once

#include <cstddef>
#include <string>

#include "core/plan/layer_graph.h"
#include "core/plan/layer_ideals.h"

namespace tessera::plan {

struct CoarseLayers {
  LayerGraph graph;           // its layers' `members` name the original layers
  size_t width = 0;           // cuts crossed by more tensors than this were merged away (0: none)
  size_t merged_regions = 0;  // regions of several layers that became one layer
  size_t merged_layers = 0;   // layers inside them
  // Even the coarsest graph has more ideals than the limit: the planner splits the layer order
  // into consecutive runs only (its prefixes are always ideals).
  bool prefixes_only = false;
  // The ideals of `graph` the planner runs on, by size (at most the limit; with
  // `prefixes_only`, the prefixes of its layer order).
  std::vector<LayerSet> ideals;
};

// The original graph when its ideals fit `max_ideals`; otherwise the least coarsening that
// fits. Every layer of the result lists its members, merged or not.
CoarseLayers coarsen_layers(const LayerGraph& graph, size_t max_ideals);

// What coarsening did, in a sentence ("not coarsened (532 ideals)", "3 regions of 24 layers
// merged at cuts crossed by at most 1 tensor: 40 ideals").
std::string describe(const CoarseLayers& coarse);

}  // namespace tessera::plan
