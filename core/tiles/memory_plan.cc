// Arena planning by greedy placement over tensor lifetimes.
#include "core/tiles/memory_plan.h"

#include <algorithm>
#include <climits>

#include "core/base/aligned_buffer.h"
#include "core/base/checked_math.h"

namespace tessera::tiles {

bool bytes_overlap(const Storage& a, const Storage& b) {
  return a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

namespace {

bool lifetimes_overlap(const Storage& a, const Storage& b) {
  return a.first_use <= b.last_use && b.first_use <= a.last_use;
}

}  // namespace

MemoryPlan plan_memory(const graph::Graph& g, bool reuse) {
  MemoryPlan plan;
  plan.storage_index.assign(g.tensors.size(), -1);
  auto storage_for = [&](int tensor) {
    const int root = g.storage_of(tensor);
    if (plan.storage_index[root] < 0) {
      Storage s;
      s.tensor = root;
      s.bytes = round_up(g.tensors[root].bytes(), AlignedBuffer::kAlignment);
      s.first_use = g.tensors[root].is_graph_input ? -1 : INT_MAX;
      s.last_use = -1;
      plan.storage_index[root] = static_cast<int>(plan.storages.size());
      plan.storages.push_back(s);
    }
    plan.storage_index[tensor] = plan.storage_index[root];
    return &plan.storages[plan.storage_index[root]];
  };
  for (int input : g.inputs) storage_for(input);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    const int position = static_cast<int>(n);
    for (int input : node.inputs) {
      if (input < 0 || g.tensors[input].is_constant()) continue;
      Storage* s = storage_for(input);
      s->last_use = std::max(s->last_use, position);
    }
    Storage* s = storage_for(node.output);
    s->first_use = std::min(s->first_use, position);
    s->last_use = std::max(s->last_use, position);
  }
  for (int output : g.outputs) {
    if (!g.tensors[output].is_constant()) storage_for(output)->last_use = INT_MAX;
  }

  std::vector<int> order(plan.storages.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return plan.storages[a].bytes > plan.storages[b].bytes; });
  std::vector<int> placed;
  for (int index : order) {
    Storage& s = plan.storages[index];
    plan.tensor_bytes += s.bytes;
    if (!reuse) {
      s.offset = plan.arena_bytes;
      plan.arena_bytes += s.bytes;
      continue;
    }
    // Lowest offset that clears every placed storage alive at the same time.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (int other : placed) {
      const Storage& o = plan.storages[other];
      if (lifetimes_overlap(s, o)) busy.emplace_back(o.offset, o.offset + o.bytes);
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + s.bytes <= begin) break;
      offset = std::max(offset, end);
    }
    s.offset = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + s.bytes);
    placed.push_back(index);
  }
  return plan;
}

}  // namespace tessera::tiles
