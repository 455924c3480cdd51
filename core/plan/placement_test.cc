// The placement planner against brute force over every contiguous split of random small DAGs,
// chains and parallel chains (both objectives, memory budgets, transfer costs); ideal counts
// of known shapes; coarsening of wide graphs; and every way the checker rejects a placement.
#include "core/plan/placement.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "core/plan/layer_ideals.h"
#include "core/plan/placement_check.h"

namespace tessera::plan {
namespace {

// "l3", built by appending: GCC 12 warns falsely about `"l" + std::to_string(i)` here.
std::string numbered(const char* prefix, size_t i) {
  std::string name(prefix);
  name += std::to_string(i);
  return name;
}

Layer layer(const std::string& name, std::vector<double> seconds, int64_t weights = 0, int64_t alive = 0) {
  Layer l;
  l.name = name;
  l.seconds = std::move(seconds);
  l.weight_bytes = weights;
  l.alive_bytes = alive;
  return l;
}

void connect(LayerGraph& g, uint32_t from, std::vector<uint32_t> to, int64_t bytes) {
  g.tensors.push_back({numbered("t", g.tensors.size()), from, std::move(to), bytes, false});
}

// One graph input into layer 0 and one graph output from the last layer.
void add_io(LayerGraph& g, int64_t bytes) {
  g.tensors.push_back({"input", kNoLayer, {0}, bytes, false});
  g.tensors.push_back({"output", static_cast<uint32_t>(g.layers.size() - 1), {}, bytes, true});
}

LayerGraph chain(size_t n) {
  LayerGraph g;
  for (size_t i = 0; i < n; ++i) g.layers.push_back(layer(numbered("l", i), {1.0}));
  for (uint32_t i = 0; i + 1 < n; ++i) connect(g, i, {i + 1}, 100);
  add_io(g, 100);
  return g;
}

// Two chains of a and b layers fed by the caller, each ending in a graph output.
LayerGraph parallel_chains(uint32_t a, uint32_t b) {
  LayerGraph g;
  for (uint32_t i = 0; i < a + b; ++i) g.layers.push_back(layer(numbered("l", i), {1.0}));
  g.tensors.push_back({"in", kNoLayer, {0, a}, 10, false});
  for (uint32_t i = 0; i + 1 < a; ++i) connect(g, i, {i + 1}, 10);
  for (uint32_t i = a; i + 1 < a + b; ++i) connect(g, i, {i + 1}, 10);
  g.tensors.push_back({"out_a", a - 1, {}, 10, true});
  g.tensors.push_back({"out_b", a + b - 1, {}, 10, true});
  return g;
}

// A random DAG of `n` layers: times on 1..3 threads (faster with more), weights, activations,
// and each layer reading one to three earlier layers (a chain when `chain_only`).
LayerGraph random_graph(std::mt19937& rng, size_t n, bool chain_only) {
  std::uniform_real_distribution<double> time(0.5, 10);
  std::uniform_int_distribution<int64_t> bytes(1, 100);
  LayerGraph g;
  for (size_t i = 0; i < n; ++i) {
    const double one = time(rng);
    g.layers.push_back(layer(numbered("l", i), {one, one * 0.6, one * 0.45}, bytes(rng), bytes(rng)));
  }
  std::vector<std::vector<uint32_t>> readers(n);
  for (uint32_t c = 1; c < n; ++c) {
    if (chain_only) {
      readers[c - 1].push_back(c);
      continue;
    }
    const int reads = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int r = 0; r < reads; ++r) readers[std::uniform_int_distribution<uint32_t>(0, c - 1)(rng)].push_back(c);
  }
  for (uint32_t p = 0; p < n; ++p) {
    std::sort(readers[p].begin(), readers[p].end());
    readers[p].erase(std::unique(readers[p].begin(), readers[p].end()), readers[p].end());
    if (!readers[p].empty()) connect(g, p, readers[p], bytes(rng));
  }
  add_io(g, bytes(rng));
  return g;
}

// The best objective value (then the other) over every layer -> worker map whose tensors
// only flow forward, priced here from scratch; infinity when none fits.
std::pair<double, double> brute_force(const LayerGraph& g, const PlacementOptions& options) {
  const size_t n = g.layers.size(), k = options.workers.size();
  std::vector<uint32_t> worker(n, 0);
  std::pair<double, double> best{std::numeric_limits<double>::infinity(), 0};
  const auto copy = [&](int64_t b) { return static_cast<double>(b) / options.transfer.bytes_per_second; };
  while (true) {
    bool forward = true;
    for (const LayerTensor& t : g.tensors)
      for (uint32_t c : t.consumers)
        if (t.producer != kNoLayer && worker[c] < worker[t.producer]) forward = false;
    if (forward) {
      std::vector<double> seconds(k, options.stage_seconds);
      std::vector<int64_t> weights(k, 0), alive(k, 0);
      std::vector<bool> used(k, false);
      for (size_t l = 0; l < n; ++l) {
        const uint32_t w = worker[l];
        used[w] = true;
        seconds[w] += layer_seconds(g.layers[l], options.workers[w].threads);
        weights[w] += g.layers[l].weight_bytes;
        alive[w] = std::max(alive[w], g.layers[l].alive_bytes);
      }
      for (const LayerTensor& t : g.tensors) {
        std::vector<bool> receives(k, false);
        bool sent = t.graph_output;
        for (uint32_t c : t.consumers)
          if (t.producer == kNoLayer || worker[c] != worker[t.producer]) {
            receives[worker[c]] = true;
            sent = true;
          }
        for (size_t w = 0; w < k; ++w)
          if (receives[w]) seconds[w] += options.transfer.message_seconds + copy(t.bytes);
        if (t.producer != kNoLayer && sent) seconds[worker[t.producer]] += copy(t.bytes);
      }
      bool fits = true;
      double sum = 0, slowest = 0;
      for (size_t w = 0; w < k; ++w) {
        if (!used[w]) continue;
        const int64_t budget = options.workers[w].memory_bytes;
        if (budget != 0 && options.weight_copies * weights[w] + alive[w] > budget) fits = false;
        sum += seconds[w];
        slowest = std::max(slowest, seconds[w]);
      }
      if (fits) {
        const std::pair<double, double> value =
            options.objective == Objective::kLatency ? std::pair{sum, slowest} : std::pair{slowest, sum};
        if (value.first < best.first - 1e-9 || (value.first < best.first + 1e-9 && value.second < best.second))
          best = value;
      }
    }
    size_t v = 0;
    while (v < n && ++worker[v] == k) worker[v++] = 0;
    if (v == n) return best;
  }
}

}  // namespace

