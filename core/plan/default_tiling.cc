// The default tiling heuristic (a cost-model planner will replace it; see ALGORITHMS.md).
#include "core/plan/default_tiling.h"

#include <algorithm>
#include <cmath>

#include "core/base/checked_math.h"

namespace tessera::plan {

std::vector<int64_t> even_cuts(int64_t size, int64_t parts, int64_t alignment) {
  const int64_t units = ceil_div(size, alignment);
  parts = std::clamp<int64_t>(parts, 1, units);
  std::vector<int64_t> cuts{0};
  for (int64_t i = 1; i < parts; ++i) {
    const int64_t cut = (i * units / parts) * alignment;
    if (cut > cuts.back() && cut < size) cuts.push_back(cut);
  }
  cuts.push_back(size);
  return cuts;
}

tiles::TilingPlan default_tiling(const graph::Graph& g, const TilingOptions& options) {
  tiles::TilingPlan plan;
  for (const graph::Node& node : g.nodes) {
    const graph::Tensor& out = g.tensors[node.output];
    tiles::NodeTiling tiling = tiles::NodeTiling::whole(out.shape);
    if (!ops::is_view(node.attrs)) {
      const ops::OpShapes shapes = g.shapes_of(node);
      const ops::OpCost cost = ops::op_cost(node.attrs, shapes, ops::Region::whole(out.shape));
      const double work = std::max(cost.flops, cost.bytes);
      // Enough tiles for the work, and with several threads a few per thread where the work
      // allows, so that no op becomes a serial step between parallel ones.
      const double for_threads =
          options.threads > 1 ? std::min(4.0 * options.threads, std::floor(work / options.min_tile_flops)) : 1.0;
      double wanted = std::max(std::ceil(work / options.target_tile_flops), for_threads);
      wanted = std::clamp<double>(wanted, 1, options.max_tiles_per_node);
      double tiles = 1;
      // Split the preferred dimensions first, each as far as it goes.
      for (const ops::SplitDim& split : ops::op_tiling_hints(node.attrs, shapes, {out.layout, options.isa}).dims) {
        const double goal = split.only_for_threads ? std::min(wanted, for_threads) : wanted;
        if (tiles >= goal) continue;
        const int64_t units = ceil_div(out.shape[split.dim], split.alignment);
        const int64_t parts = std::min<int64_t>(units, static_cast<int64_t>(std::ceil(goal / tiles)));
        tiling.cuts[split.dim] = even_cuts(out.shape[split.dim], parts, split.alignment);
        tiles *= static_cast<double>(tiling.cuts[split.dim].size() - 1);
      }
    }
    plan.nodes.push_back(std::move(tiling));
  }
  return plan;
}

}  // namespace tessera::plan
