// Edge construction. A consumer tile's footprint on each input is mapped through views
// to the storage tensor, then intersected with the producer's grid by binary search in
// each dimension. Arena reuse then orders every tile that writes shared bytes after every
// tile that read or wrote the previous occupant's overlapping bytes.
#include "core/tiles/edges.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

namespace tessera::tiles {

namespace {

// A byte range [begin, end) in the arena touched by one task.
struct Access {
  uint32_t task;
  int64_t begin, end;
};

Access access_of(uint32_t task, const ops::Region& region, const graph::Tensor& t, const Storage& s) {
  const ops::ElementRange hull = ops::element_hull(region, ops::logical_strides(t.shape, t.layout));
  const auto size = static_cast<int64_t>(dtype_size(t.dtype));
  return {task, s.offset + size * hull.first, s.offset + size * (hull.last + 1)};
}

bool overlap(const Access& a, const Access& b) { return a.begin < b.end && b.begin < a.end; }

struct ByteRange {
  int64_t begin, end;
};

// A set of disjoint byte ranges from which overlapping parts can be taken out.
class ByteSet {
 public:
  explicit ByteSet(ByteRange all) : ranges_{all} {}

  // Removes and returns the parts of the set inside [begin, end).
  std::vector<ByteRange> take(int64_t begin, int64_t end) {
    std::vector<ByteRange> taken, kept;
    for (const ByteRange& r : ranges_) {
      const int64_t lo = std::max(r.begin, begin), hi = std::min(r.end, end);
      if (lo >= hi) {
        kept.push_back(r);
        continue;
      }
      taken.push_back({lo, hi});
      if (r.begin < lo) kept.push_back({r.begin, lo});
      if (hi < r.end) kept.push_back({hi, r.end});
    }
    ranges_ = std::move(kept);
    return taken;
  }