TEST_CASE("ideals of a chain and of two parallel chains", "[placement]") {
  CHECK(layer_ideals(chain(1), SIZE_MAX).sets.size() == 2);
  CHECK(layer_ideals(chain(7), SIZE_MAX).sets.size() == 8);
  CHECK(layer_ideals(parallel_chains(3, 4), SIZE_MAX).sets.size() == 4 * 5);
  CHECK(layer_ideals(parallel_chains(1, 6), SIZE_MAX).sets.size() == 2 * 7);
  const LayerIdeals capped = layer_ideals(parallel_chains(3, 4), 7);
  CHECK_FALSE(capped.complete);
  CHECK(capped.sets.size() == 7);
}

TEST_CASE("placement equals brute force over contiguous splits of random graphs", "[placement]") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    const size_t n = std::uniform_int_distribution<size_t>(1, 9)(rng);
    const bool chain_only = seed % 4 == 0;
    const LayerGraph g = random_graph(rng, n, chain_only);
    PlacementOptions options;
    const size_t k = std::uniform_int_distribution<size_t>(1, 3)(rng);
    for (size_t w = 0; w < k; ++w)
      options.workers.push_back({std::uniform_int_distribution<int>(1, 3)(rng),
                                 seed % 3 == 0 ? 0 : std::uniform_int_distribution<int64_t>(150, 600)(rng)});
    options.transfer = {std::uniform_real_distribution<double>(0, 2)(rng),
                        std::uniform_real_distribution<double>(5, 200)(rng)};
    options.objective = seed % 2 ? Objective::kThroughput : Objective::kLatency;
    options.stage_seconds = seed % 5 == 0 ? 0 : std::uniform_real_distribution<double>(0, 3)(rng);
    options.weight_copies = seed % 7 == 0 ? 2 : 1;
    INFO("seed " << seed << ", " << n << " layers over " << k << " workers, " << objective_name(options.objective));
    const std::pair<double, double> expected = brute_force(g, options);
    const Result<Placement> placed = place_layers(g, options);
    if (std::isinf(expected.first)) {
      CHECK_FALSE(placed.ok());
      continue;
    }
    REQUIRE(placed.ok());
    REQUIRE(check_placement(g, options, *placed).ok());
    const double primary = options.objective == Objective::kLatency ? placed->latency : placed->period;
    const double secondary = options.objective == Objective::kLatency ? placed->period : placed->latency;
    CHECK(primary == Approx(expected.first).epsilon(1e-9));
    // The tie-break is exact for latency (sums then maxima keep their order as stages are
    // added); for throughput the latency among the best periods is only preferred.
    if (options.objective == Objective::kLatency)
      CHECK(secondary == Approx(expected.second).epsilon(1e-9));
    else
      CHECK(secondary >= expected.second * (1 - 1e-9));
  }
}

