// The tiling planner on small real graphs: configurations are legal tilings, the search never
// predicts worse than its start, the costs steer it (dear tiles merge), and the planner keeps
// the default plan unless the simulator prefers the searched one.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/graph/build.h"
#include "core/kernels/gemm/gemm.h"
#include "core/model/load.h"
#include "core/plan/algorithms.h"
#include "core/plan/cost_model.h"
#include "core/plan/planner.h"
#include "tests/support/op_model.h"

namespace tessera::plan {
namespace {

using testing::ModelBuilder;

graph::Graph graph_of(const testing::TestModel& m) {
  AlignedBuffer weights = AlignedBuffer::allocate(m.weights.size());
  if (!m.weights.empty()) std::memcpy(weights.data(), m.weights.data(), m.weights.size());
  auto desc = model::load_model(m.json, std::move(weights));
  REQUIRE(desc.ok());
  auto g = graph::build_graph(*desc);
  REQUIRE(g.ok());
  REQUIRE(graph::optimize(*g).ok());
  return std::move(g).value();
}

nlohmann::json conv_attributes(int64_t k) { return {{"kernel_shape", {k, k}}, {"pads", {k / 2, k / 2, k / 2, k / 2}}}; }

// A residual CNN: conv, conv, add, pool, a 1x1 conv, then a matmul head with softmax.
graph::Graph residual_cnn() {
  ModelBuilder b(7);
  const std::string x = b.input({1, 16, 40, 40});
  const std::string a =
      b.node("Relu", {b.node("Conv", {x, b.weight({32, 16, 3, 3}), b.weight({32})}, conv_attributes(3))});
  const std::string c = b.node("Conv", {a, b.weight({32, 32, 3, 3}), b.weight({32})}, conv_attributes(3));
  const std::string skip = b.node("Conv", {x, b.weight({32, 16, 1, 1})}, conv_attributes(1));
  const std::string sum = b.node("Add", {c, skip});
  const std::string pooled = b.node("MaxPool", {sum}, {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}});
  const std::string wide = b.node("Conv", {pooled, b.weight({64, 32, 1, 1})}, conv_attributes(1));
  const std::string flat = b.node("Reshape", {wide, b.ints({1, 64 * 20 * 20})});
  const std::string logits = b.node("MatMul", {flat, b.weight({64 * 20 * 20, 48})});
  return graph_of(b.build({b.node("Softmax", {logits}, {{"axis", -1}})}));
}

// Two matmuls of a batch of rows, the second fed through a GELU-like unary.
graph::Graph mlp() {
  ModelBuilder b(3);
  const std::string x = b.input({96, 256});
  const std::string h = b.node("Tanh", {b.node("MatMul", {x, b.weight({256, 512})})});
  return graph_of(b.build({b.node("MatMul", {h, b.weight({512, 128})})}));
}

// Tiny elementwise ops: too little work to split.
graph::Graph tiny() {
  ModelBuilder b(5);
  const std::string x = b.input({1, 8});
  return graph_of(b.build({b.node("Relu", {b.node("Neg", {x})})}));
}

// Eight Gemm + Tanh layers, 128 wide but for a 256-wide pair in the middle, each output read
// through two Reshape views, then two heads of different widths on the last. Gemm's alpha
// changes no cost; `distinct` gives each Gemm its own, so that no two are priced alike.
graph::Graph gemm_stack(bool distinct) {
  ModelBuilder b(11);
  std::string x = b.input({64, 128});
  const int64_t widths[] = {128, 128, 128, 256, 128, 128, 256, 128, 128};
  for (int layer = 0; layer < 8; ++layer) {
    const int64_t in = widths[layer], out = widths[layer + 1];
    const float alpha = distinct ? 1.0f + static_cast<float>(layer) / 64 : 1.0f;
    const std::string y =
        b.node("Tanh", {b.node("Gemm", {x, b.weight({in, out}), b.weight({out})}, {{"alpha", alpha}})});
    x = b.node("Reshape", {b.node("Reshape", {y, b.ints({128, out / 2})}), b.ints({64, out})});
  }
  const auto head = [&](int64_t width, float alpha) {
    return b.node("Gemm", {x, b.weight({128, width})}, {{"alpha", distinct ? alpha : 1.0f}});
  };
  return graph_of(b.build({head(64, 2.0f), head(512, 3.0f)}));
}

// Two convolutions of an h x w image concatenated: a copy over NHWC pixels.
graph::Graph concatenated_convs(int64_t h, int64_t w) {
  ModelBuilder b(13);
  const std::string x = b.input({1, 16, h, w});
  const std::string a = b.node("Conv", {x, b.weight({32, 16, 1, 1})}, conv_attributes(1));
  const std::string c = b.node("Conv", {x, b.weight({32, 16, 1, 1})}, conv_attributes(1));
  return graph_of(b.build({b.node("Concat", {a, c}, {{"axis", 1}})}));
}

std::vector<graph::Graph> graphs() {
  std::vector<graph::Graph> out;
  out.push_back(residual_cnn());
  out.push_back(mlp());
  out.push_back(tiny());
  return out;
}

Profile profile_with_tile_cost(double seconds) {
  Profile p = uncalibrated_profile("avx512", "native");
  p.executor.task = seconds;
  return p;
}

TEST_CASE("a node's configurations are distinct legal tilings, the one-tile grid first") {
  for (const graph::Graph& g : graphs()) {
    for (int threads : {1, 2, 4}) {
      ConfigOptions options;
      options.threads = threads;
      const tiles::TilingPlan base = default_tiling(g, {threads});
      for (size_t n = 0; n < g.nodes.size(); ++n) {
        if (ops::is_view(g.nodes[n].attrs)) continue;
        const std::vector<tiles::NodeTiling> configs = node_configurations(g, static_cast<int>(n), options);
        INFO(g.nodes[n].name << " at " << threads << " threads");
        REQUIRE(!configs.empty());
        CHECK(configs[0].cuts == tiles::NodeTiling::whole(g.tensors[g.nodes[n].output].shape).cuts);
        for (size_t i = 0; i < configs.size(); ++i) {
          CHECK(configs[i].tile_count() <= options.max_tiles);
          tiles::TilingPlan plan = base;
          plan.nodes[n] = configs[i];
          CHECK(tiles::validate_plan(g, plan, detected_isa()).ok());
          for (size_t j = 0; j < i; ++j) CHECK(configs[i].cuts != configs[j].cuts);
        }
      }
    }
  }
  const graph::Graph small = tiny();
  for (size_t n = 0; n < small.nodes.size(); ++n) {
    CHECK(node_configurations(small, static_cast<int>(n), {.threads = 2}).size() == 1);
  }
  // The convolutions and the matmul have splits to choose from, crossed ones among them.
  const graph::Graph cnn = residual_cnn();
  size_t crossed = 0;
  for (size_t n = 0; n < cnn.nodes.size(); ++n) {
    if (cnn.nodes[n].op != "Conv") continue;
    for (const tiles::NodeTiling& t : node_configurations(cnn, static_cast<int>(n), {.threads = 2})) {
      int split = 0;
      for (const auto& cuts : t.cuts) split += cuts.size() > 2;
      crossed += split == 2;
    }
  }
  CHECK(crossed > 0);
}

TEST_CASE("a memory-bound op cuts an inner dimension only where the outer ones cannot give the tiles") {
  // Rows and columns of the concatenation's tiles, per configuration (NHWC: a column cut
  // shortens every contiguous run of the tile).
  const auto grids = [](int64_t h, int64_t w) {
    const graph::Graph g = concatenated_convs(h, w);
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (g.nodes[n].op != "Concat") continue;
      for (const tiles::NodeTiling& t : node_configurations(g, static_cast<int>(n), {.threads = 2})) {
        out.emplace_back(t.cuts[2].size() - 1, t.cuts[3].size() - 1);
      }
    }
    REQUIRE(out.size() > 1);
    return out;
  };
  // 64 rows give every tile count up to the most tiles: rows only.
  for (const auto& [rows, columns] : grids(64, 64)) CHECK(columns == 1);
  // 2 rows give two tiles at most: four or more cut the columns.
  size_t column_cuts = 0;
  for (const auto& [rows, columns] : grids(2, 256)) {
    column_cuts += columns > 1;
    if (columns > 1) CHECK(rows * columns > 2);
  }
  CHECK(column_cuts > 0);
}

