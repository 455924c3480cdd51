// The core of a configuration graph: what node and edge elimination leave, and the solvers for
// it (enumeration, min-fill variable elimination, local search). Internal to config_search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::plan::detail {

// An edge between core nodes a and b, table [config of a][config of b].
struct CoreEdge {
  uint32_t a = 0, b = 0;
  const std::vector<double>* costs = nullptr;
};

// A link of a core node to a neighbour: the edge cost is table[own * stride_self + other's * stride_other].
struct Link {
  uint32_t other = 0;
  const double* table = nullptr;
  uint32_t stride_self = 0, stride_other = 0;
};

// What no rule reduces: nodes (by core index) with their folded costs, and their edges.
struct Core {
  std::vector<uint32_t> nodes;                    // graph node of each core node
  std::vector<const std::vector<double>*> costs;  // [core node][configuration]
  std::vector<CoreEdge> edges;
  std::vector<std::vector<Link>> links;  // [core node], from the edges
  uint32_t configs(uint32_t i) const { return static_cast<uint32_t>(costs[i]->size()); }
  size_t size() const { return nodes.size(); }
  double price(uint32_t i, uint32_t c, const std::vector<uint32_t>& choice) const {
    double p = (*costs[i])[c];
    for (const Link& l : links[i]) p += l.table[c * l.stride_self + choice[l.other] * l.stride_other];
    return p;
  }
};

// The cheapest core choice by depth-first enumeration over the nodes in order (exact).
std::vector<uint32_t> enumerate_core(const Core& core);

// A min-fill elimination order whose tables (the product of the eliminated node's neighbours'
// configuration counts) all stay within table_limit; nothing if none is found greedily.
std::optional<std::vector<uint32_t>> min_fill_order(const Core& core, double table_limit);

// Min-sum variable elimination in the given order (exact).
std::vector<uint32_t> variable_elimination(const Core& core, const std::vector<uint32_t>& order);

// One node at a time to its best configuration given the others, until a sweep changes nothing
// or the rounds run out.
std::vector<uint32_t> local_search(const Core& core, std::vector<uint32_t> choice, int rounds);

}  // namespace tessera::plan::detail
