// The configuration search: node and edge elimination down to a core, the core solved by
// enumeration, min-fill variable elimination or local search, then the eliminations undone.
#include "core/plan/config_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "core/base/check.h"
#include "core/plan/config_core.h"

namespace tessera::plan {

namespace {

using detail::Core;
using detail::CoreEdge;
using detail::Link;

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();

uint32_t configs(const ConfigGraph& graph, uint32_t node) {
  return static_cast<uint32_t>(graph.node_costs[node].size());
}

// [column][row] from [row][column].
std::vector<double> transpose(const std::vector<double>& table, uint32_t rows, uint32_t columns) {
  std::vector<double> out(table.size());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < columns; ++c) out[c * rows + r] = table[r * columns + c];
  }
  return out;
}

// An edge of the reduced graph; its table is [config of a][config of b].
struct WorkEdge {
  uint32_t a = 0, b = 0;
  std::vector<double> costs;
};

// A removed node and how to choose its configuration once the neighbours it had when it went
// have theirs: argmin[choice of u * configs(w) + choice of w] (a missing neighbour counts 0).
struct Removed {
  uint32_t node = 0, u = kNone, w = kNone;
  std::vector<uint32_t> argmin;
};

// Applies the elimination rules until none does. Parallel edges merge as they appear (edge
// elimination); a node goes when it has degree 0, 1 or 2, or a single configuration (a constant
// or a mask: its edges fold into its neighbours' costs).
class Reducer {
 public:
  explicit Reducer(const ConfigGraph& graph)
      : costs_(graph.node_costs), adjacent_(graph.node_costs.size()), alive_(graph.node_costs.size(), true) {
    for (const ConfigGraph::Edge& e : graph.edges) add_edge(e.from, e.to, e.costs);
    for (uint32_t v = static_cast<uint32_t>(costs_.size()); v-- > 0;) pending_.push_back(v);
    while (!pending_.empty()) {
      const uint32_t v = pending_.back();
      pending_.pop_back();
      if (alive_[v] && (adjacent_[v].size() <= 2 || costs_[v].size() == 1)) eliminate(v);
    }
  }

  size_t nodes_eliminated() const { return removed_.size(); }
  size_t edges_eliminated() const { return edges_merged_; }

  Core core() const {
    Core core;
    std::vector<uint32_t> index(costs_.size(), kNone);
    for (uint32_t v = 0; v < costs_.size(); ++v) {
      if (!alive_[v]) continue;
      index[v] = static_cast<uint32_t>(core.nodes.size());
      core.nodes.push_back(v);
      core.costs.push_back(&costs_[v]);
    }
    for (const WorkEdge& e : edges_) {
      if (!e.costs.empty()) core.edges.push_back({index[e.a], index[e.b], &e.costs});
    }
    core.links.resize(core.size());
    for (const CoreEdge& e : core.edges) {
      core.links[e.a].push_back({e.b, e.costs->data(), core.configs(e.b), 1});
      core.links[e.b].push_back({e.a, e.costs->data(), 1, core.configs(e.b)});
    }
    return core;
  }

  // Every node's configuration from the core's: the removals undone in reverse order.
  std::vector<uint32_t> reconstruct(const Core& core, const std::vector<uint32_t>& core_choice) const {
    std::vector<uint32_t> choice(costs_.size(), kNone);
    for (size_t i = 0; i < core.size(); ++i) choice[core.nodes[i]] = core_choice[i];
    for (auto r = removed_.rbegin(); r != removed_.rend(); ++r) {
      size_t index = 0;
      if (r->u != kNone) index = choice[r->u];
      if (r->w != kNone) index = index * costs_[r->w].size() + choice[r->w];
      TESSERA_CHECK(index < r->argmin.size());
      choice[r->node] = r->argmin[index];
    }
    return choice;
  }

 private:
  uint32_t configs(uint32_t v) const { return static_cast<uint32_t>(costs_[v].size()); }