TEST_CASE("placement over parallel chains equals brute force", "[placement]") {
  LayerGraph g = parallel_chains(3, 3);
  for (size_t l = 0; l < g.layers.size(); ++l) g.layers[l].seconds = {1.0 + static_cast<double>(l)};
  PlacementOptions options;
  options.workers = {{1, 0}, {1, 0}, {1, 0}};
  options.transfer = {0.1, 1000};
  options.objective = Objective::kThroughput;
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  REQUIRE(check_placement(g, options, *placed).ok());
  CHECK(placed->period == Approx(brute_force(g, options).first).epsilon(1e-12));
  CHECK(placed->stages.size() == 3);
}

TEST_CASE("a single worker with room takes the whole graph; latency never splits without a reason", "[placement]") {
  const LayerGraph g = chain(5);
  PlacementOptions options;
  options.workers = {{2, 0}, {2, 0}};
  options.transfer = {1e-6, 1e9};
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  REQUIRE(placed->stages.size() == 1);
  CHECK(placed->stages[0].layers.size() == 5);
  CHECK(placed->stages[0].bytes_in == 100);
  CHECK(placed->stages[0].bytes_out == 100);
}

TEST_CASE("memory budgets force a split, and a layer too big for every worker is named", "[placement]") {
  LayerGraph g = chain(4);
  for (Layer& l : g.layers) l.weight_bytes = 400;
  PlacementOptions options;
  options.workers = {{1, 1000}, {1, 1000}};
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  REQUIRE(check_placement(g, options, *placed).ok());
  REQUIRE(placed->stages.size() == 2);
  CHECK(placed->stages[0].layers == std::vector<uint32_t>{0, 1});

  options.workers = {{1, 1000}};
  const Result<Placement> too_few = place_layers(g, options);
  REQUIRE_FALSE(too_few.ok());
  CHECK_THAT(too_few.status().message(), Catch::Contains("no contiguous split over 1 workers"));

  // Workers that keep two copies of their weights hold one 400-byte layer each.
  options.workers.assign(4, {1, 1000});
  options.weight_copies = 2;
  const Result<Placement> doubled = place_layers(g, options);
  REQUIRE(doubled.ok());
  REQUIRE(check_placement(g, options, *doubled).ok());
  REQUIRE(doubled->stages.size() == 4);
  CHECK(doubled->stages[0].weight_bytes == 400);
  CHECK(doubled->stages[0].memory_bytes == 800);
  options.weight_copies = 1;
  CHECK_FALSE(check_placement(g, options, *doubled).ok());  // its memory was priced with two copies
  options.weight_copies = 2;
  options.workers.assign(4, {1, 700});
  const Result<Placement> no_room = place_layers(g, options);
  REQUIRE_FALSE(no_room.ok());
  CHECK_THAT(no_room.status().message(), Catch::Contains("(weights 2 x 0.4 KiB"));
  options.weight_copies = 1;

  g.layers[2].weight_bytes = 5000;
  options.workers = {{1, 1000}, {1, 1000}, {1, 1000}};
  const Result<Placement> too_big = place_layers(g, options);
  REQUIRE_FALSE(too_big.ok());
  CHECK_THAT(too_big.status().message(), Catch::Contains("layer 'l2' alone needs"));
}

