// The configuration search against brute force and an independent chain DP: random small
// graphs (parallel edges both ways), chains, fork-joins, a dense graph through each of the three
// paths, the reduction counters, and every way check_config_graph rejects a graph.
#include "core/plan/config_search.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

namespace tessera::plan {
namespace {

// Costs are small integers for even seeds (exact sums, many ties) and reals for odd ones.
struct Costs {
  explicit Costs(uint32_t seed) : rng(seed), integer(seed % 2 == 0) {}
  double next() {
    return integer ? static_cast<double>(std::uniform_int_distribution<int>(-3, 12)(rng))
                   : std::uniform_real_distribution<double>(0, 10)(rng);
  }
  std::vector<double> table(size_t n) {
    std::vector<double> t(n);
    for (double& x : t) x = next();
    return t;
  }
  std::mt19937 rng;
  bool integer;
};

ConfigGraph nodes_only(const std::vector<uint32_t>& configs, Costs& costs) {
  ConfigGraph g;
  for (uint32_t n : configs) g.node_costs.push_back(costs.table(n));
  return g;
}

void connect(ConfigGraph& g, uint32_t from, uint32_t to, Costs& costs) {
  g.edges.push_back({from, to, costs.table(g.node_costs[from].size() * g.node_costs[to].size())});
}

// The cheapest cost over every assignment.
double brute_force(const ConfigGraph& g) {
  std::vector<uint32_t> choice(g.node_costs.size(), 0);
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    best = std::min(best, evaluate(g, choice));
    size_t v = 0;
    while (v < choice.size() && ++choice[v] == g.node_costs[v].size()) choice[v++] = 0;
    if (v == choice.size()) return best;
  }
}

// Searches, checks the result is self-consistent, and returns it.
SearchResult search(const ConfigGraph& g, const SearchOptions& options = {}) {
  Result<SearchResult> r = search_configurations(g, options);
  REQUIRE(r.ok());
  REQUIRE(r->choice.size() == g.node_costs.size());
  CHECK(r->cost == evaluate(g, r->choice));
  CHECK(r->nodes_eliminated + r->core_nodes == g.node_costs.size());
  CHECK(r->exact == (r->path != SearchPath::kLocalSearch));
  return *r;
}

void check_exact(const ConfigGraph& g, const SearchOptions& options = {}) {
  const SearchResult r = search(g, options);
  CHECK(r.exact);
  CHECK(r.cost == Approx(brute_force(g)).margin(1e-9));
}

// Up to 8 nodes of 1-4 configurations and up to 16 edges; dense: 6-8 nodes of 2-4 configurations
// and 2-3 edges per node, which mostly leave a core.
ConfigGraph random_graph(uint32_t seed, bool dense = false) {
  Costs costs(seed);
  std::mt19937 rng(seed * 7919 + 1);
  const uint32_t n = std::uniform_int_distribution<uint32_t>(dense ? 6 : 1, 8)(rng);
  std::vector<uint32_t> configs(n);
  for (uint32_t& c : configs) c = std::uniform_int_distribution<uint32_t>(dense ? 2 : 1, 4)(rng);
  ConfigGraph g = nodes_only(configs, costs);
  const uint32_t edges =
      n < 2 ? 0 : std::uniform_int_distribution<uint32_t>(dense ? 2 * n : 0, dense ? 3 * n : 16)(rng);
  for (uint32_t e = 0; e < edges; ++e) {
    const uint32_t a = std::uniform_int_distribution<uint32_t>(0, n - 1)(rng);
    const uint32_t b = (a + std::uniform_int_distribution<uint32_t>(1, n - 1)(rng)) % n;
    connect(g, a, b, costs);
  }
  return g;
}

// A chain of n nodes with edges in random directions.
ConfigGraph chain(uint32_t n, uint32_t configs, uint32_t seed) {
  Costs costs(seed);
  ConfigGraph g = nodes_only(std::vector<uint32_t>(n, configs), costs);
  for (uint32_t v = 0; v + 1 < n; ++v) {
    if (costs.rng() % 2)
      connect(g, v, v + 1, costs);
    else
      connect(g, v + 1, v, costs);
  }
  return g;
}

// The cheapest cost of a chain built by chain(), by dynamic programming along it.
double chain_dp(const ConfigGraph& g) {
  std::vector<double> best = g.node_costs[0];
  for (size_t v = 1; v < g.node_costs.size(); ++v) {
    const ConfigGraph::Edge& e = g.edges[v - 1];
    const size_t n = g.node_costs[v].size(), m = best.size();
    std::vector<double> next(n, std::numeric_limits<double>::infinity());
    for (size_t c = 0; c < n; ++c) {
      for (size_t p = 0; p < m; ++p) {
        const double edge = e.from == v - 1 ? e.costs[p * n + c] : e.costs[c * m + p];
        next[c] = std::min(next[c], best[p] + edge + g.node_costs[v][c]);
      }
    }
    best = next;
  }
  return *std::min_element(best.begin(), best.end());
}

// Series-parallel blocks one after another: residual blocks (two convolutions and a skip
// edge), diamonds, and attention-like three-way forks that rejoin in two steps.
ConfigGraph series_parallel(uint32_t nodes, uint32_t configs, uint32_t seed) {
  Costs costs(seed);
  ConfigGraph g = nodes_only(std::vector<uint32_t>(nodes, configs), costs);
  uint32_t x = 0, block = 0;
  while (true) {
    const uint32_t kind = block++ % 3, size = kind == 2 ? 5 : 3;
    if (x + size >= nodes) break;
    const uint32_t a = x + 1, b = x + 2, c = x + 3, d = x + 4, end = x + size;
    if (kind == 0) {  // x -> a -> b -> end(=x+3), x -> end
      for (auto [f, t] : {std::pair{x, a}, {a, b}, {b, end}, {x, end}}) connect(g, f, t, costs);
    } else if (kind == 1) {  // x -> a, x -> b, a -> end, b -> end
      for (auto [f, t] : {std::pair{x, a}, {x, b}, {a, end}, {b, end}}) connect(g, f, t, costs);
    } else {  // q, k, v = a, b, c; scores d = f(q, k); out = end(=x+5) from d and v
      for (auto [f, t] : {std::pair{x, a}, {x, b}, {x, c}, {a, d}, {b, d}, {d, end}, {c, end}}) connect(g, f, t, costs);
    }
    x = end;
  }
  for (uint32_t v = x; v + 1 < nodes; ++v) connect(g, v, v + 1, costs);
  return g;
}

ConfigGraph complete_graph(uint32_t n, uint32_t configs, uint32_t seed) {
  Costs costs(seed);
  ConfigGraph g = nodes_only(std::vector<uint32_t>(n, configs), costs);
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = a + 1; b < n; ++b) connect(g, (a + b) % 2 ? a : b, (a + b) % 2 ? b : a, costs);
  }
  return g;
}