TEST_CASE("images are cut apart before their rows: no tile holds a row band of several images") {
  // A batch of 4 through two convolutions: configurations cut rows only with the batch cut
  // into single images; whole images (the batch in groups) may share a tile.
  ModelBuilder b(11);
  const std::string x = b.input({4, 32, 28, 28});
  const std::string y = b.node("Conv", {x, b.weight({64, 32, 3, 3})}, conv_attributes(3));
  const graph::Graph g = graph_of(b.build({b.node("Conv", {y, b.weight({64, 64, 1, 1})}, conv_attributes(1))}));
  size_t row_bands = 0, image_groups = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].op != "Conv") continue;
    for (const tiles::NodeTiling& t : node_configurations(g, static_cast<int>(n), {.threads = 2})) {
      const size_t images = t.cuts[0].size() - 1, bands = t.cuts[2].size() - 1;
      if (bands > 1) CHECK(images == 4);
      row_bands += bands > 1;
      image_groups += images > 1 && images < 4;
    }
  }
  CHECK(row_bands > 0);
  CHECK(image_groups > 0);
}

TEST_CASE("the cost model chooses each 3x3 convolution's algorithm: the Winograd tile whose transforms cost least") {
  // residual_cnn's two 3x3 convolutions (16 and 32 channels in, 40 x 40) may run by Winograd.
  auto chosen = [](double f4_ns, double f2_ns) {
    graph::Graph g = residual_cnn();
    Profile p = uncalibrated_profile("avx512", "native");
    p.winograd_input_ns = p.winograd_output_ns = f4_ns;
    p.winograd_f2_input_ns = p.winograd_f2_output_ns = f2_ns;
    const Result<int> changed = choose_algorithms(g, p, {}, {});
    REQUIRE(changed.ok());
    std::vector<std::string> algorithms;
    for (const graph::Node& n : g.nodes) {
      if (n.op == "Conv") algorithms.push_back(ops::op_algorithm_name(n.attrs));
    }
    return algorithms;
  };
  // Free transforms: F(4x4), the fewest multiplies.
  CHECK(chosen(1e-3, 1e-3) == std::vector<std::string>{"winograd", "winograd", "gemm", "gemm"});
  CHECK(chosen(1e3, 1e-3) == std::vector<std::string>{"winograd_f2", "winograd_f2", "gemm", "gemm"});
  CHECK(chosen(1e3, 1e3) == std::vector<std::string>{"gemm", "gemm", "gemm", "gemm"});
}

