// The data-moving ops on every dtype (float32, int64, int32, bool, uint8): Slice, Split,
// Concat, Transpose, Expand, Pad (reflect, edge; constant is float32 only) and the views,
// against the reference over tilings, with exact values checked by hand for a few.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("data-moving ops keep the dtype and match the reference on every dtype") {
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    INFO(dtype_name(dtype));
    ModelBuilder b(seed++);
    const auto x = b.input(random_typed(b.rng(), {3, 4, 5, 6}, dtype, -1000, 1000));
    const auto other = b.input(random_typed(b.rng(), {3, 2, 5, 6}, dtype, -1000, 1000));
    const std::vector<std::string> outputs = {
        b.node("Slice", {x, b.ints({1, -1}), b.ints({3, -6}), b.ints({1, 3}), b.ints({1, -2})}),
        b.node("Concat", {x, other, b.constant(random_typed(b.rng(), {3, 1, 5, 6}, dtype, 0, 9))}, {{"axis", 1}}),
        b.node("Transpose", {x}, {{"perm", {2, 0, 3, 1}}}),
        b.node("Expand", {b.node("Slice", {x, b.ints({0}), b.ints({1}), b.ints({1})}), b.ints({2, 3, 4, 5, 6})}),
        b.node("Pad", {x, b.ints({0, 2, 1, 0, 1, 0, 3, 2})}, {{"mode", "reflect"}}),
        b.node("Pad", {x, b.ints({1, -1, 0, 2, 0, 2, 1, 0})}, {{"mode", "edge"}}),
    };
    const auto parts = b.node_outputs("Split", {x, b.ints({1, 5})}, {{"axis", 3}}, 2);
    std::vector<std::string> all = outputs;
    all.insert(all.end(), parts.begin(), parts.end());
    for (const auto& y : all) CHECK(b.dtype_of(y) == dtype);
    const TestModel model = b.build(all);
    check_against_reference(model, {.tolerance = 0, .all_isas = false});
    check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 30});
  }
}

TEST_CASE("views reinterpret any dtype without a tile") {
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    INFO(dtype_name(dtype));
    ModelBuilder b(seed++);
    const auto x = b.input(random_typed(b.rng(), {2, 3, 4}, dtype, 0, 200));
    auto y = b.node("Reshape", {x, b.ints({4, -1})});
    y = b.node("Unsqueeze", {y, b.ints({0, 3})});
    CHECK(b.shape_of(y) == Dims{1, 4, 6, 1});
    y = b.node("Squeeze", {y});
    y = b.node("Flatten", {b.node("Identity", {y})}, {{"axis", 0}});
    CHECK(b.shape_of(y) == Dims{1, 24});
    CHECK(b.dtype_of(y) == dtype);
    // Views alias their input: the transpose is the only computing node.
    const auto t = b.node("Transpose", {b.node("Reshape", {y, b.ints({4, 6})})});
    const TestModel model = b.build({y, t});
    const auto out = check_against_reference(model, {.tolerance = 0, .all_isas = false});
    CHECK(out[0].bytes == model.inputs[0].bytes);
    const ModelInfo info = compiled_info(model);
    REQUIRE(info.nodes.size() == 1);
    CHECK(info.nodes[0].op == "Transpose");
  }
}

TEST_CASE("typed moves give hand-computed values") {
  ModelBuilder b(1);
  const int64_t big = (int64_t{1} << 62) + 3;
  const auto x = b.input(int64s({2, 3}, {big, 1, 2, 3, 4, -big}));
  const auto flags = b.input(bools({2, 2}, {1, 0, 0, 1}));
  const auto transposed = b.node("Transpose", {x});
  const auto joined = b.node("Concat", {flags, b.constant(bools({1, 2}, {1, 1}))}, {{"axis", 0}});
  const auto edged = b.node("Pad", {b.input(int32s({3}, {-5, 6, 7})), b.ints({2, 1})}, {{"mode", "edge"}});
  const auto bytes = b.node("Slice", {b.input(tensor_of<uint8_t>(DType::kUInt8, {5}, {250, 1, 2, 3, 255})),
                                      b.ints({-1}), b.ints({-6}), b.ints({0}), b.ints({-2})});
  const auto out = check_against_reference(b.build({transposed, joined, edged, bytes}), {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{big, 3, 1, 4, 2, -big});
  CHECK(out[1].dtype == DType::kBool);
  CHECK(values_of<uint8_t>(out[1]) == std::vector<uint8_t>{1, 0, 0, 1, 1, 1});
  CHECK(values_of<int32_t>(out[2]) == std::vector<int32_t>{-5, -5, -5, 6, 7, 7});
  CHECK(values_of<uint8_t>(out[3]) == std::vector<uint8_t>{255, 2, 250});
}

TEST_CASE("int64 shape arithmetic on constants is folded at specialisation") {
  ModelBuilder b(1);
  const auto x = b.input({2, 6});
  const auto shape = b.ints({2, 6});
  // Slice, Concat, Expand, Transpose, Pad and a view of constants: all evaluated while building.
  auto target = b.node("Concat", {b.node("Slice", {shape, b.ints({1}), b.ints({2})}), b.ints({-1})}, {{"axis", 0}});
  target = b.node("Reshape", {b.node("Transpose", {b.node("Expand", {target, b.ints({1, 2})})}), b.ints({2})});
  target = b.node("Slice", {b.node("Pad", {target, b.ints({0, 1})}, {{"mode", "edge"}}), b.ints({0}), b.ints({2})});
  const auto y = b.node("Relu", {b.node("Reshape", {x, target})});
  CHECK(b.shape_of(y) == Dims{6, 2});
  const TestModel model = b.build({y});
  check_against_reference(model, {.tolerance = 0});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].op == "Relu");
}

TEST_CASE("pad in constant mode names the dtypes it takes") {
  ModelBuilder b(1);
  const auto y = b.node("Pad", {b.input(int64s({3}, {1, 2, 3})), b.ints({1, 1})});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("Pad \"Pad") && Catch::Contains("constant") && Catch::Contains("float32 data only"));
}

TEST_CASE("concat rejects inputs of different dtypes") {
  ModelBuilder b(1);
  const auto y = b.node("Concat", {b.input(int64s({3}, {1, 2, 3})), b.input({2})}, {{"axis", 0}});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(), Catch::Contains("is float32, expected int64"));
}

}  // namespace
}  // namespace tessera::testing
