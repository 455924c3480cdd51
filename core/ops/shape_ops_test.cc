// Views (Reshape, Flatten, Squeeze, Unsqueeze, Identity), Transpose, Concat and ReduceMean
// against the reference, including views of NHWC tensors and chains of views.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("views reinterpret bytes and compile to no tiles") {
  ModelBuilder b(1);
  const auto x = b.input({2, 3, 4, 5});
  auto y = b.node("Reshape", {x, b.ints({0, -1, 5})});
  CHECK(b.shape_of(y) == Dims{2, 12, 5});
  y = b.node("Unsqueeze", {y, b.ints({1, -1})});
  CHECK(b.shape_of(y) == Dims{2, 1, 12, 5, 1});
  y = b.node("Squeeze", {y, b.ints({1})});
  y = b.node("Flatten", {y}, {{"axis", 2}});
  CHECK(b.shape_of(y) == Dims{24, 5});
  y = b.node("Identity", {y});
  y = b.node("Relu", {y});
  const TestModel model = b.build({y});
  check_against_reference(model, {.tolerance = 0});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].op == "Relu");
}

TEST_CASE("transpose matches the reference for every permutation of a 4-D tensor") {
  std::vector<int64_t> perm{0, 1, 2, 3};
  uint32_t seed = 1;
  do {
    ModelBuilder b(seed++);
    check_against_reference(b.build({b.node("Transpose", {b.input({2, 3, 5, 7})}, {{"perm", perm}})}),
                            {.tolerance = 0, .threads = {2}, .all_isas = false});
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST_CASE("conv outputs flow through flatten into gemm (NHWC views of 1x1 maps)") {
  ModelBuilder b(3);
  const auto x = b.input({2, 8, 6, 6});
  const auto pooled = b.node("GlobalAveragePool", {b.node("Conv", {x, b.weight({16, 8, 3, 3})})});
  const auto flat = b.node("Flatten", {pooled});
  const auto logits = b.node("Gemm", {flat, b.weight({10, 16}), b.weight({10})}, {{"transB", 1}});
  const auto reshaped = b.node("Reshape", {b.node("Relu", {x}), b.ints({2, -1})});
  check_against_reference(b.build({logits, reshaped}));
}

TEST_CASE("concat matches the reference along every axis, with NHWC and constant inputs") {
  for (int axis = 0; axis < 4; ++axis) {
    ModelBuilder b(static_cast<uint32_t>(axis + 1));
    const Dims base{2, 3, 5, 4};
    Dims other = base;
    other[axis] = 2;
    const auto x = b.input(base);
    const auto conv = b.node("Conv", {x, b.weight({3, 3, 1, 1})});
    const auto y = b.node("Concat", {x, b.input(other), conv, b.weight(other)}, {{"axis", axis}});
    check_against_reference(b.build({y}), {.tolerance = 1e-5});
  }
}

TEST_CASE("reduce mean matches the reference for axes, keepdims and opset-18 axes input") {
  const Dims shape{3, 4, 5, 6};
  const std::vector<std::vector<int64_t>> axes_sets = {{1}, {2, 3}, {0, 3}, {-1}, {0, 1, 2, 3}};
  uint32_t seed = 1;
  for (const auto& axes : axes_sets) {
    for (int keepdims = 0; keepdims < 2; ++keepdims) {
      ModelBuilder b(seed++);
      const auto x = b.input(shape);
      const auto attribute = b.node("ReduceMean", {x}, {{"axes", axes}, {"keepdims", keepdims}});
      const auto input = b.node("ReduceMean", {x, b.ints(axes)}, {{"keepdims", keepdims}});
      check_against_reference(b.build({attribute, input}), {.tolerance = 1e-6, .threads = {2}});
    }
  }
  ModelBuilder b(77);
  const auto x = b.input({2, 3});
  check_against_reference(
      b.build({b.node("ReduceMean", {x}), b.node("ReduceMean", {x}, {{"noop_with_empty_axes", 1}})}));
}

}  // namespace
}  // namespace tessera::testing