  // Adds costs [config of u][config of w] between u and w, merging with an edge already there.
  void add_edge(uint32_t u, uint32_t w, const std::vector<double>& costs) {
    auto it = adjacent_[u].find(w);
    if (it == adjacent_[u].end()) {
      adjacent_[u][w] = adjacent_[w][u] = static_cast<uint32_t>(edges_.size());
      edges_.push_back({u, w, costs});
      return;
    }
    WorkEdge& e = edges_[it->second];
    const std::vector<double> t = e.a == u ? costs : transpose(costs, configs(u), configs(w));
    for (size_t i = 0; i < t.size(); ++i) e.costs[i] += t[i];
    ++edges_merged_;
  }

  // Detaches the edge between v and u and returns its table as [config of u][config of v].
  std::vector<double> take_edge(uint32_t v, uint32_t u) {
    WorkEdge& e = edges_[adjacent_[v].at(u)];
    adjacent_[v].erase(u);
    adjacent_[u].erase(v);
    std::vector<double> table = std::move(e.costs);
    e.costs.clear();
    return e.a == u ? table : transpose(table, configs(v), configs(u));
  }

  void eliminate(uint32_t v) {
    const uint32_t nv = configs(v);
    std::vector<uint32_t> neighbours;
    for (const auto& entry : adjacent_[v]) neighbours.push_back(entry.first);
    Removed r{v, kNone, kNone, {0}};
    if (nv == 1) {  // every edge becomes a cost of the neighbour
      for (uint32_t u : neighbours) {
        const std::vector<double> t = take_edge(v, u);
        for (uint32_t cu = 0; cu < configs(u); ++cu) costs_[u][cu] += t[cu];
      }
    } else {  // degree <= 2: v's best for each configuration of its neighbours u and w
      if (!neighbours.empty()) r.u = neighbours[0];
      if (neighbours.size() == 2) r.w = neighbours[1];
      const uint32_t nu = r.u == kNone ? 1 : configs(r.u), nw = r.w == kNone ? 1 : configs(r.w);
      const std::vector<double> in = r.u == kNone ? std::vector<double>(nv) : take_edge(v, r.u);   // [cu][cv]
      const std::vector<double> out = r.w == kNone ? std::vector<double>(nv) : take_edge(v, r.w);  // [cw][cv]
      std::vector<double> table(size_t{nu} * nw, kInf);
      r.argmin.assign(table.size(), 0);
      for (uint32_t cu = 0; cu < nu; ++cu) {
        for (uint32_t cw = 0; cw < nw; ++cw) {
          for (uint32_t cv = 0; cv < nv; ++cv) {
            const double c = in[cu * nv + cv] + costs_[v][cv] + out[cw * nv + cv];
            if (c < table[cu * nw + cw]) table[cu * nw + cw] = c, r.argmin[cu * nw + cw] = cv;
          }
        }
      }
      if (r.w != kNone) {
        add_edge(r.u, r.w, table);
      } else if (r.u != kNone) {
        for (uint32_t cu = 0; cu < nu; ++cu) costs_[r.u][cu] += table[cu];
      }
    }
    alive_[v] = false;
    removed_.push_back(std::move(r));
    for (uint32_t u : neighbours) pending_.push_back(u);
  }

  std::vector<std::vector<double>> costs_;              // node costs with eliminated nodes folded in
  std::vector<WorkEdge> edges_;                         // tables of removed edges are empty
  std::vector<std::map<uint32_t, uint32_t>> adjacent_;  // [node]: neighbour -> edge
  std::vector<bool> alive_;
  std::vector<uint32_t> pending_;  // nodes whose degree may have fallen
  std::vector<Removed> removed_;
  size_t edges_merged_ = 0;
};

}  // namespace