TEST_CASE("channel cuts follow the GEMM panels of the ISA the kernels run, not of the machine") {
  const graph::Graph g = residual_cnn();
  const int64_t widest = kernels::best_gemm_kernel(Isa::kAvx512).nr;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2Fma, Isa::kAvx512}) {
    INFO("ISA " << isa_name(isa));
    ConfigOptions options;
    options.threads = 2;
    options.isa = isa;
    size_t channel_splits = 0, finer = 0;  // finer: cuts the widest panel would not allow
    bool narrower = false;
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (g.nodes[n].op != "Conv") continue;
      const int64_t channels = g.tensors[g.nodes[n].output].shape[1];
      const int64_t panel = kernels::gemm_panel_width(isa, static_cast<size_t>(channels));
      INFO("node " << g.nodes[n].name << ", panel " << panel);
      narrower |= panel < widest;
      for (const tiles::NodeTiling& t : node_configurations(g, static_cast<int>(n), options)) {
        const std::vector<int64_t>& cuts = t.cuts[1];
        for (size_t i = 1; i + 1 < cuts.size(); ++i, ++channel_splits) {
          CHECK(cuts[i] % panel == 0);
          finer += cuts[i] % widest != 0;
        }
      }
      // A cut inside a panel is refused for this ISA.
      tiles::TilingPlan plan = default_tiling(g, {.threads = 1, .isa = isa});
      plan.nodes[n].cuts[1] = {0, panel / 2, channels};
      if (panel > 1) CHECK(!tiles::validate_plan(g, plan, isa).ok());
    }
    CHECK(channel_splits > 0);
    if (narrower) CHECK(finer > 0);
  }
}

