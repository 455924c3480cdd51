// TilingPlan: how each node's output is cut into tiles. Plain data, chosen by a planner
// (core/plan) and consumed by the tile compiler, so planners can be swapped freely.
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "tessera/status.h"

namespace tessera::tiles {

// Cut positions per logical output dimension, from 0 to the dimension's size inclusive:
// {0, 4, 8} splits a dimension of 8 into [0, 4) and [4, 8). Tiles are the cartesian
// product of the intervals.
struct NodeTiling {
  std::vector<std::vector<int64_t>> cuts;

  int64_t tile_count() const;
  static NodeTiling whole(const ops::Shape& shape);
  bool operator==(const NodeTiling&) const = default;
};

// Calls fn(region) for every tile of `tiling`, in row-major order of the grid (the order
// task ids follow).
template <class Fn>
void for_each_tile(const NodeTiling& tiling, Fn&& fn) {
  const int rank = static_cast<int>(tiling.cuts.size());
  std::vector<size_t> cell(rank, 0);
  ops::Region region;
  region.rank = rank;
  while (true) {
    for (int d = 0; d < rank; ++d) {
      region.begin[d] = tiling.cuts[d][cell[d]];
      region.end[d] = tiling.cuts[d][cell[d] + 1];
    }
    fn(region);
    int d = rank - 1;
    for (; d >= 0; --d) {
      if (++cell[d] + 1 < tiling.cuts[d].size()) break;
      cell[d] = 0;
    }
    if (d < 0) return;
  }
}

// Whether graph node `node` runs tiles: views and nodes whose output aliases their input
// (relayouts that change no byte) own none; their plan entries are ignored.
bool owns_tiles(const graph::Graph& g, size_t node);

// One entry per graph node (entries of nodes that own no tiles are ignored).
struct TilingPlan {
  std::vector<NodeTiling> nodes;
};

// Checks that every entry matches its node's rank and sizes, cuts are strictly increasing
// from 0 to the size, and only dimensions the op allows to split are split (at multiples of
// the op's alignment for the kernels of `isa`, except at the end).
Status validate_plan(const graph::Graph& g, const TilingPlan& plan, Isa isa);

}  // namespace tessera::tiles
