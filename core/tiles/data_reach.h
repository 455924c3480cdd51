// How much data a run moves through the caches around each node: what decides whether the
// node finds its inputs in a core's caches, in the shared cache or in memory.
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"

namespace tessera::tiles {

// Per node, in node order (0 for nodes that own no tiles): the larger of
//  - its own bytes, the inputs it reads (through views, constants aside) and its output;
//  - for each input, the bytes touched since its producer began: the own bytes and
//    constants of every tile-owning node from the producer to the one before this one (for
//    a graph input, its bytes and everything before this node). An input made long ago, a
//    feature pyramid's lateral branch, has been pushed out by all of them.
std::vector<int64_t> data_reach_bytes(const graph::Graph& g);

}  // namespace tessera::tiles