TEST_CASE("search equals brute force on random small graphs with parallel edges both ways, by every exact path") {
  size_t with_core = 0;
  for (uint32_t seed = 1; seed <= 260; ++seed) {
    const bool dense = seed > 200;
    INFO("seed " << seed << (dense ? " dense" : ""));
    const ConfigGraph g = random_graph(seed, dense);
    with_core += search(g).core_nodes > 0;
    check_exact(g);
    SearchOptions ve;
    ve.exhaustive_limit = 0;  // even a reduced core goes through variable elimination
    CHECK(search(g, ve).path == SearchPath::kVariableElimination);
    check_exact(g, ve);
  }
  CHECK(with_core >= 40);  // the core solvers are exercised, not only the reduction
}

TEST_CASE("local search on random small graphs is never worse than its start") {
  for (uint32_t seed = 1; seed <= 100; ++seed) {
    INFO("seed " << seed);
    const ConfigGraph g = random_graph(seed, seed % 2 == 0);
    SearchOptions options;
    options.exhaustive_limit = 0;
    options.table_limit = 0;
    std::mt19937 rng(seed);
    for (const auto& costs : g.node_costs) options.start.push_back(rng() % costs.size());
    const SearchResult r = search(g, options);
    if (r.core_nodes > 0) CHECK(r.path == SearchPath::kLocalSearch);
    CHECK(r.cost <= evaluate(g, options.start));
  }
}