 private:
  std::vector<ByteRange> ranges_;
};

// The cells [lo, hi) of one dimension's cuts that [begin, end) overlaps: the first cell whose
// end passes begin, to the last whose begin precedes end (lo >= hi: none).
std::pair<size_t, size_t> overlapped_cells(const std::vector<int64_t>& cuts, int64_t begin, int64_t end) {
  const auto lo = std::upper_bound(cuts.begin(), cuts.end(), begin) - cuts.begin() - 1;
  const auto hi = std::lower_bound(cuts.begin(), cuts.end(), end) - cuts.begin();
  return {static_cast<size_t>(lo), static_cast<size_t>(hi)};
}

}  // namespace

StorageMap::StorageMap(const graph::Graph& g, int tensor) {
  while (g.tensors[tensor].alias_of >= 0) {
    const graph::Node& view = g.nodes[g.tensors[tensor].producer];
    views_.push_back({&view, g.shapes_of(view)});
    tensor = view.inputs[0];
  }
  storage_ = tensor;
}

void StorageMap::map(ops::Region* region) const {
  for (const View& view : views_) *region = *ops::op_footprint(view.node->attrs, view.shapes, *region, 0);
}

bool StorageMap::maps_like(const StorageMap& other) const {
  return std::equal(
      views_.begin(), views_.end(), other.views_.begin(), other.views_.end(),
      [](const View& a, const View& b) { return a.node->attrs == b.node->attrs && a.shapes == b.shapes; });
}

void intersecting_tiles(const NodeTiling& tiling, uint32_t first_task, const ops::Region& region,
                        std::vector<uint32_t>* out) {
  const int rank = static_cast<int>(tiling.cuts.size());
  std::array<size_t, ops::kMaxRank> lo{}, hi{}, cell{}, count{};
  for (int d = 0; d < rank; ++d) {
    count[d] = tiling.cuts[d].size() - 1;
    std::tie(lo[d], hi[d]) = overlapped_cells(tiling.cuts[d], region.begin[d], region.end[d]);
    if (lo[d] >= hi[d]) return;
    cell[d] = lo[d];
  }
  while (true) {
    uint32_t id = 0;
    for (int d = 0; d < rank; ++d) id = id * static_cast<uint32_t>(count[d]) + static_cast<uint32_t>(cell[d]);
    out->push_back(first_task + id);
    int d = rank - 1;
    for (; d >= 0; --d) {
      if (++cell[d] < hi[d]) break;
      cell[d] = lo[d];
    }
    if (d < 0) return;
  }
}

int64_t overlapped_cell_count(const std::vector<int64_t>& cuts, int64_t begin, int64_t end) {
  const auto [lo, hi] = overlapped_cells(cuts, begin, end);
  return lo < hi ? static_cast<int64_t>(hi - lo) : 0;
}

Result<EdgeLists> build_edges(const graph::Graph& g, const TilingPlan& plan, const MemoryPlan& memory,
                              const std::vector<int>& compiled_index, const TileGraph& tasks_of) {
  const size_t task_count = tasks_of.tasks.size();
  std::vector<std::vector<uint32_t>> parents(task_count);
  std::vector<std::vector<Access>> reads(memory.storages.size()), writes(memory.storages.size());

  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (compiled_index[n] < 0) continue;
    const graph::Node& node = g.nodes[n];
    const CompiledNode& compiled = tasks_of.nodes[compiled_index[n]];
    const ops::OpShapes shapes = g.shapes_of(node);
    std::vector<std::optional<StorageMap>> storage_maps(node.inputs.size());  // per activation input
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i] >= 0 && !g.tensors[node.inputs[i]].is_constant()) storage_maps[i].emplace(g, node.inputs[i]);
    }
    const int out_storage = memory.storage_index[node.output];
    for (uint32_t t = compiled.first_task; t < compiled.first_task + compiled.task_count; ++t) {
      const ops::Region& region = tasks_of.tasks[t].region;
      writes[out_storage].push_back(access_of(t, region, g.tensors[node.output], memory.storages[out_storage]));
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        const int input = node.inputs[i];
        if (input < 0 || g.tensors[input].is_constant()) continue;
        std::optional<ops::Region> footprint = ops::op_footprint(node.attrs, shapes, region, static_cast<int>(i));
        if (!footprint || footprint->empty()) continue;
        storage_maps[i]->map(&*footprint);
        const int storage_tensor = storage_maps[i]->storage();
        const int s = memory.storage_index[storage_tensor];
        reads[s].push_back(access_of(t, *footprint, g.tensors[storage_tensor], memory.storages[s]));
        const int producer = g.tensors[storage_tensor].producer;
        if (producer < 0) continue;                    // a graph input: written before the run starts
        TESSERA_CHECK(compiled_index[producer] >= 0);  // views resolve to a computing node
        const CompiledNode& p = tasks_of.nodes[compiled_index[producer]];
        intersecting_tiles(plan.nodes[producer], p.first_task, *footprint, &parents[t]);
      }
    }
  }

  EdgeLists edges;
  edges.overwrites.resize(task_count);
  edges.stale_share.assign(task_count, 1.0f);
  auto dedupe = [](std::vector<uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  for (auto& p : parents) {
    dedupe(p);
    edges.data_edges += p.size();
  }

  // Reuse: B's writers wait for every access to the previous occupant of the same bytes.
  // Only the latest occupant of each byte matters: it was itself written after every
  // access to the occupants before it, so those orderings follow transitively.
  for (size_t b = 0; b < memory.storages.size(); ++b) {
    const Storage& sb = memory.storages[b];
    std::vector<size_t> earlier;
    for (size_t a = 0; a < memory.storages.size(); ++a) {
      const Storage& sa = memory.storages[a];
      if (a != b && sa.last_use < sb.first_use && bytes_overlap(sa, sb)) earlier.push_back(a);
    }
    std::sort(earlier.begin(), earlier.end(),
              [&](size_t x, size_t y) { return memory.storages[x].last_use > memory.storages[y].last_use; });
    ByteSet uncovered({sb.offset, sb.offset + sb.bytes});
    std::vector<int64_t> rewritten(writes[b].size(), 0);  // per write of B: bytes an earlier occupant wrote
    for (size_t a : earlier) {
      // Only the bytes A's tiles write count as covered (not its alignment padding).
      const Storage& sa = memory.storages[a];
      const int64_t written = g.tensors[sa.tensor].bytes();
      const std::vector<ByteRange> latest = uncovered.take(sa.offset, sa.offset + written);
      if (latest.empty()) continue;
      for (size_t i = 0; i < writes[b].size(); ++i) {
        const Access& w = writes[b][i];
        for (const ByteRange& range : latest) {
          rewritten[i] += std::max<int64_t>(0, std::min(w.end, range.end) - std::max(w.begin, range.begin));
        }
        for (const auto* list : {&reads[a], &writes[a]}) {
          for (const Access& r : *list) {
            if (!overlap(r, w)) continue;
            int64_t overwritten = 0;  // of the bytes r read, in the latest occupant's part
            bool ordered = false;
            for (const ByteRange& range : latest) {
              if (!(r.begin < range.end && range.begin < r.end && w.begin < range.end && range.begin < w.end)) continue;
              ordered = true;
              overwritten +=
                  std::max<int64_t>(0, std::min({r.end, w.end, range.end}) - std::max({r.begin, w.begin, range.begin}));
            }
            if (!ordered) continue;
            parents[w.task].push_back(r.task);
            if (list == &reads[a] && overwritten > 0) edges.overwrites[w.task].push_back({r.task, overwritten});
          }
        }
      }
    }
    // The earlier occupants' parts are disjoint: their sum is what of each write they cover.
    for (size_t i = 0; i < writes[b].size(); ++i) {
      const Access& w = writes[b][i];
      const auto span = static_cast<double>(w.end - w.begin);
      if (span > 0) edges.stale_share[w.task] = static_cast<float>(1 - static_cast<double>(rewritten[i]) / span);
    }
  }
  // One entry per reader, its bytes summed (a task may read a storage through several inputs).
  for (std::vector<Overwrite>& list : edges.overwrites) {
    std::sort(list.begin(), list.end(), [](const Overwrite& x, const Overwrite& y) { return x.reader < y.reader; });
    size_t kept = 0;
    for (const Overwrite& o : list) {
      if (kept > 0 && list[kept - 1].reader == o.reader) {
        list[kept - 1].bytes += o.bytes;
      } else {
        list[kept++] = o;
      }
    }
    list.resize(kept);
  }
  edges.children.resize(task_count);
  uint64_t total = 0;
  for (size_t t = 0; t < task_count; ++t) {
    dedupe(parents[t]);
    total += parents[t].size();
    for (uint32_t parent : parents[t]) {
      if (parent >= t) return Status::error("internal error: tile edge against topological order");
      edges.children[parent].push_back(static_cast<uint32_t>(t));
    }
  }
  edges.reuse_edges = total - edges.data_edges;
  return edges;
}

}  // namespace tessera::tiles
