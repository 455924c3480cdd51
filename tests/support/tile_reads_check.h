// Checks an op's footprints on an in-memory model: compiled into many small tiles, every tile
// must produce the bytes of a normal run when only its ancestors have run, in an arena
// poisoned three ways. A footprint that misses something its kernel reads (so no edge orders
// the producer first) shows up as poison in the tile's output. (tests/tile_graph_test.cc runs
// the same check on the zoo models; this one takes any TestModel, of any dtypes.)
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "core/base/cpu_features.h"
#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/plan/default_tiling.h"
#include "core/tiles/compile.h"
#include "tests/support/op_model.h"

namespace tessera::testing {

inline void check_tile_reads(const TestModel& model, int threads = 3, double tile_flops = 40) {
  AlignedBuffer weights = AlignedBuffer::allocate(model.weights.size());
  if (!model.weights.empty()) std::memcpy(weights.data(), model.weights.data(), model.weights.size());
  auto desc = model::load_model(model.json, std::move(weights));
  REQUIRE(desc.ok());
  auto built = graph::build_graph(*desc);
  REQUIRE(built.ok());
  graph::Graph& g = built.value();
  REQUIRE(graph::optimize(g).ok());
  plan::TilingOptions tiling;
  tiling.threads = threads;
  tiling.target_tile_flops = tile_flops;
  tiling.min_tile_flops = tile_flops;
  auto compiled = tiles::compile(g, plan::default_tiling(g, tiling), {true, detected_isa()});
  REQUIRE(compiled.ok());
  const tiles::TileGraph& t = compiled.value();

  // Each task's output bytes, element by element in the region (any dtype).
  auto output_bytes = [&](uint32_t task, const std::byte* arena) {
    const tiles::CompiledNode& node = t.nodes[t.tasks[task].node];
    size_t size = 4;
    for (const graph::Node& n : g.nodes) {
      if (n.name == node.name) size = dtype_size(g.tensors[n.output].dtype);
    }
    const ops::Region& r = t.tasks[task].region;
    const auto strides = ops::logical_strides(node.shape, node.layout);
    std::vector<std::byte> bytes;
    std::vector<int64_t> index(r.begin.begin(), r.begin.begin() + r.rank);
    for (int64_t k = 0; k < r.element_count(); ++k) {
      int64_t offset = 0;
      for (int d = 0; d < r.rank; ++d) offset += index[d] * strides[d];
      const std::byte* e = arena + node.output_offset + offset * static_cast<int64_t>(size);
      bytes.insert(bytes.end(), e, e + size);
      for (int d = r.rank - 1; d >= 0; --d) {
        if (++index[d] < r.end[d]) break;
        index[d] = r.begin[d];
      }
    }
    return bytes;
  };
  AlignedBuffer arena = AlignedBuffer::allocate(static_cast<size_t>(t.arena_bytes) + 64);
  AlignedBuffer scratch = AlignedBuffer::allocate(4 * static_cast<size_t>(t.scratch_floats) + 64);
  auto reset = [&](std::byte fill) {
    std::memset(arena.data(), static_cast<int>(fill), static_cast<size_t>(t.arena_bytes));
    for (const tiles::IoBinding& in : t.inputs) {
      for (const Tensor& given : model.inputs) {
        if (given.name == in.name) std::memcpy(arena.data() + in.arena_offset, given.bytes.data(), given.bytes.size());
      }
    }
  };
  auto run = [&](uint32_t task) {
    t.nodes[t.tasks[task].node].kernel->run(t.tasks[task].region, {arena.data(), scratch.as<float>()});
  };
  // A normal run in task order (a topological order), recording each task's output.
  std::vector<std::vector<std::byte>> produced(t.tasks.size());
  reset(std::byte{0});
  for (uint32_t task = 0; task < t.tasks.size(); ++task) {
    run(task);
    produced[task] = output_bytes(task, arena.data());
  }
  std::vector<std::vector<bool>> ancestors(t.tasks.size(), std::vector<bool>(t.tasks.size(), false));
  for (uint32_t task = 0; task < t.tasks.size(); ++task) {
    for (uint32_t c = t.tasks[task].children_begin; c < t.tasks[task].children_end; ++c) {
      std::vector<bool>& child = ancestors[t.children[c]];
      child[task] = true;
      for (size_t a = 0; a < t.tasks.size(); ++a) child[a] = child[a] || ancestors[task][a];
    }
  }
  for (uint32_t task = 0; task < t.tasks.size(); ++task) {
    for (std::byte poison : {std::byte{0xff}, std::byte{0x7f}, std::byte{0xa5}}) {
      reset(poison);
      for (uint32_t a = 0; a < task; ++a) {
        if (ancestors[task][a]) run(a);
      }
      run(task);
      INFO("task " << task << " of " << t.nodes[t.tasks[task].node].name << ", poison " << int(poison));
      REQUIRE(output_bytes(task, arena.data()) == produced[task]);
    }
  }
}

}  // namespace tessera::testing
