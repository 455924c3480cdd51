// InstanceNormalization and GroupNormalization: by hand, against the reference over threads,
// ISAs and tiles of whole groups, per-channel (opset 21) and per-group (opset 18) affine,
// NHWC producers, and errors naming the node.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/support/engine_check.h"
#include "tests/support/tensor_values.h"
#include "tests/support/tile_reads_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("instance norm normalises each channel of each item by hand") {
  ModelBuilder b(1);
  // Channel 0 = {1, 3}: mean 2, variance 1; channel 1 = {4, 4}: variance 0, so only its bias.
  const auto x = b.input(Tensor("", {1, 2, 2}, {1, 3, 4, 4}));
  const auto y = b.node("InstanceNormalization", {x, b.constant({2}, {2, 5}), b.constant({2}, {0.5f, -1})});
  const auto out = check_against_reference(b.build({y}));
  const float inv = 1.0f / std::sqrt(1.0f + 1e-5f);
  const std::vector<float> expected = {0.5f - 2 * inv, 0.5f + 2 * inv, -1, -1};
  for (size_t i = 0; i < expected.size(); ++i) CHECK(out[0].floats()[i] == Approx(expected[i]).epsilon(1e-6));
}

TEST_CASE("group norm normalises each group and scales per channel by hand") {
  ModelBuilder b(1);
  // Groups {1, 2} and {3, 4}: each mean +-0.5 from its values, variance 0.25.
  const auto x = b.input(Tensor("", {1, 4, 1}, {1, 2, 3, 4}));
  const auto y = b.node("GroupNormalization", {x, b.constant({4}, {1, 2, 3, 4}), b.constant({4}, {0, 0, 0, 1})},
                        {{"num_groups", 2}, {"epsilon", 0.0f}});
  const auto out = check_against_reference(b.build({y}));
  const std::vector<float> expected = {-1, 2, -3, 5};
  for (size_t i = 0; i < expected.size(); ++i) CHECK(out[0].floats()[i] == Approx(expected[i]).epsilon(1e-6));
}

TEST_CASE("instance and group norm match the reference, with tiles of whole groups") {
  struct Case {
    Dims shape;
    int64_t groups;  // 0: InstanceNormalization
    bool per_group_affine;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4, 5}, 0, false}, {{1, 8, 17}, 0, false},   {{3, 6, 2, 3, 2}, 0, false},
      {{2, 8, 5, 5}, 2, false}, {{2, 8, 5, 5}, 4, true},  {{1, 6, 33}, 1, false},
      {{2, 6, 7, 3}, 6, false}, {{2, 12, 3, 3}, 3, true}, {{4, 16, 1}, 8, false},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO("case " << seed);
    ModelBuilder b(seed++);
    const auto x = b.input(c.shape, -3, 5);
    const int64_t channels = c.shape[1];
    const int64_t affine = c.per_group_affine ? c.groups : channels;
    const auto scale = b.weight({affine}, 0.5f, 2);
    const auto bias = b.weight({affine});
    const auto y = c.groups == 0 ? b.node("InstanceNormalization", {x, scale, bias}, {{"epsilon", 1e-3f}})
                                 : b.node("GroupNormalization", {x, scale, bias}, {{"num_groups", c.groups}});
    const TestModel model = b.build({y});
    check_against_reference(model, {.tolerance = 2e-5});
    check_against_reference(model, {.tolerance = 2e-5, .threads = {3}, .all_isas = false, .tile_flops = 50});
  }
}

TEST_CASE("group norm tiles split batch items and whole groups only") {
  ModelBuilder b(5);
  const auto x = b.input({2, 12, 4, 4});
  const auto y =
      b.node("GroupNormalization", {x, b.weight({12}), b.weight({12})}, {{"num_groups", 4}, {"stash_type", 1}});
  CompileOptions options;
  options.threads = 4;
  options.tile_flops = 200;
  const TestModel model = b.build({y});
  const ModelInfo info = compiled_info(model, options);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].grid == Dims{2, 4, 1, 1});
  check_against_reference(model, {.tolerance = 2e-5, .threads = {4}, .tile_flops = 200});
}

TEST_CASE("instance and group norm of constants fold at specialisation") {
  ModelBuilder b(8);
  const auto x = b.input({2, 4});
  const auto folded =
      b.node("GroupNormalization", {b.weight({1, 4, 3}), b.weight({4}), b.weight({4})}, {{"num_groups", 2}});
  const auto y = b.node("Add", {x, b.node("InstanceNormalization", {b.weight({2, 4}), b.weight({4}), b.weight({4})})});
  const TestModel model = b.build({y, folded});
  check_against_reference(model, {.tolerance = 2e-5});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].op == "Add");
}

TEST_CASE("instance norm after a conv reads its NHWC output in row-major order") {
  ModelBuilder b(7);
  const auto conv = b.node("Conv", {b.input({2, 3, 6, 6}), b.weight({8, 3, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  const auto y = b.node("Relu", {b.node("InstanceNormalization", {conv, b.weight({8}), b.weight({8})})});
  check_against_reference(b.build({y}), {.tolerance = 2e-5});
}

TEST_CASE("instance and group norm errors name the node") {
  // One model per case: scale and bias sizes, num_groups and stash_type.
  auto error_of = [](const char* op, Dims scale, nlohmann::json attributes, bool scale_is_input = false) {
    ModelBuilder b(1);
    const auto x = b.input({2, 6, 4});
    const auto s = scale_is_input ? b.input(scale) : b.weight(scale);
    return load_error(b.build({b.node(op, {x, s, b.weight({6})}, attributes)}));
  };
  CHECK_THAT(error_of("GroupNormalization", {6}, {{"num_groups", 4}}),
             Catch::Contains("(GroupNormalization") && Catch::Contains("num_groups 4 must divide the 6 channels"));
  CHECK_THAT(error_of("GroupNormalization", {6}, {{"num_groups", 3}, {"stash_type", 0}}),
             Catch::Contains("stash_type"));
  CHECK_THAT(error_of("GroupNormalization", {4}, {{"num_groups", 3}}),
             Catch::Contains("scale [4] must be [6] (per channel) or [3] (per group, opset 18)"));
  CHECK_THAT(error_of("GroupNormalization", {6}, nullptr), Catch::Contains("\"num_groups\" is required"));
  CHECK_THAT(error_of("InstanceNormalization", {6}, nullptr, true),
             Catch::Contains("(InstanceNormalization") && Catch::Contains("scale must be a float32 initializer"));
}

TEST_CASE("instance and group norm tiles read only what their footprints name") {
  ModelBuilder b(12);
  const auto x = b.node("Relu", {b.input({2, 6, 5, 3})});
  const auto groups = b.node("GroupNormalization", {x, b.weight({6}), b.weight({6})}, {{"num_groups", 3}});
  const auto instances = b.node("InstanceNormalization", {x, b.weight({6}), b.weight({6})});
  check_tile_reads(b.build({groups, instances}));
}

}  // namespace
}  // namespace tessera::testing