TEST_CASE("search equals brute force and a chain DP on chains, which reduce fully") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    const ConfigGraph g = chain(1 + seed % 8, 1 + seed % 4, seed);
    check_exact(g);
    const ConfigGraph long_chain = chain(300, 8, seed);
    const SearchResult r = search(long_chain);
    CHECK(r.core_nodes <= 2);
    CHECK(r.cost == Approx(chain_dp(long_chain)).margin(1e-9));
  }
}

TEST_CASE("search equals brute force on fork-joins: diamonds, residual skips and three-way forks") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    for (uint32_t nodes : {4u, 6u, 8u}) {
      INFO(nodes << " nodes");
      const ConfigGraph g = series_parallel(nodes, 2 + seed % 3, seed);
      check_exact(g);
      CHECK(search(g).core_nodes <= 2);
    }
  }
}

TEST_CASE("a 300-node series-parallel graph with 8 configurations reduces to a core of at most 2 nodes") {
  const ConfigGraph g = series_parallel(300, 8, 5);
  const SearchResult r = search(g);
  CHECK(r.path == SearchPath::kElimination);
  CHECK(r.core_nodes <= 2);
  CHECK(r.nodes_eliminated >= 298);
  check_exact(series_parallel(8, 4, 5));  // the same shape, small enough for brute force
}

TEST_CASE("a graph without edges takes every node's cheapest configuration") {
  const SearchResult r = search(ConfigGraph{{{3, 1, 2}, {5}, {0, -1}}, {}});
  CHECK(r.choice == std::vector<uint32_t>{1, 0, 1});
  CHECK(r.cost == 5);
  CHECK(r.core_nodes == 0);
  CHECK(search(ConfigGraph{}).choice.empty());
}

TEST_CASE("a complete graph does not reduce and takes variable elimination, then local search, as limits fall") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    const ConfigGraph g = complete_graph(8, 3, seed);
    const double best = brute_force(g);
    const SearchResult enumerated = search(g);
    CHECK(enumerated.path == SearchPath::kElimination);
    CHECK(enumerated.core_nodes == 8);
    CHECK(enumerated.cost == Approx(best).margin(1e-9));

    SearchOptions options;
    options.exhaustive_limit = 100;
    const SearchResult eliminated = search(g, options);
    CHECK(eliminated.path == SearchPath::kVariableElimination);
    CHECK(std::string(search_path_name(eliminated.path)) == "variable elimination");
    CHECK(eliminated.cost == Approx(best).margin(1e-9));

    options.table_limit = 100;  // eliminating any node of K8 builds a table of 3^7 entries
    for (int rounds : {0, 1, 100}) {
      options.local_search_rounds = rounds;
      options.start.assign(8, seed % 3);
      const SearchResult local = search(g, options);
      CHECK(local.path == SearchPath::kLocalSearch);
      CHECK(std::string(search_path_name(local.path)) == "local search");
      CHECK_FALSE(local.exact);
      CHECK(local.cost <= evaluate(g, options.start));
      CHECK(local.cost >= best - 1e-9);
      if (rounds == 0) CHECK(local.choice == options.start);  // K8 keeps every node in the core
      if (rounds == 100) {                                    // a local optimum: no single node's change helps
        for (uint32_t v = 0; v < 8; ++v) {
          std::vector<uint32_t> other = local.choice;
          for (other[v] = 0; other[v] < 3; ++other[v]) CHECK(evaluate(g, other) >= local.cost - 1e-9);
        }
      }
      options.start = enumerated.choice;  // from the optimum it stays there
      CHECK(search(g, options).cost == Approx(best).margin(1e-9));
    }
  }
}

TEST_CASE("a grid takes variable elimination with a min-fill order and equals brute force") {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    INFO("seed " << seed);
    Costs costs(seed);
    ConfigGraph g = nodes_only(std::vector<uint32_t>(12, 3), costs);
    for (uint32_t v = 0; v < 12; ++v) {
      if (v % 4 != 3) connect(g, v, v + 1, costs);
      if (v + 4 < 12) connect(g, v + 4, v, costs);
    }
    SearchOptions options;
    options.exhaustive_limit = 10;
    options.table_limit = 100;  // min-fill needs tables over at most 3 nodes (27 entries)
    const SearchResult r = search(g, options);
    CHECK(r.path == SearchPath::kVariableElimination);
    CHECK(r.core_nodes > 0);
    check_exact(g, options);
  }
}

