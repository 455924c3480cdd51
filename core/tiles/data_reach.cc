#include "core/tiles/data_reach.h"

#include <algorithm>

#include "core/tiles/tiling_plan.h"

namespace tessera::tiles {

std::vector<int64_t> data_reach_bytes(const graph::Graph& g) {
  const size_t n = g.nodes.size();
  std::vector<int64_t> own(n, 0), reach(n, 0);
  // touched_before[k]: the own bytes and constants of the tile-owning nodes before node k, so
  // that what the nodes between two others touched is one difference.
  std::vector<int64_t> touched_before(n + 1, 0);
  for (size_t k = 0; k < n; ++k) {
    const graph::Node& node = g.nodes[k];
    int64_t constants = 0;
    if (owns_tiles(g, k)) {
      own[k] = g.tensors[node.output].bytes();
      for (int input : node.inputs) {
        if (input < 0) continue;
        if (g.tensors[input].is_constant()) {
          constants += g.tensors[input].bytes();
        } else {
          own[k] += g.tensors[g.storage_of(input)].bytes();
        }
      }
    }
    touched_before[k + 1] = touched_before[k] + own[k] + constants;
  }
  for (size_t k = 0; k < n; ++k) {
    reach[k] = own[k];
    if (own[k] == 0) continue;
    for (int input : g.nodes[k].inputs) {
      if (input < 0 || g.tensors[input].is_constant()) continue;
      const graph::Tensor& storage = g.tensors[g.storage_of(input)];
      const int64_t since = storage.producer >= 0 ? touched_before[k] - touched_before[storage.producer]
                                                  : touched_before[k] + storage.bytes();
      reach[k] = std::max(reach[k], since);
    }
  }
  return reach;
}

}  // namespace tessera::tiles
