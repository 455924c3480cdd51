// The solvers for what no elimination rule reduces.
#include "core/plan/config_core.h"

#include <algorithm>
#include <limits>

namespace tessera::plan::detail {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A cost over some core nodes, row-major over vars (the last varies fastest).
struct Factor {
  std::vector<uint32_t> vars;
  std::vector<double> table;
};

}  // namespace

std::vector<uint32_t> enumerate_core(const Core& core) {
  const size_t k = core.size();
  std::vector<uint32_t> best(k, 0), digit(k, 0);
  if (k == 0) return best;
  std::vector<double> partial(k + 1, 0);
  double best_cost = kInf;
  size_t depth = 0;
  while (true) {
    double c = partial[depth] + (*core.costs[depth])[digit[depth]];
    for (const Link& l : core.links[depth]) {
      if (l.other < depth) c += l.table[digit[depth] * l.stride_self + digit[l.other] * l.stride_other];
    }
    partial[depth + 1] = c;
    if (depth + 1 < k) {
      digit[++depth] = 0;
      continue;
    }
    if (c < best_cost) best_cost = c, best = digit;
    while (++digit[depth] == core.configs(static_cast<uint32_t>(depth))) {
      if (depth == 0) return best;
      --depth;
    }
  }
}

std::optional<std::vector<uint32_t>> min_fill_order(const Core& core, double table_limit) {
  const uint32_t k = static_cast<uint32_t>(core.size());
  std::vector<std::vector<uint32_t>> nb(k);
  for (uint32_t i = 0; i < k; ++i) {
    for (const Link& l : core.links[i]) nb[i].push_back(l.other);
    std::sort(nb[i].begin(), nb[i].end());
  }
  std::vector<bool> gone(k, false);
  std::vector<uint32_t> order;
  for (uint32_t step = 0; step < k; ++step) {
    uint32_t best = kNone;
    size_t best_fill = 0;
    double best_size = 0;
    for (uint32_t v = 0; v < k; ++v) {
      if (gone[v]) continue;
      double size = 1;
      for (uint32_t a : nb[v]) size *= core.configs(a);
      if (size > table_limit) continue;
      size_t fill = 0;
      for (size_t i = 0; i < nb[v].size(); ++i) {
        for (size_t j = i + 1; j < nb[v].size(); ++j) {
          fill += !std::binary_search(nb[nb[v][i]].begin(), nb[nb[v][i]].end(), nb[v][j]);
        }
      }
      if (best == kNone || fill < best_fill || (fill == best_fill && size < best_size)) {
        best = v, best_fill = fill, best_size = size;
      }
    }
    if (best == kNone) return std::nullopt;
    gone[best] = true;
    order.push_back(best);
    for (uint32_t a : nb[best]) {
      std::vector<uint32_t>& list = nb[a];
      list.erase(std::lower_bound(list.begin(), list.end(), best));
      for (uint32_t b : nb[best]) {
        auto at = std::lower_bound(list.begin(), list.end(), b);
        if (b != a && (at == list.end() || *at != b)) list.insert(at, b);
      }
    }
  }
  return order;
}

std::vector<uint32_t> variable_elimination(const Core& core, const std::vector<uint32_t>& order) {
  std::vector<Factor> factors;
  std::vector<std::vector<uint32_t>> factors_of(core.size());
  auto add = [&](Factor f) {
    for (uint32_t v : f.vars) factors_of[v].push_back(static_cast<uint32_t>(factors.size()));
    factors.push_back(std::move(f));
  };
  for (uint32_t i = 0; i < core.size(); ++i) add({{i}, *core.costs[i]});
  for (const CoreEdge& e : core.edges) add({{e.a, e.b}, *e.costs});
  struct Step {
    uint32_t var;
    std::vector<uint32_t> scope;
    std::vector<uint32_t> argmin;  // row-major over scope
  };
  std::vector<Step> steps;
  std::vector<bool> used(factors.size() + order.size(), false);
  for (uint32_t x : order) {
    std::vector<uint32_t> ids, joint;  // the factors on x; the nodes they join, x last
    for (uint32_t id : factors_of[x]) {
      if (used[id]) continue;
      used[id] = true;
      ids.push_back(id);
      for (uint32_t v : factors[id].vars) {
        if (v != x) joint.push_back(v);
      }
    }
    std::sort(joint.begin(), joint.end());
    joint.erase(std::unique(joint.begin(), joint.end()), joint.end());
    joint.push_back(x);
    // The stride of every joint node in every factor's table, and where each factor is.
    const size_t nf = ids.size(), nj = joint.size();
    const uint32_t nx = core.configs(x);
    std::vector<size_t> stride(nf * nj, 0), at(nf, 0);
    for (size_t f = 0; f < nf; ++f) {
      const std::vector<uint32_t>& vars = factors[ids[f]].vars;
      for (size_t p = vars.size(), s = 1; p-- > 0; s *= core.configs(vars[p])) {
        const auto q =
            vars[p] == x ? nj - 1 : std::lower_bound(joint.begin(), joint.end() - 1, vars[p]) - joint.begin();
        stride[f * nj + q] = s;
      }
    }
    Factor out{{joint.begin(), joint.end() - 1}, {}};
    size_t size = 1;
    for (uint32_t v : out.vars) size *= core.configs(v);
    out.table.assign(size, kInf);
    Step step{x, out.vars, std::vector<uint32_t>(out.table.size(), 0)};
    std::vector<const double*> tables(nf);
    std::vector<size_t> stride_x(nf);
    for (size_t f = 0; f < nf; ++f) tables[f] = factors[ids[f]].table.data(), stride_x[f] = stride[f * nj + nj - 1];
    std::vector<uint32_t> digit(nj, 0);
    for (size_t index = 0; index < out.table.size(); ++index) {
      for (uint32_t cx = 0; cx < nx; ++cx) {
        double c = 0;
        for (size_t f = 0; f < nf; ++f) c += tables[f][at[f] + cx * stride_x[f]];
        if (c < out.table[index]) out.table[index] = c, step.argmin[index] = cx;
      }
      for (size_t p = nj - 1; p-- > 0;) {  // the next assignment of the other nodes, the last fastest
        const size_t n = core.configs(joint[p]);
        const bool carry = ++digit[p] == n;
        for (size_t f = 0; f < nf; ++f) {
          at[f] = carry ? at[f] - (n - 1) * stride[f * nj + p] : at[f] + stride[f * nj + p];
        }
        if (!carry) break;
        digit[p] = 0;
      }
    }
    for (uint32_t id : ids) factors[id].table = {};
    steps.push_back(std::move(step));
    if (!out.vars.empty()) add(std::move(out));
  }
  std::vector<uint32_t> choice(core.size(), 0);
  for (auto s = steps.rbegin(); s != steps.rend(); ++s) {
    size_t index = 0;
    for (uint32_t v : s->scope) index = index * core.configs(v) + choice[v];
    choice[s->var] = s->argmin[index];
  }
  return choice;
}

std::vector<uint32_t> local_search(const Core& core, std::vector<uint32_t> choice, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    bool changed = false;
    for (uint32_t i = 0; i < core.size(); ++i) {
      uint32_t best = choice[i];
      double best_cost = core.price(i, best, choice);
      for (uint32_t c = 0; c < core.configs(i); ++c) {
        const double p = core.price(i, c, choice);
        if (p < best_cost) best = c, best_cost = p;
      }
      changed |= best != choice[i];
      choice[i] = best;
    }
    if (!changed) break;
  }
  return choice;
}

}  // namespace tessera::plan::detail