TEST_CASE("the search returns a valid plan that costs no more than the default it starts from") {
  for (const graph::Graph& g : graphs()) {
    for (int threads : {1, 2, 3}) {
      for (SimScheduler scheduler : {SimScheduler::kDynamic, SimScheduler::kBarrier}) {
        for (double tile_cost : {0.0, 2e-6, 1e-4}) {
          const tiles::TilingPlan start = default_tiling(g, {threads});
          TilingSearchOptions options;
          options.threads = threads;
          options.scheduler = scheduler;
          auto found = search_tiling(g, profile_with_tile_cost(tile_cost), start, options);
          REQUIRE(found.ok());
          CHECK(tiles::validate_plan(g, found->plan, detected_isa()).ok());
          CHECK(found->search.cost <= found->start_cost + 1e-12);
          CHECK(found->search.exact);  // these graphs reduce: elimination is exact
          CHECK(found->nodes > 0);
          CHECK(found->configurations >= found->nodes);
        }
      }
    }
  }
}

TEST_CASE("layers priced alike are priced once, and as if each were priced on its own") {
  const graph::Graph alike = gemm_stack(false), distinct = gemm_stack(true);
  REQUIRE(std::count_if(alike.nodes.begin(), alike.nodes.end(),
                        [](const graph::Node& n) { return ops::is_view(n.attrs); }) >= 8);
  for (int threads : {1, 2}) {
    TilingSearchOptions options;
    options.threads = threads;
    auto a = search_tiling(alike, profile_with_tile_cost(2e-6), default_tiling(alike, {threads}), options);
    auto d = search_tiling(distinct, profile_with_tile_cost(2e-6), default_tiling(distinct, {threads}), options);
    REQUIRE(a.ok());
    REQUIRE(d.ok());
    CHECK(a->nodes == 10);
    CHECK(a->classes < a->nodes);
    CHECK(d->classes == d->nodes);
    CHECK(a->node_seconds == d->node_seconds);
    CHECK(a->start_seconds == d->start_seconds);
    CHECK(a->search.cost == d->search.cost);
    for (size_t n = 0; n < alike.nodes.size(); ++n) CHECK(a->plan.nodes[n] == d->plan.nodes[n]);
  }
}

TEST_CASE("dear tiles merge: with a millisecond per tile on one thread, every node is one tile") {
  const graph::Graph g = residual_cnn();
  TilingSearchOptions options;
  options.threads = 1;
  auto found = search_tiling(g, profile_with_tile_cost(1e-3), default_tiling(g, {1, 1e5}), options);
  REQUIRE(found.ok());
  for (size_t n = 0; n < g.nodes.size(); ++n) CHECK(found->plan.nodes[n].tile_count() == 1);
  // With free tiles and four threads, the convolutions are split to feed them.
  options.threads = 4;
  found = search_tiling(g, profile_with_tile_cost(0), default_tiling(g, {4}), options);
  REQUIRE(found.ok());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].op == "Conv") CHECK(found->plan.nodes[n].tile_count() >= 4);
  }
}

TEST_CASE("tiles stay within half a core's own cache where the start plan's do, however dear tiles are") {
  // The dear tiles above, on a core whose own cache holds 384 KiB: the 40 x 40 convolutions
  // read and write over 192 KB and stay split; the 1x1 one at 20 x 20 (150 KB) merges.
  const graph::Graph g = residual_cnn();
  Profile small_cache = profile_with_tile_cost(1e-3);
  for (MemoryLevel& level : small_cache.memory) {
    if (level.name == "L2") level.bytes = 384 << 10;
  }
  TilingSearchOptions options;
  options.threads = 1;
  const tiles::TilingPlan start = default_tiling(g, {1, 1e5});
  auto found = search_tiling(g, small_cache, start, options);
  REQUIRE(found.ok());
  int split = 0, merged = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].op != "Conv") continue;
    INFO(g.nodes[n].name);
    if (g.tensors[g.nodes[n].output].shape[2] == 40) {
      REQUIRE(start.nodes[n].tile_count() > 1);
      CHECK(found->plan.nodes[n].tile_count() > 1);
      ++split;
    } else {
      CHECK(found->plan.nodes[n].tile_count() == 1);
      ++merged;
    }
  }
  CHECK(split == 3);
  CHECK(merged == 1);
}

