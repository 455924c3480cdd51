// TopK: two outputs (values, int64 indices), every axis, largest and smallest, ties to the
// lower index, NaN, K as input or (opset 1) attribute, against the reference and the ONNX
// backend tests' values.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("top k matches the reference on every axis, order and dtype") {
  uint32_t seed = 1;
  for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32}) {
    for (int axis = -3; axis < 3; ++axis) {
      for (int largest = 0; largest < 2; ++largest) {
        INFO(dtype_name(dtype) << " axis " << axis << " largest " << largest);
        ModelBuilder b(seed++);
        // Few distinct values: many ties, which must keep index order.
        const auto x = b.input(random_typed(b.rng(), {5, 6, 7}, dtype, -4, 4));
        const auto k = b.ints({3});
        const auto outputs = b.node_outputs("TopK", {x, k}, {{"axis", axis}, {"largest", largest}}, 2);
        CHECK(b.dtype_of(outputs[0]) == dtype);
        CHECK(b.dtype_of(outputs[1]) == DType::kInt64);
        const TestModel model = b.build(outputs);
        check_against_reference(model, {.tolerance = 0, .all_isas = false});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 30});
      }
    }
  }
}

TEST_CASE("top k gives the ONNX examples' values and indices") {
  ModelBuilder b(1);
  const auto x = b.input(floats({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  const auto top = b.node_outputs("TopK", {x, b.ints({3})}, {{"axis", 1}}, 2);
  CHECK(b.shape_of(top[0]) == Dims{3, 3});
  const auto smallest =
      b.node_outputs("TopK", {b.input(floats({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8})), b.ints({3})},
                     {{"axis", 1}, {"largest", 0}, {"sorted", 1}}, 2);
  // Ties: equal values come out in index order.
  const auto low = b.node_outputs("TopK", {b.input(int64s({5}, {2, 5, 2, 9, 5})), b.ints({3})}, {{"largest", 0}}, 2);
  const auto ties = b.node_outputs("TopK", {b.input(floats({6}, {2, 5, 2, -1, 5, 2})), b.ints({}, {4})}, {}, 2);
  const auto out = check_against_reference(
      b.build({top[0], top[1], smallest[0], smallest[1], low[0], low[1], ties[0], ties[1]}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{3, 2, 1, 7, 6, 5, 11, 10, 9});
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{3, 2, 1, 3, 2, 1, 3, 2, 1});
  CHECK(values_of<float>(out[2]) == std::vector<float>{0, 1, 2, 4, 5, 6, 8, 9, 10});
  CHECK(values_of<int64_t>(out[3]) == std::vector<int64_t>{0, 1, 2, 0, 1, 2, 3, 2, 1});
  CHECK(values_of<int64_t>(out[4]) == std::vector<int64_t>{2, 2, 5});
  CHECK(values_of<int64_t>(out[5]) == std::vector<int64_t>{0, 2, 1});
  CHECK(values_of<float>(out[6]) == std::vector<float>{5, 5, 2, 2});
  CHECK(values_of<int64_t>(out[7]) == std::vector<int64_t>{1, 4, 0, 2});
}

TEST_CASE("top k ranks NaN above every number") {
  // NaN compares false to everything, so the comparison needs a total order (and NaN != NaN
  // rules out the reference comparison: values are checked here by hand).
  const float nan = std::nanf("");
  ModelBuilder b(1);
  const auto x = b.input(floats({6}, {2, nan, 2, 7, nan, -1}));
  const auto largest = b.node_outputs("TopK", {x, b.ints({4})}, {}, 2);
  const auto smallest = b.node_outputs("TopK", {x, b.ints({5})}, {{"largest", 0}}, 2);
  const auto out =
      check_against_reference(b.build({largest[0], largest[1], smallest[0], smallest[1]}), {.tolerance = -1});
  const std::vector<float> top = values_of<float>(out[0]), bottom = values_of<float>(out[2]);
  CHECK((std::isnan(top[0]) && std::isnan(top[1]) && top[2] == 7 && top[3] == 2));
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{1, 4, 3, 0});
  CHECK((bottom[0] == -1 && bottom[1] == 2 && bottom[2] == 2 && bottom[3] == 7 && std::isnan(bottom[4])));
  CHECK(values_of<int64_t>(out[3]) == std::vector<int64_t>{5, 0, 2, 3, 1});
}

TEST_CASE("top k takes k as an opset-1 attribute, tiles whole rows and checks k") {
  ModelBuilder b(3);
  const auto logits = b.node("Relu", {b.input({4, 9, 50})});
  const auto top = b.node_outputs("TopK", {logits}, {{"k", 5}}, 2);
  CHECK(b.shape_of(top[1]) == Dims{4, 9, 5});
  check_against_reference(b.build(top), {.tolerance = 0, .threads = {1, 3}, .tile_flops = 300});

  for (const auto& [k, message] :
       std::vector<std::pair<int64_t, std::string>>{{0, "K = 0 must be in [1, 7]"}, {8, "K = 8 must be in [1, 7]"}}) {
    ModelBuilder bad(1);
    const auto y = bad.node_outputs("TopK", {bad.input({2, 7}), bad.ints({k})}, {}, 2);
    const TestModel model = bad.build(y);
    auto compiled = Model::load(model.json, model.weights, {});
    REQUIRE(!compiled.ok());
    CHECK_THAT(compiled.status().message(), Catch::Contains("TopK \"TopK") && Catch::Contains(message));
  }
}

TEST_CASE("top k of a constant is folded at specialisation") {
  ModelBuilder b(1);
  const auto top = b.node_outputs("TopK", {b.ints({4, 1, 7, 3}), b.ints({2})}, {}, 2);
  const auto y = b.node("Relu", {b.input({2})});
  const TestModel model = b.build({top[0], top[1], y});
  const ModelInfo info = compiled_info(model);
  CHECK(info.nodes.size() == 1);
  const auto out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{7, 4});
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{2, 0});
}

}  // namespace
}  // namespace tessera::testing
