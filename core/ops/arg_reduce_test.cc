// ArgMax and ArgMin: every axis, keepdims, select_last_index, float32/int64/int32 inputs,
// NHWC inputs, ties and NaN, against the reference and hand-computed values (the ONNX
// backend tests' examples among them).
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("argmax and argmin match the reference on every axis, keepdims and tie rule") {
  uint32_t seed = 1;
  for (const char* op : {"ArgMax", "ArgMin"}) {
    for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32}) {
      for (int axis = -3; axis < 3; ++axis) {
        INFO(op << " " << dtype_name(dtype) << " axis " << axis);
        ModelBuilder b(seed++);
        // Few distinct values: many ties.
        const auto x = b.input(random_typed(b.rng(), {4, 7, 6}, dtype, -3, 3));
        std::vector<std::string> outputs;
        for (int keepdims = 0; keepdims < 2; ++keepdims) {
          for (int last = 0; last < 2; ++last) {
            const auto y = b.node(op, {x}, {{"axis", axis}, {"keepdims", keepdims}, {"select_last_index", last}});
            CHECK(b.dtype_of(y) == DType::kInt64);
            outputs.push_back(y);
          }
        }
        const TestModel model = b.build(outputs);
        check_against_reference(model, {.tolerance = 0, .all_isas = false});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 20});
      }
    }
  }
}

TEST_CASE("argmax gives the ONNX examples' indices") {
  // test_argmax_default_axis_example and test_argmin_keepdims_example_select_last_index.
  ModelBuilder b(1);
  const auto x = b.input(floats({2, 2}, {2, 1, 3, 10}));
  const auto max = b.node("ArgMax", {x}, {{"keepdims", 1}});
  CHECK(b.shape_of(max) == Dims{1, 2});
  const auto min_last = b.node("ArgMin", {b.input(floats({2, 2}, {2, 2, 3, 10}))},
                               {{"axis", 1}, {"keepdims", 1}, {"select_last_index", 1}});
  const auto min_first =
      b.node("ArgMin", {b.input(int32s({2, 3}, {5, -1, -1, 4, 4, 9}))}, {{"axis", -1}, {"keepdims", 0}});
  CHECK(b.shape_of(min_first) == Dims{2});
  // NaN ranks above every number: ArgMax finds it, ArgMin passes it by.
  const float nan = std::nanf("");
  const auto with_nan = b.input(floats({4}, {1, nan, 7, nan}));
  const auto max_nan = b.node("ArgMax", {with_nan}, {{"keepdims", 0}});
  const auto max_nan_last = b.node("ArgMax", {with_nan}, {{"keepdims", 0}, {"select_last_index", 1}});
  const auto min_nan = b.node("ArgMin", {with_nan}, {{"keepdims", 0}});
  CHECK(b.shape_of(max_nan) == Dims{});
  const auto out =
      check_against_reference(b.build({max, min_last, min_first, max_nan, max_nan_last, min_nan}), {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{1, 1});
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{1, 0});
  CHECK(values_of<int64_t>(out[2]) == std::vector<int64_t>{1, 0});
  CHECK(values_of<int64_t>(out[3]) == std::vector<int64_t>{1});
  CHECK(values_of<int64_t>(out[4]) == std::vector<int64_t>{3});
  CHECK(values_of<int64_t>(out[5]) == std::vector<int64_t>{0});
}

TEST_CASE("argmax over the channels of an NHWC map reads it through its strides") {
  // A segmentation head: Conv (NHWC inside) then ArgMax over channels, tiled by rows.
  ModelBuilder b(5);
  const auto x = b.input({1, 8, 12, 10});
  const auto scores = b.node("Conv", {x, b.weight({5, 8, 1, 1})});
  const auto classes = b.node("ArgMax", {scores}, {{"axis", 1}, {"keepdims", 0}});
  CHECK(b.shape_of(classes) == Dims{1, 12, 10});
  check_against_reference(b.build({classes}), {.tolerance = 0, .threads = {1, 3}, .tile_flops = 500});
}

TEST_CASE("argmax of a constant is folded and bad inputs are errors") {
  ModelBuilder b(1);
  const auto folded = b.node("ArgMax", {b.ints({3, 9, 2})}, {{"keepdims", 0}});
  const auto y = b.node("Add", {b.input({1}), b.constant({1}, {1})});
  const TestModel model = b.build({folded, y});
  const ModelInfo info = compiled_info(model);
  CHECK(info.nodes.size() == 1);
  const auto out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{1});

  ModelBuilder bad(2);
  const auto z = bad.node("ArgMax", {bad.input(bools({3}, {0, 1, 0}))});
  const TestModel bad_model = bad.build({z});
  auto error = Model::load(bad_model.json, bad_model.weights, {});
  REQUIRE(!error.ok());
  CHECK_THAT(error.status().message(), Catch::Contains("ArgMax \"ArgMax") && Catch::Contains("is bool"));
}

}  // namespace
}  // namespace tessera::testing
