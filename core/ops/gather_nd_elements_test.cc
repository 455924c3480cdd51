// GatherElements and GatherND: every axis / batch_dims, constant and run-time (int64, int32)
// indices, negative and clamped indices, every dtype, against the reference and the ONNX
// backend tests' values.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("gather elements matches the reference on every axis with constant and run-time indices") {
  uint32_t seed = 1;
  const Dims data_shape{4, 5, 6};
  for (int axis = -3; axis < 3; ++axis) {
    INFO("axis " << axis);
    const int a = axis < 0 ? axis + 3 : axis;
    Dims indices_shape{3, 4, 5};  // no larger than the data outside the axis
    indices_shape[a] = 7;         // any size along it
    ModelBuilder b(seed++);
    const auto x = b.node("Relu", {b.input(data_shape)});
    const int64_t size = data_shape[a];
    const auto constant = b.constant(random_typed(b.rng(), indices_shape, DType::kInt64, -size, size - 1));
    const auto runtime = b.input(random_typed(b.rng(), indices_shape, DType::kInt32, -size, size - 1));
    const auto y = b.node("GatherElements", {x, constant}, {{"axis", axis}});
    const auto z = b.node("GatherElements", {x, runtime}, {{"axis", axis}});
    CHECK(b.shape_of(y) == indices_shape);
    check_against_reference(b.build({y, z}), {.tolerance = 0, .threads = {1, 3}, .all_isas = false, .tile_flops = 40});
  }
}

