// Slice (negative indices and steps, clamping, axes) and Split (input sizes, attribute sizes,
// num_outputs, equal parts) against the reference, on row-major and NHWC inputs.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("slice matches the reference with negative indices, negative steps and clamping") {
  struct Case {
    std::vector<int64_t> starts, ends, axes, steps;
    Dims expected;
  };
  const std::vector<Case> cases = {
      {{1, 0}, {3, 10}, {0, 1}, {1, 1}, {2, 7, 6, 5}},                     // plain, end clamped
      {{-1}, {-1000}, {1}, {-1}, {3, 7, 6, 5}},                            // reversed whole axis
      {{-2, 4}, {0, -100}, {-1, 2}, {-1, -2}, {3, 7, 3, 3}},               // backward from the end, strided
      {{0, 1, 0}, {INT64_MAX, 7, 6}, {3, 1, 2}, {2, 3, 4}, {3, 2, 2, 3}},  // strides, INT64_MAX end
      {{INT64_MIN}, {2}, {0}, {1}, {2, 7, 6, 5}},                          // clamped start
      {{5}, {-9}, {2}, {-3}, {3, 7, 2, 5}},                                // start past the end, clamped
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO("case " << seed);
    ModelBuilder b(seed++);
    const auto x = b.input({3, 7, 6, 5});
    const auto y = b.node("Slice", {x, b.ints(c.starts), b.ints(c.ends), b.ints(c.axes), b.ints(c.steps)});
    CHECK(b.shape_of(y) == c.expected);
    // Also from an NHWC producer: the slice keeps its layout.
    const auto conv = b.node("Conv", {x, b.weight({7, 7, 1, 1})});
    const auto z = b.node("Slice", {conv, b.ints(c.starts), b.ints(c.ends), b.ints(c.axes), b.ints(c.steps)});
    check_against_reference(b.build({y, z}), {.tolerance = 1e-5});
    check_against_reference(b.build({y, z}), {.tolerance = 1e-5, .threads = {3}, .all_isas = false, .tile_flops = 50});
  }
  ModelBuilder b(9);
  const auto x = b.input({4, 9});
  const auto y = b.node("Slice", {x, b.ints({1, -8}), b.ints({3, 9})});  // no axes, no steps
  CHECK(b.shape_of(y) == Dims{2, 8});
  check_against_reference(b.build({y}), {.tolerance = 0, .tile_flops = 10});
}

TEST_CASE("slice rejects empty results and zero steps") {
  for (const auto& [steps, message] :
       std::vector<std::pair<int64_t, std::string>>{{0, "steps must not be 0"}, {-1, "is empty"}}) {
    ModelBuilder b(1);
    const auto y = b.node("Slice", {b.input({4, 4}), b.ints({1}), b.ints({3}), b.ints({0}), b.ints({steps})});
    const TestModel model = b.build({y});
    auto compiled = Model::load(model.json, model.weights, {});
    REQUIRE(!compiled.ok());
    CHECK_THAT(compiled.status().message(), Catch::Contains("Slice") && Catch::Contains(message));
  }
}

TEST_CASE("split lowers to one slice per output for every way of giving sizes") {
  struct Case {
    nlohmann::json attrs;
    std::vector<int64_t> split_input;  // empty: none
    int outputs;
    std::vector<int64_t> sizes;  // along the axis
    int axis;
  };
  const std::vector<Case> cases = {
      {{{"axis", 1}}, {2, 5}, 2, {2, 5}, 1},                        // opset 13 input
      {{{"axis", -1}, {"split", {1, 3, 1}}}, {}, 3, {1, 3, 1}, 3},  // older attribute
      {{{"axis", 1}, {"num_outputs", 3}}, {}, 3, {3, 3, 1}, 1},     // opset 18: last chunk smaller
      {{{"axis", 0}}, {}, 3, {1, 1, 1}, 0},                         // equal parts
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO("case " << seed);
    ModelBuilder b(seed++);
    const Dims shape{3, 7, 6, 5};
    std::vector<std::string> inputs{b.node("Relu", {b.input(shape)})};
    if (!c.split_input.empty()) inputs.push_back(b.ints(c.split_input));
    const auto outs = b.node_outputs("Split", inputs, c.attrs, c.outputs);
    const std::vector<int64_t>& sizes = c.sizes;
    for (int i = 0; i < c.outputs; ++i) {
      Dims expected = shape;
      expected[c.axis] = sizes[i];
      CHECK(b.shape_of(outs[i]) == expected);
    }
    check_against_reference(b.build(outs), {.tolerance = 0});
  }
}

TEST_CASE("split names its graph nodes <node>:<i> and rejects sizes that do not add up") {
  ModelBuilder b(1);
  const auto x = b.input({2, 6, 4, 4});
  const auto conv = b.node("Conv", {x, b.weight({6, 6, 1, 1})});
  const auto outs = b.node_outputs("Split", {conv, b.ints({2, 4})}, {{"axis", 1}}, 2);
  const TestModel model = b.build({b.node("Relu", {outs[0]}), b.node("Sigmoid", {outs[1]})});
  check_against_reference(model);
  const ModelInfo info = compiled_info(model);
  int splits = 0;
  for (const NodeInfo& n : info.nodes) {
    if (n.op == "Split") CHECK((n.name == "Split1:0" || n.name == "Split1:1"));
    splits += n.op == "Split";
  }
  CHECK(splits == 2);

  ModelBuilder bad(2);
  const auto parts = bad.node_outputs("Split", {bad.input({2, 6}), bad.ints({2, 3})}, {{"axis", 1}}, 2);
  const TestModel bad_model = bad.build(parts);
  auto rejected = Model::load(bad_model.json, bad_model.weights, {});
  REQUIRE(!rejected.ok());
  CHECK_THAT(rejected.status().message(), Catch::Contains("Split") && Catch::Contains("add up to 5"));
}

}  // namespace
}  // namespace tessera::testing
