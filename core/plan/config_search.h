// The exact search for the cheapest configuration of every node of a graph (after OptCNN, Jia
// et al., ICML 2018): node and edge elimination, then exhaustive enumeration, variable
// elimination or local search on what does not reduce. Plain data in, plain data out, no threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tessera/status.h"

namespace tessera::plan {

// An assignment problem: every node picks one of its configurations; the cost of a choice is
// the sum of the chosen node costs plus, for every edge, the cost of the pair it connects.
// Costs may be negative; they must be finite.
struct ConfigGraph {
  std::vector<std::vector<double>> node_costs;  // [node][configuration], each node >= 1 configuration
  struct Edge {
    uint32_t from = 0, to = 0;  // node indices, from != to; several edges may join the same pair
    std::vector<double> costs;  // [config_of_from * configs(to) + config_of_to]
  };
  std::vector<Edge> edges;
};

struct SearchOptions {
  double exhaustive_limit = 1e6;  // largest product of configuration counts solved by enumeration
  double table_limit = 1e7;       // largest table (entries) variable elimination may build
  std::vector<uint32_t> start;    // local search starts here (e.g. the default plan); empty: all zeros
  int local_search_rounds = 100;  // sweeps over the nodes; <= 0: none
};

// How the core (what node and edge elimination leave) was solved.
enum class SearchPath {
  kElimination,          // the core was enumerated (or empty): exact
  kVariableElimination,  // min-fill variable elimination on the core: exact
  kLocalSearch,          // one node at a time on the core, from options.start: not exact
};

struct SearchResult {
  std::vector<uint32_t> choice;  // configuration per node
  double cost = 0;               // evaluate(graph, choice)
  SearchPath path = SearchPath::kElimination;
  size_t nodes_eliminated = 0;  // nodes removed by the rules (degree <= 2, or a single configuration)
  size_t edges_eliminated = 0;  // edges merged into a parallel edge
  size_t core_nodes = 0;        // nodes left when no rule applies
  bool exact = true;            // false only for local search
};

// OK when every node has a configuration, every edge joins two different nodes in range with a
// table of configs(from) x configs(to) entries, and every cost is finite; else the error names
// the node or edge, e.g. `edges[4] (1 -> 2): has 5 costs, expected 3 x 2 = 6`.
Status check_config_graph(const ConfigGraph& graph);

// The cost of a choice. The graph must be valid and the choice must hold one configuration in
// range per node (checked: aborts otherwise).
double evaluate(const ConfigGraph& graph, const std::vector<uint32_t>& choice);

// The cheapest choice (exact unless the result says otherwise; local search is never worse than
// options.start). Errors: an invalid graph (see check_config_graph) or an options.start that
// is neither empty nor one configuration in range per node.
Result<SearchResult> search_configurations(const ConfigGraph& graph, const SearchOptions& options = {});

// "elimination", "variable elimination", "local search".
const char* search_path_name(SearchPath path);

}  // namespace tessera::plan
