// The integer-program placement solved by CBC, for a stream's period and for one input's latency:
// never worse than the dynamic program's contiguous placement, equal to brute force over every
// assignment of small random graphs, accepted by the
// checker as a non-contiguous placement, better than every contiguous one where only a
// non-contiguous split balances the load, and a placement where no contiguous split fits.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "core/plan/placement_check.h"
#include "native/milp/cbc_solver.h"

namespace tessera::plan {
namespace {

LayerGraph random_graph(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<double> time(0.5, 10);
  std::uniform_int_distribution<int64_t> bytes(1, 100);
  LayerGraph g;
  for (size_t i = 0; i < n; ++i) {
    Layer l;
    l.name = "l";
    l.name += std::to_string(i);
    const double one = time(rng);
    l.seconds = {one, one * 0.6};
    l.weight_bytes = bytes(rng);
    l.alive_bytes = bytes(rng);
    g.layers.push_back(std::move(l));
  }
  for (uint32_t p = 0; p + 1 < n; ++p) {
    std::vector<uint32_t> readers{p + 1};
    const uint32_t extra = std::uniform_int_distribution<uint32_t>(p + 1, static_cast<uint32_t>(n - 1))(rng);
    if (extra != p + 1) readers.push_back(extra);
    g.tensors.push_back({"t", p, readers, bytes(rng), false});
  }
  g.tensors.push_back({"input", kNoLayer, {0}, bytes(rng), false});
  g.tensors.push_back({"output", static_cast<uint32_t>(n - 1), {}, bytes(rng), true});
  return g;
}

// The best period (or latency: the loads' sum) over every layer -> worker map that fits,
// priced from scratch.
double brute_force(const LayerGraph& g, const PlacementOptions& options) {
  const size_t n = g.layers.size(), k = options.workers.size();
  std::vector<size_t> worker(n, 0);
  double best = std::numeric_limits<double>::infinity();
  const auto copy = [&](int64_t b) { return static_cast<double>(b) / options.transfer.bytes_per_second; };
  while (true) {
    std::vector<double> load(k, 0);
    std::vector<int64_t> weights(k, 0), alive(k, 0);
    std::vector<bool> used(k, false);
    for (size_t v = 0; v < n; ++v) {
      used[worker[v]] = true;
      load[worker[v]] += layer_seconds(g.layers[v], options.workers[worker[v]].threads);
      weights[worker[v]] += g.layers[v].weight_bytes;
      alive[worker[v]] = std::max(alive[worker[v]], g.layers[v].alive_bytes);
    }
    for (const LayerTensor& t : g.tensors) {
      std::vector<bool> receives(k, false);
      bool sent = t.graph_output;
      for (uint32_t c : t.consumers)
        if (t.producer == kNoLayer || worker[c] != worker[t.producer]) receives[worker[c]] = true, sent = true;
      for (size_t d = 0; d < k; ++d)
        if (receives[d]) load[d] += options.transfer.message_seconds + copy(t.bytes);
      if (t.producer != kNoLayer && sent) load[worker[t.producer]] += copy(t.bytes);
    }
    double period = 0, latency = 0;
    bool fits = true;
    for (size_t d = 0; d < k; ++d) {
      if (!used[d]) continue;
      load[d] += options.stage_seconds;
      period = std::max(period, load[d]);
      latency += load[d];
      if (options.workers[d].memory_bytes &&
          options.weight_copies * weights[d] + alive[d] > options.workers[d].memory_bytes)
        fits = false;
    }
    if (fits) best = std::min(best, options.objective == Objective::kThroughput ? period : latency);
    size_t v = 0;
    while (v < n && ++worker[v] == k) worker[v++] = 0;
    if (v == n) return best;
  }
}

}  // namespace

TEST_CASE("the integer program is never worse than the dynamic program and equals brute force") {
  for (uint32_t seed = 1; seed <= 25; ++seed) {
    std::mt19937 rng(seed);
    const size_t n = std::uniform_int_distribution<size_t>(2, 7)(rng);
    const LayerGraph g = random_graph(rng, n);
    PlacementOptions options;
    const size_t k = std::uniform_int_distribution<size_t>(2, 3)(rng);
    for (size_t w = 0; w < k; ++w)
      options.workers.push_back({std::uniform_int_distribution<int>(1, 2)(rng), seed % 3 ? 0 : int64_t{450}});
    options.transfer = {std::uniform_real_distribution<double>(0, 1)(rng), 50};
    options.stage_seconds = 0.5;
    options.objective = seed % 2 ? Objective::kThroughput : Objective::kLatency;
    options.weight_copies = seed % 5 == 0 ? 2 : 1;
    INFO("seed " << seed << ", " << n << " layers, " << k << " workers, " << objective_name(options.objective));
    const Result<Placement> dp = place_layers(g, options);
    const Result<IpPlacement> ip = place_layers_ip(g, options, milp::solve_with_cbc, 20);
    const double best = brute_force(g, options);
    if (std::isinf(best)) {  // nothing fits at all: the dynamic program's error stands
      REQUIRE_FALSE(dp.ok());
      REQUIRE_FALSE(ip.ok());
      CHECK(ip.status().message() == dp.status().message());
      continue;
    }
    REQUIRE(ip.ok());
    CHECK(ip->optimal);
    REQUIRE(check_placement(g, options, ip->placement, /*contiguous=*/false).ok());
    const auto objective = [&](const Placement& p) {
      return options.objective == Objective::kThroughput ? p.period : p.latency;
    };
    if (dp.ok()) CHECK(objective(ip->placement) <= objective(*dp) * (1 + 1e-9));
    CHECK(objective(ip->placement) == Approx(best).epsilon(1e-6));
  }
}

TEST_CASE("a non-contiguous split balances what no contiguous one can") {
  // A chain of 1, 2 and 1 s over two workers, transfers free: a contiguous split leaves 3 s on
  // one worker ({a} | {b, c} or {a, b} | {c}); {a, c} | {b} takes 2 s each, a stream's period.
  LayerGraph g;
  for (double s : {1.0, 2.0, 1.0}) {
    Layer l;
    l.name = "l";
    l.name += std::to_string(g.layers.size());
    l.seconds = {s};
    g.layers.push_back(std::move(l));
  }
  for (uint32_t p = 0; p + 1 < 3; ++p) g.tensors.push_back({"t", p, {p + 1}, 1, false});
  PlacementOptions options;
  options.workers = {{1, 0}, {1, 0}};
  options.objective = Objective::kThroughput;
  const Result<Placement> dp = place_layers(g, options);
  REQUIRE(dp.ok());
  CHECK(dp->period == Approx(3));
  const Result<IpPlacement> ip = place_layers_ip(g, options, milp::solve_with_cbc, 20);
  REQUIRE(ip.ok());
  CHECK(ip->improved);
  CHECK(ip->placement.period == Approx(2));
  CHECK(check_placement(g, options, ip->placement, /*contiguous=*/false).ok());
  CHECK_FALSE(check_placement(g, options, ip->placement).ok());  // as a contiguous one, refused
}

TEST_CASE("the integer program fits what no contiguous split fits, starting cold") {
  // A chain with weights 40, 50, 50, 30 and 25 over two workers of 101: every prefix and suffix
  // pair overflows one of them, while {b, c} | {a, d, e} takes 100 and 95.
  LayerGraph g;
  for (int64_t w : {40, 50, 50, 30, 25}) {
    Layer l;
    l.name = "l" + std::to_string(g.layers.size());
    l.seconds = {1.0};
    l.weight_bytes = w;
    g.layers.push_back(std::move(l));
  }
  for (uint32_t p = 0; p + 1 < 5; ++p) g.tensors.push_back({"t", p, {p + 1}, 1, false});
  PlacementOptions options;
  options.workers = {{1, 101}, {1, 101}};
  options.transfer = {0.1, 1e9};
  const Result<Placement> dp = place_layers(g, options);
  REQUIRE_FALSE(dp.ok());
  CHECK_THAT(dp.status().message(), Catch::Contains("no contiguous split over 2 workers"));
  const Result<IpPlacement> ip = place_layers_ip(g, options, milp::solve_with_cbc, 20);
  INFO(ip.status().message());
  REQUIRE(ip.ok());
  CHECK(ip->improved);
  CHECK(ip->placement.coarsening.ideals.empty());  // no dynamic program behind it
  REQUIRE(check_placement(g, options, ip->placement, /*contiguous=*/false).ok());
  CHECK_FALSE(is_contiguous(g, ip->placement));
  for (const Stage& stage : ip->placement.stages) CHECK(stage.memory_bytes <= 101);
  CHECK(ip->placement.latency == Approx(brute_force(g, options)));

  options.workers = {{1, 80}, {1, 80}};  // now nothing fits at all: the dynamic program's error
  const Result<IpPlacement> none = place_layers_ip(g, options, milp::solve_with_cbc, 20);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() == place_layers(g, options).status().message());
}

}  // namespace tessera::plan
