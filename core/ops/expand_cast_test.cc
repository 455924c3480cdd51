// Expand (broadcast both ways) and Cast (float to float is a view; other types are errors).
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("expand broadcasts both ways and matches the reference") {
  struct Case {
    Dims input;
    std::vector<int64_t> shape;
    Dims expected;
  };
  const std::vector<Case> cases = {
      {{3, 1}, {2, 3, 4}, {2, 3, 4}},     // to a larger rank
      {{2, 1, 5}, {1, 4, 1}, {2, 4, 5}},  // target 1 keeps the input's size
      {{4}, {3, 1}, {3, 4}},              // both grow
      {{2, 3}, {3}, {2, 3}},              // a no-op
      {{1, 6, 1, 1}, {2, 6, 5, 7}, {2, 6, 5, 7}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    ModelBuilder b(seed++);
    const auto y = b.node("Expand", {b.node("Relu", {b.input(c.input)}), b.ints(c.shape)});
    CHECK(b.shape_of(y) == c.expected);
    check_against_reference(b.build({y}), {.tolerance = 0});
    check_against_reference(b.build({y}), {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 20});
  }
  ModelBuilder b(9);
  const TestModel model = b.build({b.node("Expand", {b.input({2, 3}), b.ints({4, 3})})});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("Expand") && Catch::Contains("cannot expand [2, 3] to [4, 3]"));
}

TEST_CASE("cast to float is a view; casts to other types are errors") {
  ModelBuilder b(1);
  const auto x = b.input({2, 3});
  const auto y = b.node("Relu", {b.node("Cast", {x}, {{"to", 1}})});
  CHECK(b.shape_of(y) == Dims{2, 3});
  const TestModel model = b.build({y});
  check_against_reference(model, {.tolerance = 0});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(compiled.ok());
  CHECK(compiled.value()->info().value().nodes.size() == 1);  // only the Relu runs

  ModelBuilder bad(2);
  const TestModel to_int = bad.build({bad.node("Cast", {bad.input({2, 3})}, {{"to", 7}})});
  auto rejected = Model::load(to_int.json, to_int.weights, {});
  REQUIRE(!rejected.ok());
  CHECK_THAT(rejected.status().message(),
             Catch::Contains("Cast") && Catch::Contains("Cast to INT64 is not supported: Tessera computes in float32"));
}

}  // namespace
}  // namespace tessera::testing
