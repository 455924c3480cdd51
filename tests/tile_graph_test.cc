// Properties of compiled tile graphs on the tiny zoo models:
// - every output element is written by exactly one tile;
// - no tile reads bytes its ancestors did not write (an instrumented run: each tile runs
//   after only its ancestors, in an arena poisoned three ways, and must still produce the
//   bytes of a normal run);
// - no tile overwrites bytes another tile still has to read (an adversarial run: every tile
//   that does not depend on a tile runs before it, and must leave its inputs intact);
// - a tile that writes over bytes other tiles read names them, with the bytes;
// - the simulator replays the graphs within the bounds any schedule must keep.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

#include "core/base/cpu_features.h"
#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/plan/cost_model.h"
#include "core/plan/default_tiling.h"
#include "core/tiles/compile.h"
#include "tests/support/op_model.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

struct Compiled {
  graph::Graph graph;
  tiles::TileGraph tiles;
};

// Compiled for `threads` threads with tiles of about `tile_flops`.
std::unique_ptr<Compiled> compile_json(const std::string& json, const std::vector<uint8_t>& bytes, int threads,
                                       bool reuse, double tile_flops) {
  AlignedBuffer weights = AlignedBuffer::allocate(bytes.size());
  if (!bytes.empty()) std::memcpy(weights.data(), bytes.data(), bytes.size());
  auto desc = model::load_model(json, std::move(weights));
  REQUIRE(desc.ok());
  auto c = std::make_unique<Compiled>();
  auto g = graph::build_graph(*desc);
  REQUIRE(g.ok());
  c->graph = std::move(g).value();
  REQUIRE(graph::optimize(c->graph).ok());
  plan::TilingOptions tiling;
  tiling.threads = threads;
  tiling.target_tile_flops = tile_flops;
  auto compiled = tiles::compile(c->graph, plan::default_tiling(c->graph, tiling), {reuse, detected_isa()});
  REQUIRE(compiled.ok());
  c->tiles = std::move(compiled).value();
  return c;
}

std::unique_ptr<Compiled> compile_model(const std::string& path, int threads, bool reuse) {
  const ModelFiles files = read_model_files(path);
  return compile_json(files.json, files.weights, threads, reuse, 2e4);  // many small tiles: more edges to get wrong
}

std::vector<std::string> tiny_models() {
  std::vector<std::string> paths;
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    paths.push_back(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
  }
  return paths;
}

// Calls fn(offset) for every element of `region` in a tensor with these strides.
template <class Fn>
void for_each_element(const ops::Region& r, const std::array<int64_t, ops::kMaxRank>& strides, Fn&& fn) {
  std::vector<int64_t> index(r.begin.begin(), r.begin.begin() + r.rank);
  for (int64_t k = 0; k < r.element_count(); ++k) {
    int64_t offset = 0;
    for (int d = 0; d < r.rank; ++d) offset += index[d] * strides[d];
    fn(offset);
    for (int d = r.rank - 1; d >= 0; --d) {
      if (++index[d] < r.end[d]) break;
      index[d] = r.begin[d];
    }
  }
}

// Runs `tasks` (ascending ids = a topological order) one after another on one thread.
void run_tasks(const tiles::TileGraph& g, const std::vector<uint32_t>& tasks, std::byte* arena, float* scratch) {
  for (uint32_t t : tasks) g.nodes[g.tasks[t].node].kernel->run(g.tasks[t].region, {arena, scratch});
}

std::vector<std::vector<bool>> ancestor_sets(const tiles::TileGraph& g) {
  const size_t n = g.tasks.size();
  std::vector<std::vector<bool>> ancestors(n, std::vector<bool>(n, false));
  for (size_t t = 0; t < n; ++t) {
    for (uint32_t c = g.tasks[t].children_begin; c < g.tasks[t].children_end; ++c) {
      auto& child = ancestors[g.children[c]];
      child[t] = true;
      for (size_t a = 0; a < n; ++a) {
        if (ancestors[t][a]) child[a] = true;
      }
    }
  }
  return ancestors;
}

void copy_inputs(const tiles::TileGraph& g, const std::vector<Tensor>& inputs, std::byte* arena) {
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    std::memcpy(arena + g.inputs[i].arena_offset, inputs[i].floats().data(), 4 * inputs[i].floats().size());
  }
}

