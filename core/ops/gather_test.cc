// Gather against the reference: negative indices, several axes and index ranks (scalar to
// 3-D), row-major and NHWC data, every dtype, run-time int64/int32 ids (embedding lookups,
// clamped when out of range) and rank-0 results; out-of-range constant indices are errors
// naming the node.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("gather matches the reference on every axis with indices of several ranks") {
  const Dims shape{4, 5, 6, 3};
  struct Indices {
    Dims dims;
    std::vector<int64_t> values;
  };
  const std::vector<Indices> index_sets = {
      {{}, {-2}},                      // scalar: drops the axis
      {{3}, {0, -1, 2}},               // vector
      {{2, 3}, {1, 1, -3, 0, 2, -1}},  // matrix, repeated indices
      {{2, 1, 2}, {-1, 0, 2, 1}},      // 3-D
  };
  uint32_t seed = 1;
  for (int axis = -4; axis < 4; ++axis) {
    for (const Indices& ind : index_sets) {
      INFO("axis " << axis << ", indices " << ind.dims.size() << "-D");
      ModelBuilder b(seed++);
      const auto x = b.input(shape);
      const auto indices = b.ints(ind.dims, ind.values);
      const auto y = b.node("Gather", {x, indices}, {{"axis", axis}});
      // And from an NHWC producer, read through its strides.
      const auto z = b.node("Gather", {b.node("Conv", {x, b.weight({5, 5, 1, 1})}), indices}, {{"axis", axis}});
      // And with the same indices given at run time (int32 here).
      std::vector<int32_t> ids(ind.values.begin(), ind.values.end());
      const auto w = b.node("Gather", {x, b.input(int32s(ind.dims, ids))}, {{"axis", axis}});
      check_against_reference(b.build({y, z, w}), {.tolerance = 1e-5, .threads = {1, 3}, .all_isas = axis == 0});
    }
  }
}

TEST_CASE("gather shape inference inserts the index shape at the axis") {
  ModelBuilder b(1);
  const auto x = b.input({4, 5, 6});
  CHECK(b.shape_of(b.node("Gather", {x, b.ints({2, 2}, {0, 1, 2, 3})}, {{"axis", 1}})) == Dims{4, 2, 2, 6});
  CHECK(b.shape_of(b.node("Gather", {x, b.ints({}, {3})}, {{"axis", -1}})) == Dims{4, 5});
  // A scalar index into a 1-D tensor gives a scalar (rank 0), computed by a tile.
  const auto v = b.node("Gather", {b.input({7}), b.ints({}, {-7})});
  CHECK(b.shape_of(v) == Dims{});
  const auto outputs = check_against_reference(b.build({v}), {.tolerance = 0, .threads = {1}});
  CHECK(outputs[0].dims == Dims{});
}

TEST_CASE("gather footprints follow the indices each tile uses") {
  // Embedding-like: a large table, small tiles; each tile reads only its rows.
  ModelBuilder b(4);
  const auto table = b.node("Relu", {b.input({64, 32})});
  std::vector<int64_t> ids;
  for (int i = 0; i < 40; ++i) ids.push_back((i * 37) % 64 - (i % 3 == 0 ? 64 : 0));
  const auto y = b.node("Gather", {table, b.ints({8, 5}, ids)});
  check_against_reference(b.build({y}), {.tolerance = 0, .threads = {3}, .tile_flops = 200});
}

TEST_CASE("gather rejects an out-of-range constant index naming the node") {
  ModelBuilder b(1);
  const auto y = b.node("Gather", {b.input({4, 5}), b.ints({0, 5})}, {{"axis", 1}});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("Gather \"Gather") && Catch::Contains("index 5 is out of range for axis 1 of size 5"));
}

TEST_CASE("gather looks up run-time int64 and int32 token ids in an embedding table") {
  // Hand-computed: table rows r hold {10r, 10r + 1}; ids count from the end when negative.
  ModelBuilder b(1);
  const auto table = b.constant({4, 2}, {0, 1, 10, 11, 20, 21, 30, 31});
  const auto y64 = b.node("Gather", {table, b.input(int64s({2, 2}, {3, -1, 0, -3}))});
  const auto y32 = b.node("Gather", {table, b.input(int32s({3}, {2, 2, -4}))});
  CHECK(b.shape_of(y64) == Dims{2, 2, 2});
  const auto out = check_against_reference(b.build({y64, y32}), {.tolerance = 0});
  CHECK(std::vector<float>(out[0].floats().begin(), out[0].floats().end()) ==
        std::vector<float>{30, 31, 30, 31, 0, 1, 10, 11});
  CHECK(std::vector<float>(out[1].floats().begin(), out[1].floats().end()) == std::vector<float>{20, 21, 20, 21, 0, 1});

  // A BERT-sized lookup from a run-time table, split into small tiles: every tile may read any
  // row, so each depends on the whole table.
  ModelBuilder big(2);
  const auto weights = big.node("Relu", {big.input({512, 64})});
  const auto ids = big.input(random_typed(big.rng(), {4, 33}, DType::kInt64, -512, 511));
  const auto embedded = big.node("Gather", {weights, ids});
  const auto positions =
      big.node("Gather", {big.weight({40, 64}), big.input(random_typed(big.rng(), {33}, DType::kInt32, 0, 39))});
  check_against_reference(big.build({embedded, big.node("Add", {embedded, positions})}),
                          {.tolerance = 1e-6, .threads = {1, 3}, .tile_flops = 2000});
}

