// TilingPlan helpers and validation.
#include "core/tiles/tiling_plan.h"

namespace tessera::tiles {

int64_t NodeTiling::tile_count() const {
  int64_t n = 1;
  for (const auto& c : cuts) n *= static_cast<int64_t>(c.size()) - 1;
  return n;
}

NodeTiling NodeTiling::whole(const ops::Shape& shape) {
  NodeTiling t;
  for (int64_t d : shape) t.cuts.push_back({0, d});
  return t;
}

bool owns_tiles(const graph::Graph& g, size_t node) {
  return !ops::is_view(g.nodes[node].attrs) && g.tensors[g.nodes[node].output].alias_of < 0;
}

Status validate_plan(const graph::Graph& g, const TilingPlan& plan, Isa isa) {
  if (plan.nodes.size() != g.nodes.size()) return Status::error("tiling plan has the wrong number of nodes");
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    if (!owns_tiles(g, n)) continue;
    const std::string path = g.path(static_cast<int>(n));
    const graph::Tensor& out = g.tensors[node.output];
    const NodeTiling& t = plan.nodes[n];
    if (t.cuts.size() != out.shape.size()) return Status::error(path + ": tiling has the wrong rank");
    const ops::TilingHints hints = ops::op_tiling_hints(node.attrs, g.shapes_of(node), {out.layout, isa});
    for (size_t d = 0; d < out.shape.size(); ++d) {
      const auto& cuts = t.cuts[d];
      if (cuts.size() < 2 || cuts.front() != 0 || cuts.back() != out.shape[d]) {
        return Status::error(path + ": tiling of dimension " + std::to_string(d) + " must run from 0 to its size");
      }
      int64_t alignment = 0;  // 0: the op does not allow splitting this dimension
      for (const ops::SplitDim& s : hints.dims) {
        if (s.dim == static_cast<int>(d)) alignment = s.alignment;
      }
      if (cuts.size() > 2 && alignment == 0) {
        return Status::error(path + ": dimension " + std::to_string(d) + " cannot be split");
      }
      for (size_t i = 1; i < cuts.size(); ++i) {
        if (cuts[i] <= cuts[i - 1]) return Status::error(path + ": tiling cuts must increase");
        if (i + 1 < cuts.size() && cuts[i] % alignment != 0) {
          return Status::error(path + ": cut " + std::to_string(cuts[i]) + " is not a multiple of " +
                               std::to_string(alignment));
        }
      }
    }
  }
  return Status();
}

}  // namespace tessera::tiles
