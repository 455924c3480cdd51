// The tile grids a node may take (after OptCNN's per-layer configurations): one tile, one
// splittable dimension cut into parts, or two of them crossed. Which dimensions may be cut,
// and at what granularity, comes from the op's tiling hints; how far, from the thread count.
// Memory-bound ops cut an inner dimension only where the outer ones cannot give the tiles.
#pragma once

#include <vector>

#include "core/graph/graph.h"
#include "core/tiles/tiling_plan.h"

namespace tessera::plan {

struct ConfigOptions {
  int threads = 1;
  int max_tiles = 64;            // no configuration has more tiles
  double min_tile_work = 3.0e4;  // FLOPs (or bytes moved): smaller tiles cost more than they bring
  Isa isa = detected_isa();      // the kernels\' ISA: their GEMM panels set the granularity of cuts
};

// The distinct configurations of graph node `node` (not a view), the one-tile grid first.
std::vector<tiles::NodeTiling> node_configurations(const graph::Graph& g, int node, const ConfigOptions& options);

}  // namespace tessera::plan
