// Cutting a stage out of a graph: nodes keep their order (a topological one), tensors are
// renumbered, and what crosses the stage's boundary becomes its inputs and outputs.
#include "core/engine/stage_graph.h"

#include <set>
#include <utility>

#include "core/tiles/tiling_plan.h"

namespace tessera {

graph::Graph stage_graph(const graph::Graph& g, const std::vector<bool>& in_stage) {
  // The stage's nodes; views of what it makes that the caller reads; then (last to first, so
  // chains of views resolve) the non-computing nodes producing what they read.
  std::vector<bool> include = in_stage;
  for (int output : g.outputs) {
    const int producer = g.tensors[output].producer, base = g.tensors[g.storage_of(output)].producer;
    if (producer >= 0 && base >= 0 && in_stage[base]) include[producer] = true;
  }
  for (size_t n = g.nodes.size(); n-- > 0;) {
    if (!include[n]) continue;
    for (int input : g.nodes[n].inputs) {
      if (input < 0) continue;
      const int producer = g.tensors[input].producer;
      if (producer >= 0 && !tiles::owns_tiles(g, static_cast<size_t>(producer))) include[producer] = true;
    }
  }
  // Whether a tensor made here is read outside: by a node of another stage (a view there
  // counts: it reads this stage's bytes), or by the caller.
  std::vector<bool> read_outside(g.tensors.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (!include[n])
      for (int input : g.nodes[n].inputs)
        if (input >= 0) read_outside[g.storage_of(input)] = true;
  for (int output : g.outputs) read_outside[output] = true;

  graph::Graph stage;
  stage.name = g.name;
  stage.hold_weights(g.weights());  // so its kernels give back the pages they pack
  std::vector<int> renamed(g.tensors.size(), -1);
  auto tensor = [&](int old) {
    if (renamed[old] < 0) {
      graph::Tensor t = g.tensors[old];
      const bool made_here = t.producer >= 0 && include[t.producer];
      t.producer = -1;
      t.is_graph_input = !t.is_constant() && !made_here;
      t.is_graph_output = false;
      t.alias_of = -1;  // set below, once its base has a number here
      renamed[old] = stage.add_tensor(std::move(t));
      if (stage.tensors[renamed[old]].is_graph_input) stage.inputs.push_back(renamed[old]);
    }
    return renamed[old];
  };
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!include[n]) continue;
    graph::Node node = g.nodes[n];
    for (int& input : node.inputs)
      if (input >= 0) input = tensor(input);
    node.output = tensor(node.output);
    stage.nodes.push_back(std::move(node));
  }
  for (size_t old = 0; old < g.tensors.size(); ++old) {
    if (renamed[old] < 0) continue;
    if (g.tensors[old].alias_of >= 0) stage.tensors[renamed[old]].alias_of = tensor(g.tensors[old].alias_of);
    const int producer = g.tensors[old].producer;
    if (producer >= 0 && include[producer] && read_outside[old]) {
      stage.tensors[renamed[old]].is_graph_output = true;
      stage.outputs.push_back(renamed[old]);
    }
  }
  stage.renumber_producers();
  return stage;
}

std::vector<StageSegment> stage_segments(const graph::Graph& g, const std::vector<int>& stage_of) {
  // Each placed node's placed producers, looking through the nodes that own no tiles.
  const size_t n = g.nodes.size();
  std::vector<std::vector<size_t>> readers(n);
  std::vector<size_t> waiting(n, 0);
  for (size_t v = 0; v < n; ++v) {
    if (stage_of[v] < 0) continue;
    std::set<size_t> producers;
    std::vector<int> tensors(g.nodes[v].inputs.begin(), g.nodes[v].inputs.end());
    while (!tensors.empty()) {
      const int t = tensors.back();
      tensors.pop_back();
      const int p = t >= 0 ? g.tensors[t].producer : -1;
      if (p < 0) continue;
      if (stage_of[p] >= 0) {
        producers.insert(static_cast<size_t>(p));
      } else {
        tensors.insert(tensors.end(), g.nodes[p].inputs.begin(), g.nodes[p].inputs.end());
      }
    }
    waiting[v] = producers.size();
    for (size_t p : producers) readers[p].push_back(v);
  }
  std::set<std::pair<int, size_t>> ready;  // (stage, node)
  for (size_t v = 0; v < n; ++v)
    if (stage_of[v] >= 0 && waiting[v] == 0) ready.insert({stage_of[v], v});
  std::vector<StageSegment> segments;
  while (!ready.empty()) {
    auto next = ready.begin();
    if (!segments.empty()) {
      const int current = static_cast<int>(segments.back().stage);
      if (auto same = ready.lower_bound({current, 0}); same != ready.end() && same->first == current) next = same;
    }
    const auto [stage, v] = *next;
    ready.erase(next);
    if (segments.empty() || segments.back().stage != static_cast<size_t>(stage))
      segments.push_back({static_cast<size_t>(stage), std::vector<bool>(n, false)});
    segments.back().in_segment[v] = true;
    for (size_t r : readers[v])
      if (--waiting[r] == 0) ready.insert({stage_of[r], r});
  }
  return segments;
}

}  // namespace tessera