TEST_CASE("every output element is written by exactly one tile") {
  for (const std::string& path : tiny_models()) {
    INFO(path);
    auto c = compile_model(path, 3, true);
    for (const tiles::CompiledNode& node : c->tiles.nodes) {
      std::vector<int> written(ops::element_count(node.shape), 0);
      const auto strides = ops::logical_strides(node.shape, ops::Layout::identity(static_cast<int>(node.shape.size())));
      for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t) {
        for_each_element(c->tiles.tasks[t].region, strides, [&](int64_t offset) { ++written[offset]; });
      }
      CHECK(std::all_of(written.begin(), written.end(), [](int w) { return w == 1; }));
    }
  }
}

TEST_CASE("no tile reads bytes that its ancestors did not write") {
  for (const std::string& path : tiny_models()) {
    INFO(path);
    auto c = compile_model(path, 2, true);
    const tiles::TileGraph& g = c->tiles;
    std::vector<Tensor> specs;
    for (const tiles::IoBinding& b : g.inputs) specs.push_back({b.name, b.shape, {}});
    const std::vector<Tensor> inputs = random_inputs(specs, 1);
    AlignedBuffer scratch = AlignedBuffer::allocate(4 * g.scratch_floats + 64);
    AlignedBuffer full = AlignedBuffer::allocate(g.arena_bytes);
    AlignedBuffer arena = AlignedBuffer::allocate(g.arena_bytes);
    // A normal run, recording each task's output bytes right after it ran (reuse may
    // overwrite them later).
    std::vector<std::vector<float>> produced(g.tasks.size());
    std::memset(full.data(), 0, g.arena_bytes);
    copy_inputs(g, inputs, full.data());
    auto output_values = [&](uint32_t t, std::byte* base) {
      const tiles::CompiledNode& node = g.nodes[g.tasks[t].node];
      std::vector<float> values;
      const float* out = reinterpret_cast<const float*>(base + node.output_offset);
      for_each_element(g.tasks[t].region, ops::logical_strides(node.shape, node.layout),
                       [&](int64_t offset) { values.push_back(out[offset]); });
      return values;
    };
    for (uint32_t t = 0; t < g.tasks.size(); ++t) {
      run_tasks(g, {t}, full.data(), scratch.as<float>());
      produced[t] = output_values(t, full.data());
    }
    const auto ancestors = ancestor_sets(g);
    // Instrumented run: only the ancestors, in an arena poisoned three ways.
    const float poisons[] = {std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f};
    for (uint32_t t = 0; t < g.tasks.size(); ++t) {
      std::vector<uint32_t> order;
      for (uint32_t a = 0; a < t; ++a) {
        if (ancestors[t][a]) order.push_back(a);
      }
      order.push_back(t);
      for (float poison : poisons) {
        float* words = arena.as<float>();
        std::fill(words, words + g.arena_bytes / 4, poison);
        copy_inputs(g, inputs, arena.data());
        run_tasks(g, order, arena.data(), scratch.as<float>());
        const std::vector<float> got = output_values(t, arena.data());
        INFO("task " << t << " of node " << g.nodes[g.tasks[t].node].name << ", poison " << poison);
        REQUIRE(std::memcmp(got.data(), produced[t].data(), 4 * got.size()) == 0);
      }
    }
    // Adversarial run: everything that is not a descendant first, then the tile. A missing
    // reuse edge lets some of those overwrite the tile's inputs.
    for (uint32_t t = 0; t < g.tasks.size(); ++t) {
      std::vector<uint32_t> order;
      for (uint32_t x = 0; x < g.tasks.size(); ++x) {
        if (x != t && !ancestors[x][t]) order.push_back(x);
      }
      order.push_back(t);
      std::memset(arena.data(), 0, g.arena_bytes);
      copy_inputs(g, inputs, arena.data());
      run_tasks(g, order, arena.data(), scratch.as<float>());
      const std::vector<float> got = output_values(t, arena.data());
      INFO("task " << t << " of node " << g.nodes[g.tasks[t].node].name << " after all non-descendants");
      REQUIRE(std::memcmp(got.data(), produced[t].data(), 4 * got.size()) == 0);
    }
  }
}

