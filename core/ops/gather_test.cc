// Gather against the reference: negative indices, several axes and index ranks (scalar to
// 3-D), row-major and NHWC data; out-of-range indices are errors naming the node.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

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
      check_against_reference(b.build({y, z}), {.tolerance = 1e-5, .threads = {1, 3}, .all_isas = axis == 0});
    }
  }
}

TEST_CASE("gather shape inference inserts the index shape at the axis") {
  ModelBuilder b(1);
  const auto x = b.input({4, 5, 6});
  CHECK(b.shape_of(b.node("Gather", {x, b.ints({2, 2}, {0, 1, 2, 3})}, {{"axis", 1}})) == Dims{4, 2, 2, 6});
  CHECK(b.shape_of(b.node("Gather", {x, b.ints({}, {3})}, {{"axis", -1}})) == Dims{4, 5});
  // A scalar index into a 1-D tensor keeps its (scalar) result as [1].
  const auto v = b.node("Gather", {b.input({7}), b.ints({}, {-7})});
  CHECK(b.shape_of(v) == Dims{1});
  check_against_reference(b.build({v}), {.tolerance = 0, .threads = {1}});
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

TEST_CASE("gather rejects an out-of-range index naming the node") {
  ModelBuilder b(1);
  const auto y = b.node("Gather", {b.input({4, 5}), b.ints({0, 5})}, {{"axis", 1}});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("Gather \"Gather") && Catch::Contains("index 5 is out of range for axis 1 of size 5"));
}

}  // namespace
}  // namespace tessera::testing
