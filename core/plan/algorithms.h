// Which algorithm computes each node whose op has several (a 3x3 convolution: the direct GEMM
// or Winograd): the one the cost model predicts fastest for the node, on one thread, each
// tiled by the default heuristic. Chosen once per specialisation, before any tiling, so that
// outputs stay bitwise alike across thread counts, schedulers and planners (docs/design.md,
// "Determinism"); only a different profile, like a different ISA, may change a bit.
#pragma once

#include "core/graph/graph.h"
#include "core/plan/default_tiling.h"
#include "core/plan/profile.h"
#include "core/tiles/compile.h"

namespace tessera::plan {

// Sets the algorithm of every node of `g` with more than one; returns how many changed from
// the op's own choice. `tiling` and `compile` as for the model's own plan (its ISA, memory reuse).
Result<int> choose_algorithms(graph::Graph& g, const Profile& profile, const TilingOptions& tiling,
                              const tiles::CompileOptions& compile);

}  // namespace tessera::plan