// Modules of four parallel branches (1, 2, 3 and 2 layers) between a split layer and a
// concatenating one: 2 * 3 * 4 * 3 = 72 ideals inside each.
LayerGraph inception_like(size_t modules) {
  LayerGraph g;
  auto add = [&](const std::string& name) {
    g.layers.push_back(layer(name, {1.0, 0.6}, 10, 5));
    return static_cast<uint32_t>(g.layers.size() - 1);
  };
  uint32_t stem = add("stem");
  g.tensors.push_back({"input", kNoLayer, {stem}, 50, false});
  for (size_t m = 0; m < modules; ++m) {
    std::vector<uint32_t> heads, tails;
    for (size_t length : {1, 2, 3, 2}) {
      uint32_t previous = kNoLayer;
      for (size_t i = 0; i < length; ++i) {
        const uint32_t l = add(numbered("m", m) + "_b" + std::to_string(heads.size()) + numbered("_", i));
        if (previous == kNoLayer)
          heads.push_back(l);
        else
          connect(g, previous, {l}, 20);
        previous = l;
      }
      tails.push_back(previous);
    }
    connect(g, stem, heads, 30);
    const uint32_t concat = add(numbered("m", m) + "_concat");
    for (uint32_t t : tails) connect(g, t, {concat}, 20);
    stem = concat;
  }
  g.tensors.push_back({"output", stem, {}, 50, true});
  return g;
}

TEST_CASE("wide graphs are coarsened at narrow cuts, as far as the limit needs", "[placement]") {
  const LayerGraph g = inception_like(4);
  const CoarseLayers whole = coarsen_layers(g, 100000);
  CHECK(whole.merged_regions == 0);
  CHECK(describe(whole).find("not coarsened") == 0);

  // Modules cut inside, where fewer branches are open, before they are merged whole.
  const CoarseLayers some = coarsen_layers(g, 64);
  CHECK(some.merged_regions > 0);
  CHECK(some.width > 1);
  CHECK(some.ideals.size() <= 64);

  const CoarseLayers coarse = coarsen_layers(g, 8);
  CHECK(coarse.width == 1);
  CHECK(coarse.graph.layers.size() == 1 + 4);  // the stem, then one layer per module
  CHECK(coarse.ideals.size() == 6);
  CHECK_FALSE(coarse.prefixes_only);
  CHECK_THAT(describe(coarse), Catch::Contains("4 regions of 36 layers"));

  PlacementOptions options;
  options.workers = {{1, 0}, {1, 0}, {1, 0}};
  options.transfer = {0.01, 1000};
  options.objective = Objective::kThroughput;
  options.max_ideals = 8;
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  REQUIRE(check_placement(g, options, *placed).ok());  // on the original layers
  CHECK(placed->stages.size() == 3);
  CHECK(placed->coarsening.merged_regions == 4);
}

TEST_CASE("a graph too wide even when coarsened is split along its layer order", "[placement]") {
  // Two chains side by side: merged whole they still have 4 ideals.
  const LayerGraph g = parallel_chains(6, 6);
  const CoarseLayers coarse = coarsen_layers(g, 3);
  CHECK(coarse.prefixes_only);
  PlacementOptions options;
  options.workers = {{1, 0}, {1, 0}};
  options.objective = Objective::kThroughput;
  options.max_ideals = 3;
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  CHECK(check_placement(g, options, *placed).ok());
}

TEST_CASE("the checker rejects hand-made bad placements", "[placement]") {
  LayerGraph g = chain(4);
  for (Layer& l : g.layers) l.weight_bytes = 400;
  PlacementOptions options;
  options.workers = {{1, 1000}, {1, 1000}};
  options.transfer = {0.5, 100};
  const Result<Placement> placed = place_layers(g, options);
  REQUIRE(placed.ok());
  REQUIRE(check_placement(g, options, *placed).ok());

  auto rejects = [&](auto&& spoil, const std::string& says) {
    Placement bad = *placed;
    spoil(bad);
    const Status status = check_placement(g, options, bad);
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains(says));
  };
  rejects([](Placement& p) { p.stages[1].layers.push_back(0); }, "placed twice");
  rejects([](Placement& p) { p.stages[1].layers.pop_back(); }, "is not placed");
  rejects([](Placement& p) { std::swap(p.stages[0].layers[0], p.stages[1].layers[0]); }, "not contiguous");
  rejects([](Placement& p) { p.stages[1].worker = 0; }, "does not come after");
  rejects([](Placement& p) { p.stages[1].worker = 5; }, "on worker 5");
  rejects([](Placement& p) { p.stages[0].compute_seconds *= 0.9; }, "times do not match");
  rejects([](Placement& p) { p.stages[0].bytes_out = 0; }, "bytes do not match");
  rejects([](Placement& p) { p.period = 0; }, "period does not match");
  rejects(
      [](Placement& p) {
        p.stages[0].layers = {0, 1, 2};
        p.stages[1].layers = {3};
      },
      "needs 1200 bytes");
}

}  // namespace tessera::plan