TEST_CASE("gather clamps out-of-range run-time ids into the table") {
  // ONNX makes such an id an error; a tile cannot report one, so it reads the nearest row
  // (never memory outside the table). Rows r hold r.
  ModelBuilder b(1);
  const auto table = b.constant({4, 1}, {0, 1, 2, 3});
  const auto y = b.node("Gather", {table, b.input(int64s({5}, {7, -9, 2, INT64_MIN, INT64_MAX}))});
  const auto out = check_against_reference(b.build({y}), {.tolerance = 0});
  CHECK(std::vector<float>(out[0].floats().begin(), out[0].floats().end()) == std::vector<float>{3, 0, 2, 0, 3});
}

TEST_CASE("gather moves data of every dtype, with constant and run-time indices") {
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    INFO(dtype_name(dtype));
    ModelBuilder b(seed++);
    const auto x = b.input(random_typed(b.rng(), {6, 5, 4}, dtype, -100, 100));
    const auto constant = b.node("Gather", {x, b.ints({2, 2}, {4, -1, 0, 3})}, {{"axis", 1}});
    const auto runtime = b.node("Gather", {x, b.input(random_typed(b.rng(), {3, 2}, DType::kInt64, -6, 5))});
    CHECK(b.dtype_of(constant) == dtype);
    CHECK(b.dtype_of(runtime) == dtype);
    check_against_reference(b.build({constant, runtime}), {.tolerance = 0, .all_isas = false, .tile_flops = 100});
  }
  // int64 values beyond 2^53 come out exact (copied as 8-byte elements, not through doubles).
  ModelBuilder b(9);
  const int64_t big = (int64_t{1} << 60) + 1;
  const auto y = b.node("Gather", {b.input(int64s({3}, {big, big + 2, -big})), b.ints({2}, {2, 0})});
  const auto out = check_against_reference(b.build({y}), {.tolerance = 0, .all_isas = false});
  CHECK(std::vector<int64_t>(out[0].values<int64_t>().begin(), out[0].values<int64_t>().end()) ==
        std::vector<int64_t>{-big, big});
}

TEST_CASE("shape arithmetic keeps gather's rank-0 result and folds it at specialisation") {
  // Shape(x) -> Gather(1) -> Unsqueeze(0) -> Concat -> Reshape: the exporters' pattern. With
  // the shape known, every step is a constant: only the Reshape's input remains (a view).
  ModelBuilder b(1);
  const auto x = b.input({2, 3, 4});
  const auto shape = b.node("Shape", {x});
  const auto dim = b.node("Gather", {shape, b.ints({}, {1})});
  CHECK(b.shape_of(dim) == Dims{});
  const auto unsqueezed = b.node("Unsqueeze", {dim, b.ints({0})});
  CHECK(b.shape_of(unsqueezed) == Dims{1});
  const auto target = b.node("Concat", {b.ints({-1}), unsqueezed}, {{"axis", 0}});
  const auto y = b.node("Relu", {b.node("Reshape", {x, target})});
  CHECK(b.shape_of(y) == Dims{8, 3});
  const TestModel model = b.build({y});
  check_against_reference(model, {.tolerance = 0});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].op == "Relu");
}

TEST_CASE("rank-0 run-time values flow through tiles and views") {
  // A scalar picked at run time by a run-time id, unsqueezed (a view of a rank-0 tensor),
  // concatenated, and itself an output.
  ModelBuilder b(3);
  const auto lengths = b.input(int64s({4}, {7, 8, 9, 10}));
  const auto picked = b.node("Gather", {lengths, b.input(int32s({}, {-2}))});
  CHECK(b.shape_of(picked) == Dims{});
  const auto row = b.node("Concat", {b.node("Unsqueeze", {picked, b.ints({0})}), lengths}, {{"axis", 0}});
  const auto out = check_against_reference(b.build({picked, row}), {.tolerance = 0});
  CHECK(out[0].dims == Dims{});
  CHECK(out[0].values<int64_t>()[0] == 9);
  CHECK(std::vector<int64_t>(out[1].values<int64_t>().begin(), out[1].values<int64_t>().end()) ==
        std::vector<int64_t>{9, 7, 8, 9, 10});
}

}  // namespace
}  // namespace tessera::testing
