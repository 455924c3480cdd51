// Tile-to-tile edges: data edges from footprints, reuse edges from shared arena bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "core/tiles/memory_plan.h"
#include "core/tiles/tile_graph.h"
#include "core/tiles/tiling_plan.h"
#include "tessera/status.h"

namespace tessera::tiles {

struct EdgeLists {
  std::vector<std::vector<uint32_t>> children;  // per task, sorted and unique
  uint64_t data_edges = 0;
  uint64_t reuse_edges = 0;
};

// `compiled_index[n]` is graph node n's index in `tasks_of.nodes`, or -1 for views.
Result<EdgeLists> build_edges(const graph::Graph& g, const TilingPlan& plan, const MemoryPlan& memory,
                              const std::vector<int>& compiled_index, const TileGraph& tasks_of);

// Follows views back to the tensor that owns the bytes, mapping `region` on the way.
int resolve_storage(const graph::Graph& g, int tensor, ops::Region* region);

// How many tiles of `tiling` intersect `region` (what intersecting_tiles would list).
int64_t intersecting_tile_count(const NodeTiling& tiling, const ops::Region& region);

// Tasks of a node tiled by `tiling` (ids from first_task) whose regions intersect `region`.
void intersecting_tiles(const NodeTiling& tiling, uint32_t first_task, const ops::Region& region,
                        std::vector<uint32_t>* out);

}  // namespace tessera::tiles