TEST_CASE("a tile writing over bytes other tiles read names them, with the bytes it overwrites and what is stale") {
  // x -> Sin -> Cos -> Exp -> Neg, all of one size: Cos's output takes x's bytes (read by
  // Sin), Exp's Sin's (read by Cos) and Neg's Cos's (read by Exp), tile by tile.
  ModelBuilder b(1);
  std::string y = b.input({64, 64});  // tiled by rows
  for (const char* op : {"Sin", "Cos", "Exp", "Neg"}) y = b.node(op, {y});
  const TestModel m = b.build({y});
  const auto c = compile_json(m.json, m.weights, 2, true, 1e3);
  const tiles::TileGraph& g = c->tiles;
  REQUIRE(g.nodes.size() == 4);
  for (size_t n = 1; n < 4; ++n) {
    const tiles::CompiledNode& writers = g.nodes[n];
    const tiles::CompiledNode& readers = g.nodes[n - 1];
    REQUIRE(writers.task_count >= 2);
    for (uint32_t w = writers.first_task; w < writers.first_task + writers.task_count; ++w) {
      INFO("task " << w << " of " << writers.name);
      std::vector<std::pair<uint32_t, int64_t>> expected, got;
      for (uint32_t r = readers.first_task; r < readers.first_task + readers.task_count; ++r) {
        const ops::Region& a = g.tasks[w].region;
        const ops::Region& b = g.tasks[r].region;
        const int64_t rows = std::min(a.end[0], b.end[0]) - std::max(a.begin[0], b.begin[0]);
        if (rows > 0) expected.emplace_back(r, 4 * 64 * rows);
      }
      for (uint32_t i = g.tasks[w].overwrites_begin; i < g.tasks[w].overwrites_end; ++i) {
        const tiles::Overwrite& o = g.overwrites[i];
        got.emplace_back(o.reader, o.bytes);
        // Every reader is ordered before the writer by a reuse edge.
        const auto children = std::span(g.children)
                                  .subspan(g.tasks[o.reader].children_begin,
                                           g.tasks[o.reader].children_end - g.tasks[o.reader].children_begin);
        CHECK(std::find(children.begin(), children.end(), w) != children.end());
      }
      CHECK(got == expected);
      // All its bytes were written before in this run: nothing is left from the run before.
      CHECK(g.tasks[w].stale_share == 0);
    }
  }
  // Sin's output is the first in its bytes: all of it was last touched a run ago.
  for (uint32_t t = g.nodes[0].first_task; t < g.nodes[0].first_task + g.nodes[0].task_count; ++t) {
    CHECK(g.tasks[t].stale_share == 1);
  }
  // Without reuse no tile writes over another's bytes, and every output's are stale.
  const auto fresh = compile_json(m.json, m.weights, 2, false, 1e3);
  CHECK(fresh->tiles.overwrites.empty());
  for (const tiles::Task& task : fresh->tiles.tasks) CHECK(task.stale_share == 1);
}

TEST_CASE("the simulator replays compiled graphs: every task after its parents, within the work and path bounds") {
  for (const std::string& path : tiny_models()) {
    INFO(path);
    auto c = compile_model(path, 3, true);
    std::vector<double> seconds;
    for (const tiles::Task& task : c->tiles.tasks) seconds.push_back(1e-9 * (task.cost.flops + 1000));
    const std::vector<plan::SimTask> tasks =
        plan::sim_tasks(c->tiles, seconds, plan::uncalibrated_profile("scalar", "native"), 1);
    double work = 0;
    for (double s : seconds) work += s;
    for (plan::SimScheduler scheduler : {plan::SimScheduler::kDynamic, plan::SimScheduler::kBarrier}) {
      for (int threads : {1, 3}) {
        const plan::SimResult r = plan::simulate(tasks, {threads, scheduler, {}});
        if (threads == 1) CHECK(r.latency == Approx(work));
        CHECK(r.latency <= Approx(work));
        CHECK(r.latency >= Approx(std::max(r.critical_path, work / threads)));
        for (size_t t = 0; t < tasks.size(); ++t) {
          for (uint32_t child : tasks[t].children) CHECK(r.events[child].start >= r.events[t].end);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera::testing
