// The default tiling heuristic: tiles of roughly a target amount of work, split along the
// dimensions each op prefers (batch, then rows or channel blocks), with several tiles per
// thread where the work allows.
#pragma once

#include "core/graph/graph.h"
#include "core/tiles/tiling_plan.h"

namespace tessera::plan {

struct TilingOptions {
  int threads = 1;
  // Work per tile, in FLOPs (memory-bound ops count 1 FLOP per byte moved).
  double target_tile_flops = 2.0e6;
  // Tiles below this much work are not split further to feed threads.
  double min_tile_flops = 1.5e5;
  int max_tiles_per_node = 512;
  Isa isa = detected_isa();  // the kernels' ISA: their GEMM panels set the granularity of cuts
};

tiles::TilingPlan default_tiling(const graph::Graph& g, const TilingOptions& options);

// Cuts splitting `size` into `parts` near-equal pieces at multiples of `alignment`.
std::vector<int64_t> even_cuts(int64_t size, int64_t parts, int64_t alignment);

}  // namespace tessera::plan