TEST_CASE("the planner keeps the default plan unless the simulator predicts the searched one faster by the margin") {
  for (const graph::Graph& g : graphs()) {
    for (int threads : {1, 2}) {
      PlannerOptions options;
      options.defaults.threads = threads;
      auto by_default = plan_tiling(g, profile_with_tile_cost(2e-6), options);
      REQUIRE(by_default.ok());
      CHECK(!by_default->searched);
      CHECK(by_default->plan.nodes.size() == g.nodes.size());
      for (size_t n = 0; n < g.nodes.size(); ++n) {
        CHECK(by_default->plan.nodes[n].cuts == default_tiling(g, {threads}).nodes[n].cuts);
      }
      options.planner = Planner::kSearch;
      auto searched = plan_tiling(g, profile_with_tile_cost(2e-6), options);
      REQUIRE(searched.ok());
      CHECK(searched->searched);
      CHECK(searched->tiling_seconds() <= searched->default_seconds);
      CHECK(tiles::validate_plan(g, searched->plan, detected_isa()).ok());
      const double default_exposed = searched->default_seconds + searched->default_exposure;
      const double search_exposed = searched->search_seconds + searched->search_exposure;
      const double needed = searched->default_seconds * (1 - kSearchMargin);
      if (searched->kept_default) {
        CHECK((searched->search_seconds >= needed || search_exposed >= default_exposed));
      } else {
        CHECK(searched->search_seconds < needed);
        CHECK(search_exposed < default_exposed);
        CHECK(searched->plan.nodes == searched->search.plan.nodes);
      }
    }
  }
}

TEST_CASE("the search turns arena reuse off only where the simulator predicts the run faster without it") {
  const graph::Graph g = residual_cnn();
  Profile free_overwrites = profile_with_tile_cost(2e-6);
  Profile dear_overwrites = free_overwrites;
  dear_overwrites.shared_overwrite_gbps = 0.01;  // 100 ns per byte another core read
  const auto planned = [&](const Profile& profile, int threads, bool reuse_asked = true) {
    PlannerOptions options;
    options.planner = Planner::kSearch;
    options.defaults.threads = threads;
    options.compile.reuse_memory = reuse_asked;
    auto out = plan_tiling(g, profile, options);
    REQUIRE(out.ok());
    return std::move(out).value();
  };
  // Writes over what the other core read are dear: the fresh arena wins.
  const PlannedTiling dear = planned(dear_overwrites, 2);
  CHECK_FALSE(dear.reuse_memory);
  CHECK(dear.no_reuse_seconds > 0);
  CHECK(dear.no_reuse_seconds < (1 - kNoReuseMargin) * dear.tiling_seconds());
  // Free, with the shared level slow, the stale lines of a fresh arena cost more than reuse's
  // orderings: reuse stays.
  Profile slow_shared_level = free_overwrites;
  for (MemoryLevel& level : slow_shared_level.memory) {
    if (level.name != "L1" && level.name != "L2") level.read_gbps = level.shared_gbps = 1;
  }
  const PlannedTiling free = planned(slow_shared_level, 2);
  CHECK(free.reuse_memory);
  CHECK(free.no_reuse_seconds >= (1 - kNoReuseMargin) * free.tiling_seconds());
  // One thread has no other core to take lines from: reuse is not weighed.
  const PlannedTiling one = planned(dear_overwrites, 1);
  CHECK(one.reuse_memory);
  CHECK(one.no_reuse_seconds == 0);
  // Asked for no reuse, there is none.
  const PlannedTiling off = planned(free_overwrites, 2, false);
  CHECK_FALSE(off.reuse_memory);
  CHECK(off.no_reuse_seconds == 0);
  // The default planner does as asked, without weighing.
  for (bool asked : {true, false}) {
    PlannerOptions by_default;
    by_default.defaults.threads = 2;
    by_default.compile.reuse_memory = asked;
    auto heuristic = plan_tiling(g, dear_overwrites, by_default);
    REQUIRE(heuristic.ok());
    CHECK(heuristic->reuse_memory == asked);
    CHECK(heuristic->no_reuse_seconds == 0);
  }
}

