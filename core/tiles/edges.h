// Tile-to-tile edges: data edges from footprints, reuse edges from shared arena bytes (and
// which of those order a write after a read, with the bytes it overwrites).
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
  // Per task, the tasks that read the previous occupant of bytes it writes (reuse edges from a
  // read), each once, with the bytes of their reads it writes over.
  std::vector<std::vector<Overwrite>> overwrites;
  std::vector<float> stale_share;  // per task: Task::stale_share
  uint64_t data_edges = 0;
  uint64_t reuse_edges = 0;
};

// `compiled_index[n]` is graph node n's index in `tasks_of.nodes`, or -1 for views.
Result<EdgeLists> build_edges(const graph::Graph& g, const TilingPlan& plan, const MemoryPlan& memory,
                              const std::vector<int>& compiled_index, const TileGraph& tasks_of);

// The views between a tensor and the tensor that owns its bytes, with their shapes looked up
// once: `map` takes a region of the tensor to the region of the storage it covers. It points
// into the graph, which must outlive it unchanged.
class StorageMap {
 public:
  StorageMap(const graph::Graph& g, int tensor);
  int storage() const { return storage_; }
  void map(ops::Region* region) const;
  // Whether map() moves every region as `other`'s does: the same views of the same shapes.
  bool maps_like(const StorageMap& other) const;

 private:
  struct View {
    const graph::Node* node;
    ops::OpShapes shapes;
  };
  std::vector<View> views_;  // from the tensor towards its storage
  int storage_ = -1;
};

// How many cells of one dimension's `cuts` the interval [begin, end) overlaps: a tiling's tiles
// that intersect a region number the product of this over the dimensions.
int64_t overlapped_cell_count(const std::vector<int64_t>& cuts, int64_t begin, int64_t end);

// Tasks of a node tiled by `tiling` (ids from first_task) whose regions intersect `region`.
void intersecting_tiles(const NodeTiling& tiling, uint32_t first_task, const ops::Region& region,
                        std::vector<uint32_t>* out);

}  // namespace tessera::tiles
