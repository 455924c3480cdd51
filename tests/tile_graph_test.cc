// Properties of compiled tile graphs on the tiny zoo models and on small models of the
// index ops (run-time indices, scatters, typed data):
// - every output element is written by exactly one tile;
// - no tile reads bytes its ancestors did not write (an instrumented run: each tile runs
//   after only its ancestors, in an arena poisoned three ways, and must still produce the
//   bytes of a normal run);
// - no tile overwrites bytes another tile still has to read (an adversarial run: every tile
//   that does not depend on a tile runs before it, and must leave its inputs intact).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/cpu_features.h"
#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/plan/default_tiling.h"
#include "core/tiles/compile.h"
#include "tests/support/reference_run.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

struct Compiled {
  graph::Graph graph;
  tiles::TileGraph tiles;
  std::vector<size_t> element_bytes;  // per compiled node: the size of its output's elements
};

// A model to compile, with the inputs to run it on.
struct Case {
  std::string name;
  std::string json;
  std::vector<uint8_t> weights;
  std::vector<Tensor> inputs;
  double tile_flops = 2e4;  // many small tiles: more edges to get wrong
};

std::unique_ptr<Compiled> compile_model(const Case& m, int threads, bool reuse) {
  AlignedBuffer weights = AlignedBuffer::allocate(m.weights.size());
  if (!m.weights.empty()) std::memcpy(weights.data(), m.weights.data(), m.weights.size());
  auto desc = model::load_model(m.json, std::move(weights));
  REQUIRE(desc.ok());
  auto c = std::make_unique<Compiled>();
  auto g = graph::build_graph(*desc);
  REQUIRE(g.ok());
  c->graph = std::move(g).value();
  REQUIRE(graph::optimize(c->graph).ok());
  plan::TilingOptions tiling;
  tiling.threads = threads;
  tiling.target_tile_flops = m.tile_flops;
  auto compiled = tiles::compile(c->graph, plan::default_tiling(c->graph, tiling), {reuse, detected_isa()});
  REQUIRE(compiled.ok());
  c->tiles = std::move(compiled).value();
  for (const tiles::CompiledNode& node : c->tiles.nodes) {
    for (const graph::Node& n : c->graph.nodes) {
      if (n.name == node.name) c->element_bytes.push_back(dtype_size(c->graph.tensors[n.output].dtype));
    }
  }
  REQUIRE(c->element_bytes.size() == c->tiles.nodes.size());
  return c;
}

// The tiny zoo models on seeded random inputs.
std::vector<Case> tiny_models() {
  std::vector<Case> cases;
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
    auto model = Model::load(files.json, files.weights, {});
    REQUIRE(model.ok());
    auto inputs = model.value()->random_inputs({}, 1);
    REQUIRE(inputs.ok());
    cases.push_back({name, files.json, files.weights, *inputs});
  }
  return cases;
}

// Index ops whose footprints depend on run-time data or wrap around: an embedding lookup with
// run-time ids, GatherElements/GatherND/ScatterElements/ScatterND on tiled producers, Tile,
// TopK and ArgMax rows, OneHot, and typed moves.
std::vector<Case> index_op_models() {
  ModelBuilder b(11);
  const auto table = b.node("Relu", {b.input({40, 24})});
  const auto ids = b.input(random_typed(b.rng(), {3, 9}, DType::kInt64, -40, 39));
  const auto embedded = b.node("Gather", {table, ids});  // [3, 9, 24]
  const auto data = b.node("Sigmoid", {b.input({3, 12, 24})});
  const auto picked = b.node("GatherElements", {data, b.node("ArgMax", {embedded}, {{"axis", 1}})}, {{"axis", 1}});
  const auto rows = b.node("GatherND", {data, b.input(random_typed(b.rng(), {3, 5, 1}, DType::kInt32, 0, 11))},
                           {{"batch_dims", 1}});  // [3, 5, 24]
  const auto scattered =
      b.node("ScatterElements", {data, b.input(random_typed(b.rng(), {3, 9, 24}, DType::kInt64, -12, 11)), embedded},
             {{"axis", 1}, {"reduction", "add"}});
  const auto planes = b.node("ScatterND", {scattered, b.input(random_typed(b.rng(), {4, 2}, DType::kInt64, 0, 2)),
                                           b.node("Tanh", {b.input({4, 24})})});
  const auto tiled = b.node("Tile", {b.node("Relu", {b.input({2, 5, 7})}), b.ints({3, 2, 2})});
  const auto top = b.node_outputs("TopK", {planes, b.ints({3})}, {{"axis", 1}}, 2);
  const auto hot = b.node("OneHot", {top[1], b.ints({}, {12}), b.constant({2}, {0, 1})}, {{"axis", 1}});
  const auto lengths = b.input(random_typed(b.rng(), {6, 10}, DType::kInt32, -5, 5));
  const auto moved = b.node("Concat",
                            {b.node("Transpose", {lengths}),
                             b.node("Pad", {b.node("Transpose", {lengths}), b.ints({0, 0, 0, 2})}, {{"mode", "edge"}})},
                            {{"axis", 1}});
  const TestModel m = b.build({picked, rows, top[0], hot, tiled, moved});
  return {{"index ops", m.json, m.weights, m.inputs, 800}};
}

std::vector<Case> all_models() {
  std::vector<Case> cases = tiny_models();
  for (Case& c : index_op_models()) cases.push_back(std::move(c));
  return cases;
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
  for (const tiles::IoBinding& input : g.inputs) {
    for (const Tensor& t : inputs) {
      if (t.name == input.name) std::memcpy(arena + input.arena_offset, t.bytes.data(), t.bytes.size());
    }
  }
}

TEST_CASE("every output element is written by exactly one tile") {
  for (const Case& m : all_models()) {
    INFO(m.name);
    auto c = compile_model(m, 3, true);
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
  for (const Case& m : all_models()) {
    INFO(m.name);
    auto c = compile_model(m, 2, true);
    const tiles::TileGraph& g = c->tiles;
    const std::vector<Tensor>& inputs = m.inputs;
    AlignedBuffer scratch = AlignedBuffer::allocate(4 * g.scratch_floats + 64);
    AlignedBuffer full = AlignedBuffer::allocate(g.arena_bytes);
    AlignedBuffer arena = AlignedBuffer::allocate(g.arena_bytes);
    // A normal run, recording each task's output bytes right after it ran (reuse may
    // overwrite them later).
    std::vector<std::vector<std::byte>> produced(g.tasks.size());
    std::memset(full.data(), 0, g.arena_bytes);
    copy_inputs(g, inputs, full.data());
    auto output_values = [&](uint32_t t, std::byte* base) {
      const tiles::CompiledNode& node = g.nodes[g.tasks[t].node];
      const size_t size = c->element_bytes[g.tasks[t].node];
      std::vector<std::byte> values;
      const std::byte* out = base + node.output_offset;
      for_each_element(g.tasks[t].region, ops::logical_strides(node.shape, node.layout), [&](int64_t offset) {
        values.insert(values.end(), out + offset * size, out + (offset + 1) * size);
      });
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
        INFO("task " << t << " of node " << g.nodes[g.tasks[t].node].name << ", poison " << poison);
        REQUIRE(output_values(t, arena.data()) == produced[t]);
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
      INFO("task " << t << " of node " << g.nodes[g.tasks[t].node].name << " after all non-descendants");
      REQUIRE(output_values(t, arena.data()) == produced[t]);
    }
  }
}

}  // namespace
}  // namespace tessera::testing
