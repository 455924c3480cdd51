// Pad against the reference in constant, reflect and edge modes: pads on every axis, axes
// input, negative pads (crops), NHWC inputs, and tiles that lie wholly in the padding.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("pad matches the reference in every mode") {
  struct Case {
    std::vector<int64_t> pads;
    std::vector<int64_t> axes;  // empty: all
    Dims expected;
  };
  const std::vector<Case> cases = {
      {{0, 1, 2, 3, 1, 0, 1, 2}, {}, {3, 5, 8, 10}},   // every axis
      {{2, 1, 3, 2}, {2, -1}, {2, 4, 10, 8}},          // H and W through axes
      {{-1, 2, 1, -2}, {1, 3}, {2, 4, 5, 5}},          // crops on one side
      {{0, 0, 4, 4, 0, 0, 4, 4}, {}, {2, 4, 13, 13}},  // the reflect limit: size - 1
  };
  uint32_t seed = 1;
  for (const char* mode : {"constant", "reflect", "edge"}) {
    for (const Case& c : cases) {
      INFO(mode << " case " << seed);
      ModelBuilder b(seed++);
      const Dims shape{2, 4, 5, 5};
      const auto x = b.input(shape);
      std::vector<std::string> inputs{x, b.ints(c.pads), std::string(mode) == "constant" ? b.constant({}, {0.5f}) : ""};
      if (!c.axes.empty()) inputs.push_back(b.ints(c.axes));
      const auto y = b.node("Pad", inputs, {{"mode", mode}});
      CHECK(b.shape_of(y) == c.expected);
      inputs[0] = b.node("Conv", {x, b.weight({4, 4, 1, 1})});  // NHWC input
      const auto z = b.node("Pad", inputs, {{"mode", mode}});
      check_against_reference(b.build({y, z}), {.tolerance = 1e-5});
      check_against_reference(b.build({y, z}),
                              {.tolerance = 1e-5, .threads = {2}, .all_isas = false, .tile_flops = 50});
    }
  }
}

TEST_CASE("pad reflects like numpy and rejects wrap with the node's name") {
  ModelBuilder b(1);
  const auto y = b.node("Pad", {b.input({1, 4}), b.ints({0, 3, 0, 2})}, {{"mode", "reflect"}});
  TestModel model = b.build({y});
  model.inputs[0] = Tensor(model.inputs[0].name, model.inputs[0].dims, {1, 2, 3, 4});
  const auto out = check_against_reference(model, {.tolerance = 0, .threads = {1}});
  CHECK(std::vector<float>(out[0].floats().begin(), out[0].floats().end()) == std::vector<float>{4, 3, 2, 1, 2, 3, 4, 3, 2});

  ModelBuilder w(2);
  const TestModel wrap = w.build({w.node("Pad", {w.input({2, 3}), w.ints({1, 1, 1, 1})}, {{"mode", "wrap"}})});
  auto compiled = Model::load(wrap.json, wrap.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(), Catch::Contains("Pad") && Catch::Contains("\"wrap\" is not supported"));
}

}  // namespace
}  // namespace tessera::testing
