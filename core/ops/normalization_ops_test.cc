// Softmax, LayerNormalization and BatchNormalization against the reference.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("softmax matches the reference along every axis") {
  for (int axis = -3; axis < 3; ++axis) {
    INFO("axis " << axis);
    ModelBuilder b(static_cast<uint32_t>(axis + 10));
    const auto x = b.input({3, 17, 33}, -8, 8);
    check_against_reference(b.build({b.node("Softmax", {x}, {{"axis", axis}})}), {.tolerance = 1e-5});
  }
}

TEST_CASE("layer normalization matches the reference for each axis, with and without bias") {
  const Dims shape{2, 5, 4, 19};
  for (int axis = 1; axis < 4; ++axis) {
    for (bool bias : {false, true}) {
      INFO("axis " << axis << " bias " << bias);
      ModelBuilder b(static_cast<uint32_t>(axis * 2 + bias));
      const auto x = b.input(shape, -3, 5);
      const Dims normalized(shape.begin() + axis, shape.end());
      std::vector<std::string> inputs{x, b.weight(normalized, 0.5f, 1.5f)};
      if (bias) inputs.push_back(b.weight(normalized));
      check_against_reference(b.build({b.node("LayerNormalization", inputs, {{"axis", axis}, {"epsilon", 1e-3}})}),
                              {.tolerance = 1e-5});
    }
  }
}

TEST_CASE("batch normalization without a preceding conv is lowered and matches the reference") {
  for (const Dims& shape : std::vector<Dims>{{4, 6}, {2, 6, 9}, {2, 6, 5, 7}}) {
    ModelBuilder b(static_cast<uint32_t>(shape.size()));
    const auto x = b.input(shape);
    const auto y =
        b.node("BatchNormalization", {x, b.weight({6}), b.weight({6}), b.weight({6}), b.weight({6}, 0.5f, 2.0f)},
               {{"epsilon", 1e-3}});
    check_against_reference(b.build({y}), {.tolerance = 1e-5});
  }
}

}  // namespace
}  // namespace tessera::testing
