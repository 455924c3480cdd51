// Configurations per node: even cuts of the dimensions the op allows to split.
#include "core/plan/tiling_configs.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/base/checked_math.h"
#include "core/plan/default_tiling.h"

namespace tessera::plan {

namespace {

// Tile counts worth trying: powers of two, and multiples of the thread count by powers of
// two (so that every thread gets the same number of tiles).
std::vector<int64_t> tile_counts(const ConfigOptions& options) {
  std::set<int64_t> counts;
  for (int64_t c = 2; c <= options.max_tiles; c *= 2) {
    counts.insert(c);
    if (options.threads > 1 && c / 2 * options.threads <= options.max_tiles) counts.insert(c / 2 * options.threads);
  }
  std::erase_if(counts, [&](int64_t c) { return c < 2 || c > options.max_tiles; });
  return {counts.begin(), counts.end()};
}

}  // namespace

std::vector<tiles::NodeTiling> node_configurations(const graph::Graph& g, int node, const ConfigOptions& options) {
  const graph::Node& n = g.nodes[node];
  const graph::Tensor& out = g.tensors[n.output];
  const tiles::NodeTiling whole = tiles::NodeTiling::whole(out.shape);
  std::vector<tiles::NodeTiling> configs{whole};
  const ops::OpShapes shapes = g.shapes_of(n);
  const ops::OpCost cost = ops::op_cost(n.attrs, shapes, ops::Region::whole(out.shape));
  const double work = std::max(cost.flops, cost.bytes);
  const int64_t most_tiles =
      std::min<int64_t>(options.max_tiles, static_cast<int64_t>(std::floor(work / options.min_tile_work)));
  if (most_tiles < 2) return configs;

  // The dimensions worth cutting: more than one unit of their alignment.
  std::vector<ops::SplitDim> dims;
  for (const ops::SplitDim& split : ops::op_tiling_hints(n.attrs, shapes, {out.layout, options.isa}).dims) {
    if (ceil_div(out.shape[split.dim], split.alignment) > 1) dims.push_back(split);
  }
  // A row band of several images is a band of each: the next layer's band waits for all of
  // them and works on a batch's worth of scattered rows, which the cost model does not see
  // (ResNet-50 batch 8: `layer3`'s 1x1 convolutions in bands of all eight images, predicted
  // 22 % faster than per image, ran 14 % slower). Images are cut apart before their rows.
  const bool images = out.layout == ops::Layout::nhwc() && out.shape[0] > 1;
  auto add = [&](const std::vector<std::pair<ops::SplitDim, int64_t>>& parts) {
    tiles::NodeTiling t = whole;
    for (const auto& [split, count] : parts) {
      t.cuts[split.dim] = even_cuts(out.shape[split.dim], count, split.alignment);
    }
    const auto pieces = [&](int dim) { return static_cast<int64_t>(t.cuts[dim].size()) - 1; };
    if (images && pieces(2) > 1 && pieces(0) < out.shape[0]) return;
    if (t.tile_count() > 1 && std::find_if(configs.begin(), configs.end(), [&](const tiles::NodeTiling& c) {
                                return c.cuts == t.cuts;
                              }) == configs.end()) {
      configs.push_back(std::move(t));
    }
  };
  // A tile of a memory-bound op cut along an inner dimension reads and writes shorter
  // contiguous runs than its twin cut along an outer one, which the cost model does not see:
  // on PP-OCRv4 det, NHWC Resize and Mul tiles cut across the width took 1.1-1.5x as long as
  // row bands of the same work. Such ops cut an inner dimension only where the outer ones
  // cannot give the tiles.
  const bool moves_memory = cost.kind == ops::WorkKind::kCopy || cost.kind == ops::WorkKind::kElementwise ||
                            cost.kind == ops::WorkKind::kUnary;
  const auto parts = [&](size_t i) { return ceil_div(out.shape[dims[i].dim], dims[i].alignment); };
  const std::vector<int64_t> counts = tile_counts(options);
  for (int64_t total : counts) {
    if (total > most_tiles) break;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (moves_memory && i > 0 && parts(i - 1) >= total) break;
      add({{dims[i], total}});
      // Crossed with a later dimension: each at least 2 parts, the first a power of two.
      for (size_t j = i + 1; j < dims.size() && !(moves_memory && parts(i) >= total); ++j) {
        for (int64_t first = 2; first * 2 <= total; first *= 2) {
          if (total % first == 0) add({{dims[i], first}, {dims[j], total / first}});
        }
      }
    }
  }
  return configs;
}

}  // namespace tessera::plan