Status check_config_graph(const ConfigGraph& graph) {
  auto first_not_finite = [](const std::vector<double>& costs) {
    return std::find_if(costs.begin(), costs.end(), [](double c) { return !std::isfinite(c); }) - costs.begin();
  };
  const size_t n = graph.node_costs.size();
  if (n >= kNone) return Status::error("config graph: too many nodes (" + std::to_string(n) + ")");
  for (size_t v = 0; v < n; ++v) {
    auto name = [v] { return "nodes[" + std::to_string(v) + "]"; };
    if (graph.node_costs[v].empty()) return Status::error(name() + ": has no configurations");
    const size_t c = first_not_finite(graph.node_costs[v]);
    if (c < graph.node_costs[v].size()) {
      return Status::error(name() + ": cost of configuration " + std::to_string(c) + " is not finite");
    }
  }
  for (size_t e = 0; e < graph.edges.size(); ++e) {
    const ConfigGraph::Edge& edge = graph.edges[e];
    auto name = [&] {
      return "edges[" + std::to_string(e) + "] (" + std::to_string(edge.from) + " -> " + std::to_string(edge.to) + ")";
    };
    if (edge.from >= n || edge.to >= n) {
      return Status::error(name() + ": node out of range (the graph has " + std::to_string(n) + " nodes)");
    }
    if (edge.from == edge.to) return Status::error(name() + ": joins a node to itself");
    const size_t rows = configs(graph, edge.from), columns = configs(graph, edge.to);
    if (edge.costs.size() != rows * columns) {
      return Status::error(name() + ": has " + std::to_string(edge.costs.size()) + " costs, expected " +
                           std::to_string(rows) + " x " + std::to_string(columns) + " = " +
                           std::to_string(rows * columns));
    }
    const size_t i = first_not_finite(edge.costs);
    if (i < edge.costs.size()) return Status::error(name() + ": cost [" + std::to_string(i) + "] is not finite");
  }
  return Status();
}

double evaluate(const ConfigGraph& graph, const std::vector<uint32_t>& choice) {
  TESSERA_CHECK(choice.size() == graph.node_costs.size());
  double cost = 0;
  for (size_t v = 0; v < choice.size(); ++v) {
    TESSERA_CHECK(choice[v] < graph.node_costs[v].size());
    cost += graph.node_costs[v][choice[v]];
  }
  for (const ConfigGraph::Edge& e : graph.edges) cost += e.costs[choice[e.from] * configs(graph, e.to) + choice[e.to]];
  return cost;
}

Result<SearchResult> search_configurations(const ConfigGraph& graph, const SearchOptions& options) {
  TESSERA_RETURN_IF_ERROR(check_config_graph(graph));
  const size_t n = graph.node_costs.size();
  std::vector<uint32_t> start = options.start.empty() ? std::vector<uint32_t>(n, 0) : options.start;
  if (start.size() != n) {
    return Status::error("search options: start has " + std::to_string(start.size()) + " entries, expected " +
                         std::to_string(n) + " (one per node)");
  }
  for (uint32_t v = 0; v < n; ++v) {
    if (start[v] >= configs(graph, v)) {
      return Status::error("search options: start[" + std::to_string(v) + "] = " + std::to_string(start[v]) +
                           " is out of range (" + std::to_string(configs(graph, v)) + " configurations)");
    }
  }
  const Reducer reducer(graph);
  const Core core = reducer.core();
  SearchResult result;
  result.nodes_eliminated = reducer.nodes_eliminated();
  result.edges_eliminated = reducer.edges_eliminated();
  result.core_nodes = core.size();
  double product = 1;
  for (uint32_t i = 0; i < core.size() && product <= options.exhaustive_limit; ++i) product *= core.configs(i);
  std::vector<uint32_t> core_choice;
  if (product <= options.exhaustive_limit) {
    result.path = SearchPath::kElimination;
    core_choice = detail::enumerate_core(core);
  } else if (auto order = detail::min_fill_order(core, options.table_limit)) {
    result.path = SearchPath::kVariableElimination;
    core_choice = detail::variable_elimination(core, *order);
  } else {
    result.path = SearchPath::kLocalSearch;
    result.exact = false;
    for (uint32_t v : core.nodes) core_choice.push_back(start[v]);
    core_choice = detail::local_search(core, std::move(core_choice), options.local_search_rounds);
  }
  result.choice = reducer.reconstruct(core, core_choice);
  result.cost = evaluate(graph, result.choice);
  if (!result.exact) {  // the eliminated nodes are at their best given the core, but rounding may differ
    const double start_cost = evaluate(graph, start);
    if (start_cost < result.cost) result.choice = std::move(start), result.cost = start_cost;
  }
  return result;
}

const char* search_path_name(SearchPath path) {
  switch (path) {
    case SearchPath::kElimination: return "elimination";
    case SearchPath::kVariableElimination: return "variable elimination";
    case SearchPath::kLocalSearch: return "local search";
  }
  return "unknown";
}

}  // namespace tessera::plan