TEST_CASE("gather elements gives the ONNX examples' values on every dtype") {
  // test_gather_elements_1 (run-time indices) and _negative_indices (constant), with the data
  // held in each dtype.
  for (DType dtype : all_dtypes()) {
    INFO(dtype_name(dtype));
    ModelBuilder b(1);
    const auto x = b.input(converted({3, 3}, dtype, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
    const auto y1 = b.node("GatherElements", {x, b.input(int64s({2, 3}, {1, 2, 0, 2, 0, 0}))});
    const auto y2 = b.node("GatherElements", {x, b.ints({2, 3}, {-1, -2, 0, -2, 0, 0})});
    const auto y3 = b.node("GatherElements", {x, b.input(int32s({2, 2}, {0, 0, 1, 0}))}, {{"axis", 1}});
    const auto out = check_against_reference(b.build({y1, y2, y3}), {.tolerance = 0, .all_isas = false});
    CHECK(out[0].dtype == dtype);
    CHECK(as_ints(out[0]) == held_as(dtype, {4, 8, 3, 7, 2, 3}));
    CHECK(as_ints(out[1]) == held_as(dtype, {7, 5, 3, 4, 2, 3}));
    CHECK(as_ints(out[2]) == held_as(dtype, {1, 1, 5, 4}));  // test_gather_elements_0 on rows of 3
  }
}

TEST_CASE("gather elements clamps run-time indices and rejects bad constant ones") {
  ModelBuilder b(1);
  const auto y =
      b.node("GatherElements", {b.input(floats({4}, {10, 11, 12, 13})), b.input(int64s({5}, {9, -9, -1, 4, -4}))});
  const auto out = check_against_reference(b.build({y}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{13, 10, 13, 13, 10});

  ModelBuilder bad(2);
  const auto z = bad.node("GatherElements", {bad.input({2, 3}), bad.ints({1, 3}, {0, 3, 1})}, {{"axis", 1}});
  const TestModel model = bad.build({z});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("GatherElements \"GatherElements") && Catch::Contains("index 3 is out of range"));
}

TEST_CASE("gather nd matches the reference for every tuple length and batch_dims") {
  struct Case {
    Dims data, indices;
    int batch_dims;
    Dims expected;
  };
  const std::vector<Case> cases = {
      {{5, 6, 7}, {4, 1}, 0, {4, 6, 7}},        // rows
      {{5, 6, 7}, {2, 3, 2}, 0, {2, 3, 7}},     // pairs
      {{5, 6, 7}, {3, 3}, 0, {3}},              // single elements
      {{5, 6, 7}, {5, 4, 1}, 1, {5, 4, 7}},     // batched rows
      {{5, 6, 7}, {5, 6, 2, 1}, 2, {5, 6, 2}},  // two batch dims
      {{5, 6, 7}, {5, 2}, 1, {5}},              // batched elements
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO("case " << seed);
    ModelBuilder b(seed++);
    const auto x = b.node("Relu", {b.input(c.data)});
    // Tuples of indices within the smallest data dimension they may address, negatives too.
    const auto constant = b.constant(random_typed(b.rng(), c.indices, DType::kInt64, -5, 4));
    const auto runtime = b.input(random_typed(b.rng(), c.indices, DType::kInt32, -5, 4));
    const auto y = b.node("GatherND", {x, constant}, {{"batch_dims", c.batch_dims}});
    const auto z = b.node("GatherND", {x, runtime}, {{"batch_dims", c.batch_dims}});
    CHECK(b.shape_of(y) == c.expected);
    check_against_reference(b.build({y, z}), {.tolerance = 0, .threads = {1, 3}, .all_isas = false, .tile_flops = 30});
  }
}

TEST_CASE("gather nd gives the ONNX examples' values") {
  ModelBuilder b(1);
  const auto y1 = b.node("GatherND", {b.input(int32s({2, 2}, {0, 1, 2, 3})), b.ints({2, 2}, {0, 0, 1, 1})});
  const auto y2 = b.node(
      "GatherND", {b.input(floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})), b.input(int64s({2, 1, 2}, {0, 1, 1, 0}))});
  const auto y3 =
      b.node("GatherND", {b.input(int32s({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})), b.input(int64s({2, 1}, {1, 0}))},
             {{"batch_dims", 1}});
  // A scalar result: one tuple addressing every dimension; a clamped run-time tuple.
  const auto y4 = b.node("GatherND", {b.input(int64s({2, 3}, {5, 6, 7, 8, 9, 10})), b.input(int64s({2}, {-1, 7}))});
  CHECK(b.shape_of(y4) == Dims{});
  const auto out = check_against_reference(b.build({y1, y2, y3, y4}), {.tolerance = 0});
  CHECK(values_of<int32_t>(out[0]) == std::vector<int32_t>{0, 3});
  CHECK(values_of<float>(out[1]) == std::vector<float>{2, 3, 4, 5});
  CHECK(values_of<int32_t>(out[2]) == std::vector<int32_t>{2, 3, 4, 5});
  CHECK(values_of<int64_t>(out[3]) == std::vector<int64_t>{10});
}

TEST_CASE("gather nd on constants is folded and checks its shapes") {
  ModelBuilder b(1);
  const auto folded = b.node("GatherND", {b.ints({2, 2}, {1, 2, 3, 4}), b.ints({1, 2}, {1, 0})});
  const auto y = b.node("Relu", {b.input({2})});
  const TestModel model = b.build({folded, y});
  const ModelInfo info = compiled_info(model);
  CHECK(info.nodes.size() == 1);
  CHECK(values_of<int64_t>(check_against_reference(model, {.tolerance = 0})[0]) == std::vector<int64_t>{3});

  for (const auto& [indices, message] :
       std::vector<std::pair<Dims, std::string>>{{{2, 4}, "index tuples have 4 elements, expected 1 to 3"}}) {
    ModelBuilder bad(2);
    const auto z =
        bad.node("GatherND", {bad.input({2, 3, 4}), bad.input(random_typed(bad.rng(), indices, DType::kInt64, 0, 1))});
    const TestModel bad_model = bad.build({z});
    auto error = Model::load(bad_model.json, bad_model.weights, {});
    REQUIRE(!error.ok());
    CHECK_THAT(error.status().message(), Catch::Contains("GatherND \"GatherND") && Catch::Contains(message));
  }
}

}  // namespace
}  // namespace tessera::testing