TEST_CASE("min-fill keeps variable elimination on a 5-wide grid within tables over 5 nodes") {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    INFO("seed " << seed);
    Costs costs(seed);
    ConfigGraph g = nodes_only(std::vector<uint32_t>(40, 2), costs);
    for (uint32_t v = 0; v < 40; ++v) {
      if (v % 5 != 4) connect(g, v, v + 1, costs);
      if (v + 5 < 40) connect(g, v, v + 5, costs);
    }
    SearchOptions options;
    options.exhaustive_limit = 10;
    options.table_limit = 32;  // a poor order (most fill first) needs more
    const SearchResult r = search(g, options);
    CHECK(r.path == SearchPath::kVariableElimination);
    options.table_limit = 1e7;
    CHECK(r.cost == Approx(search(g, options).cost).margin(1e-9));
  }
}

TEST_CASE("the reduction counts eliminated nodes on a chain and merged edges on parallel and fork-join edges") {
  const SearchResult c = search(chain(10, 3, 1));
  CHECK(c.core_nodes <= 2);
  CHECK(c.nodes_eliminated == 10 - c.core_nodes);
  CHECK(c.edges_eliminated == 0);

  Costs costs(2);
  ConfigGraph parallel = nodes_only({2, 3}, costs);
  connect(parallel, 0, 1, costs);
  connect(parallel, 1, 0, costs);
  connect(parallel, 0, 1, costs);
  const SearchResult p = search(parallel);
  CHECK(p.edges_eliminated == 2);
  CHECK(p.nodes_eliminated == 2);
  CHECK(p.core_nodes == 0);
  check_exact(parallel);

  const SearchResult d = search(series_parallel(4, 3, 3));  // one diamond: its two paths merge once
  CHECK(d.edges_eliminated == 1);
  CHECK(d.core_nodes == 0);
}

TEST_CASE("a node with a single configuration folds into its neighbours, even with a high degree") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    Costs costs(seed);
    ConfigGraph g = nodes_only({1, 3, 2, 3, 2, 3, 4}, costs);  // a mask feeding a chain of 6 nodes
    for (uint32_t v = 1; v < 7; ++v) connect(g, 0, v, costs);
    for (uint32_t v = 1; v + 1 < 7; ++v) connect(g, v, v + 1, costs);
    CHECK(search(g).core_nodes == 0);
    check_exact(g);
  }
}

TEST_CASE("check_config_graph names the node or edge it rejects, and search returns its error") {
  auto valid = [] {
    ConfigGraph g{{{1, 2}, {3, 4, 5}, {6}}, {}};
    g.edges.push_back({0, 1, std::vector<double>(6, 1)});
    g.edges.push_back({2, 1, std::vector<double>(3, 1)});
    return g;
  };
  REQUIRE(check_config_graph(valid()).ok());
  auto rejects = [](const ConfigGraph& g, const std::string& where) {
    const Status s = check_config_graph(g);
    REQUIRE_FALSE(s.ok());
    INFO(s.message());
    CHECK(s.message().find(where) != std::string::npos);
    CHECK(search_configurations(g).status().message() == s.message());
  };
  ConfigGraph g = valid();
  g.edges[1].costs.pop_back();
  rejects(g, "edges[1] (2 -> 1): has 2 costs, expected 1 x 3 = 3");
  g = valid();
  g.edges[0].to = 3;
  rejects(g, "edges[0] (0 -> 3): node out of range");
  g = valid();
  g.edges[0].to = 0;
  rejects(g, "edges[0] (0 -> 0): joins a node to itself");
  g = valid();
  g.node_costs[2].clear();
  rejects(g, "nodes[2]: has no configurations");
  g = valid();
  g.node_costs[1][2] = std::nan("");
  rejects(g, "nodes[1]: cost of configuration 2 is not finite");
  g = valid();
  g.edges[1].costs[0] = std::numeric_limits<double>::infinity();
  rejects(g, "edges[1] (2 -> 1): cost [0] is not finite");

  SearchOptions options;
  options.start = {0, 0};
  CHECK(search_configurations(valid(), options).status().message().find("start has 2") != std::string::npos);
  options.start = {0, 3, 0};
  CHECK(search_configurations(valid(), options).status().message().find("start[1] = 3") != std::string::npos);
}

}  // namespace
}  // namespace tessera::plan
