// Tile (repeats per dimension, any dtype, modular footprints), OneHot (axis, negative and
// out-of-range indices, float indices and depth, values of any dtype) and NonZero (only on
// inputs known at specialisation), against the reference and hand-computed values.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("tile matches the reference for repeats on every dimension and every dtype") {
  const std::vector<std::vector<int64_t>> repeat_sets = {{1, 1, 1}, {3, 1, 2}, {1, 4, 1}, {2, 3, 5}};
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    for (const auto& repeats : repeat_sets) {
      INFO(dtype_name(dtype) << " repeats " << repeats[0] << "," << repeats[1] << "," << repeats[2]);
      ModelBuilder b(seed++);
      const auto x = b.input(random_typed(b.rng(), {3, 1, 4}, dtype, -50, 50));
      const auto y = b.node("Tile", {x, b.ints(repeats)});
      CHECK(b.shape_of(y) == Dims{3 * repeats[0], repeats[1], 4 * repeats[2]});
      CHECK(b.dtype_of(y) == dtype);
      const TestModel model = b.build({y});
      check_against_reference(model, {.tolerance = 0, .all_isas = false});
      check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 7});
    }
  }
}

TEST_CASE("tile gives the ONNX example and reads one period per tile from a producer") {
  ModelBuilder b(1);
  const auto y = b.node("Tile", {b.input(floats({2, 2}, {0, 1, 2, 3})), b.ints({2, 2})});
  const auto out = check_against_reference(b.build({y}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3});

  // test_tile's shapes, from a run-time producer tiled finely: footprints wrap around.
  ModelBuilder big(2);
  const auto z = big.node("Tile", {big.node("Relu", {big.input({2, 3, 4, 5})}), big.ints({7, 6, 4, 2})});
  CHECK(big.shape_of(z) == Dims{14, 18, 16, 10});
  check_against_reference(big.build({z}), {.tolerance = 0, .threads = {1, 3}, .tile_flops = 3000});
}

TEST_CASE("one hot matches the ONNX examples") {
  ModelBuilder b(1);
  const auto depth10 = b.constant({}, {10});
  const auto values = b.constant({2}, {1, 3});
  // test_onehot_with_axis, _with_negative_axis, _negative_indices, _without_axis.
  const auto with_axis = b.node("OneHot", {b.input(floats({2, 2}, {1, 9, 2, 4})), depth10, values}, {{"axis", 1}});
  const auto negative_axis = b.node("OneHot", {b.input(floats({2, 2}, {1, 9, 2, 4})), depth10, values}, {{"axis", -2}});
  const auto negative = b.node("OneHot", {b.input(int64s({3}, {0, -7, -8})), depth10, values}, {{"axis", 1}});
  const auto without_axis =
      b.node("OneHot", {b.input(int64s({3}, {0, 7, 8})), b.constant({}, {12}), b.constant(int32s({2}, {2, 5}))});
  CHECK(b.shape_of(with_axis) == Dims{2, 10, 2});
  CHECK(b.dtype_of(without_axis) == DType::kInt32);
  const auto out =
      check_against_reference(b.build({with_axis, negative_axis, negative, without_axis}), {.tolerance = 0});
  std::vector<float> expected(40, 1);
  for (const auto& [i, j, hot] : std::vector<std::tuple<int, int, int>>{{0, 0, 1}, {0, 1, 9}, {1, 0, 2}, {1, 1, 4}}) {
    expected[(i * 10 + hot) * 2 + j] = 3;
  }
  CHECK(values_of<float>(out[0]) == expected);
  CHECK(values_of<float>(out[1]) == expected);
  std::vector<float> rows(30, 1);
  rows[0] = rows[10 + 3] = rows[20 + 2] = 3;
  CHECK(values_of<float>(out[2]) == rows);
  std::vector<int32_t> ints(36, 2);
  ints[0] = ints[12 + 7] = ints[24 + 8] = 5;
  CHECK(values_of<int32_t>(out[3]) == ints);
}

TEST_CASE("one hot matches the reference on every axis, index dtype and value dtype, out of range included") {
  uint32_t seed = 1;
  for (DType index_dtype : {DType::kInt64, DType::kInt32, DType::kUInt8, DType::kFloat32}) {
    for (DType value_dtype : all_dtypes()) {
      for (int axis = -4; axis < 4; ++axis) {
        INFO(dtype_name(index_dtype) << " -> " << dtype_name(value_dtype) << " axis " << axis);
        ModelBuilder b(seed++);
        const int64_t lo = index_dtype == DType::kUInt8 ? 0 : -9;
        const auto indices = b.input(random_typed(b.rng(), {3, 4, 5}, index_dtype, lo, 9));  // depth 7: some off
        const auto values = b.input(converted({2}, value_dtype, {4, 9}));
        const auto y = b.node("OneHot", {indices, b.ints({}, {7}), values}, {{"axis", axis}});
        CHECK(b.dtype_of(y) == value_dtype);
        const TestModel model = b.build({y});
        check_against_reference(model, {.tolerance = 0, .all_isas = false});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 10});
      }
    }
  }
}

TEST_CASE("one hot needs its depth at specialisation") {
  ModelBuilder b(1);
  const auto y = b.node("OneHot", {b.input(int64s({2}, {0, 1})), b.input(int64s({}, {3})), b.constant({2}, {0, 1})});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("OneHot \"OneHot") && Catch::Contains("depth") && Catch::Contains("specialised"));
}

TEST_CASE("non zero lists coordinates of a constant and is folded") {
  ModelBuilder b(1);
  // test_nonzero_example, then used as Gather indices (a common export pattern).
  const auto coordinates = b.node("NonZero", {b.constant(bools({2, 2}, {1, 0, 1, 1}))});
  CHECK(b.shape_of(coordinates) == Dims{2, 3});
  CHECK(b.dtype_of(coordinates) == DType::kInt64);
  const auto floats = b.node("NonZero", {b.constant({5}, {0, 2.5f, 0, -1, 0})});
  const auto picked = b.node("Gather", {b.input({5, 3}), floats}, {{"axis", 0}});
  CHECK(b.shape_of(picked) == Dims{1, 2, 3});
  const TestModel model = b.build({coordinates, picked});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].op == "Gather");
  const auto out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{0, 1, 1, 0, 0, 1});
}

TEST_CASE("non zero on run-time data is an error naming the node") {
  ModelBuilder b(1);
  const auto y = b.node("NonZero", {b.input({2, 3})});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("NonZero \"NonZero") &&
                 Catch::Contains("NonZero needs its input known when the model is specialised: its output size "
                                 "depends on the data"));
}

}  // namespace
}  // namespace tessera::testing