TEST_CASE("a slowed thread's exposure is its longest tile per node, and it keeps long tiles out") {
  const graph::Graph g = residual_cnn();
  const Profile profile = profile_with_tile_cost(2e-6);
  tiles::CompileOptions skeleton;
  skeleton.bind_kernels = false;
  auto compiled = tiles::compile(g, default_tiling(g, {2}), skeleton);
  REQUIRE(compiled.ok());
  const std::vector<double> seconds = predict_task_seconds(*compiled, profile, 2);
  double longest_sum = 0;
  for (const tiles::CompiledNode& node : compiled->nodes) {
    longest_sum +=
        *std::max_element(seconds.begin() + node.first_task, seconds.begin() + node.first_task + node.task_count);
  }
  CHECK(interference_exposure(*compiled, profile, 2, 0.5) == Approx(0.5 * longest_sum));
  CHECK(interference_exposure(*compiled, profile, 1, 0.5) == 0);  // one thread: nobody waits

  // The longest tile of each node, over the whole plan, shrinks as the exposure weighs more.
  const auto longest_tiles = [&](double interference) {
    TilingSearchOptions options;
    options.threads = 2;
    options.interference = interference;
    auto found = search_tiling(g, profile, default_tiling(g, {2}), options);
    REQUIRE(found.ok());
    auto plan = tiles::compile(g, found->plan, skeleton);
    REQUIRE(plan.ok());
    return interference_exposure(*plan, profile, 2, 1.0);
  };
  const double unexposed = longest_tiles(0);
  const double cautious = longest_tiles(4);
  CHECK(cautious < unexposed);
}

TEST_CASE("hand-overs are priced: when they are dear, the searched plan hands fewer tiles between threads") {
  const graph::Graph g = residual_cnn();
  Profile cheap = profile_with_tile_cost(0);
  cheap.executor.remote_input = 0;
  Profile dear = cheap;
  dear.executor.remote_input = 1e-3;
  tiles::CompileOptions skeleton;
  skeleton.bind_kernels = false;
  TilingSearchOptions options;
  options.threads = 2;
  const auto searched_for = [&](const Profile& profile) {
    auto found = search_tiling(g, profile, default_tiling(g, {2}), options);
    REQUIRE(found.ok());
    auto compiled = tiles::compile(g, found->plan, skeleton);
    REQUIRE(compiled.ok());
    return std::move(compiled).value();
  };
  const tiles::TileGraph ignoring = searched_for(cheap), minding = searched_for(dear);
  const auto handed_over = [&](const tiles::TileGraph& plan) {
    const std::vector<SimTask> tasks = sim_tasks(plan, predict_task_seconds(plan, dear, 2), dear, 2);
    const SimResult run = simulate(tasks, {2, SimScheduler::kDynamic, sim_costs(plan, dear)});
    // What tasks pay beyond writing lines nobody touched this run: the hand-overs.
    uint32_t count = 0;
    for (size_t t = 0; t < tasks.size(); ++t) count += run.locality[t] - tasks[t].stale_write_seconds > 0;
    return count;
  };
  CHECK(handed_over(minding) < handed_over(ignoring));
  CHECK(predict(minding, dear, 2, SimScheduler::kDynamic).latency <
        predict(ignoring, dear, 2, SimScheduler::kDynamic).latency);
}

TEST_CASE("planner names parse both ways, and nothing else does") {
  for (Planner planner : {Planner::kAuto, Planner::kDefault, Planner::kSearch}) {
    Planner p = planner == Planner::kDefault ? Planner::kSearch : Planner::kDefault;
    CHECK(parse_planner(planner_name(planner), &p));
    CHECK(p == planner);
  }
  Planner p = Planner::kDefault;
  CHECK(!parse_planner("Search", &p));
  CHECK(!parse_planner("", &p));
}

TEST_CASE("auto stands for the search with a calibrated profile, for the default without") {
  Profile p = uncalibrated_profile("avx512", "native");
  CHECK(resolve_planner(Planner::kAuto, p) == Planner::kDefault);
  CHECK(resolve_planner(Planner::kSearch, p) == Planner::kSearch);
  p.calibrated = true;
  CHECK(resolve_planner(Planner::kAuto, p) == Planner::kSearch);
  CHECK(resolve_planner(Planner::kDefault, p) == Planner::kDefault);
}

}  // namespace
}  // namespace tessera::plan
