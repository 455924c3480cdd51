// The tile compiler: graph + tiling plan -> TileGraph (tasks, exact edges, arena, kernels).
#pragma once

#include <cstdint>

#include "core/base/cpu_features.h"
#include "core/graph/graph.h"
#include "core/tiles/tile_graph.h"
#include "core/tiles/tiling_plan.h"
#include "tessera/status.h"

namespace tessera::tiles {

struct CompileOptions {
  bool reuse_memory = true;  // share arena bytes between tensors with disjoint lifetimes
  Isa max_isa = Isa::kAvx512;
  ConstantStore* store = nullptr;  // where kernels share packed weights (null: each packs its own)
  bool bind_kernels = true;        // false: tasks and edges only, for planners to simulate (no kernels)
  // Constants smaller than this many bytes that a run would read in place from the weights
  // file get copies in `store` (required), which the kernels and outputs are bound to
  // (TileGraph::weight_copies): all of them (kCopyAllConstants) when the file is to be freed;
  // below kCopySmallConstants from a mapped file, whose pages a touch brings back a whole
  // page-cache folio at a time (up to 2 MiB of the neighbouring weights); none otherwise.
  int64_t copy_read_in_place_below = 0;
};

inline constexpr int64_t kCopyAllConstants = INT64_MAX;
inline constexpr int64_t kCopySmallConstants = int64_t{2} << 20;

// Edges come from each op's footprint intersected with the producer's tile grid (binary
// search per dimension: cost proportional to the edges found); arena reuse adds the
// write-after-read and write-after-write edges that keep any schedule correct.
Result<TileGraph> compile(const graph::Graph& g, const TilingPlan& plan, const CompileOptions& options);

}  // namespace tessera::tiles
