// Expand (broadcast both ways); Cast has its own tests (cast_test.cc).
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

}  // namespace
}  // namespace tessera::testing
