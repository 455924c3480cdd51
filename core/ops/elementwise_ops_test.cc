// Unary and binary ops against the reference: every activation, broadcasting in both
// directions, constants on either side, NHWC operands from convolutions.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("every unary op matches the reference") {
  const std::vector<std::pair<const char*, nlohmann::json>> ops = {{"Relu", {}},
                                                                   {"LeakyRelu", {{"alpha", 0.2}}},
                                                                   {"Sigmoid", {}},
                                                                   {"Tanh", {}},
                                                                   {"HardSigmoid", {{"alpha", 0.3}, {"beta", 0.4}}},
                                                                   {"HardSwish", {}},
                                                                   {"Erf", {}},
                                                                   {"Gelu", {}},
                                                                   {"Gelu", {{"approximate", "tanh"}}},
                                                                   {"Clip", {{"min", -0.5}, {"max", 0.7}}}};
  uint32_t seed = 1;
  for (const auto& [op, attrs] : ops) {
    INFO(op);
    ModelBuilder b(seed++);
    const auto x = b.input({3, 17, 5}, -6, 6);
    check_against_reference(b.build({b.node(op, {x}, attrs)}), {.tolerance = 1e-5});
  }
  ModelBuilder b(99);
  check_against_reference(b.build({b.node("Sqrt", {b.input({4, 33}, 0, 10)})}), {.tolerance = 1e-5});
}

TEST_CASE("clip takes its bounds from opset-11 inputs, either of which may be omitted") {
  ModelBuilder b(4);
  const auto x = b.input({2, 40}, -3, 3);
  const auto lo = b.node("Clip", {x, b.constant({}, {-1.0f})});
  const auto hi = b.node("Clip", {x, "", b.constant({}, {0.5f})});
  check_against_reference(b.build({lo, hi}), {.tolerance = 1e-6});
}

TEST_CASE("binary ops broadcast like numpy") {
  const std::vector<std::pair<Dims, Dims>> shapes = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}},          {{2, 3, 4}, {3, 1}}, {{1, 3, 1}, {2, 1, 5}},
      {{5}, {3, 5}},          {{2, 1, 4, 1}, {3, 1, 6}}, {{1}, {7, 9}},       {{6, 1}, {1, 6}}};
  uint32_t seed = 20;
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow"}) {
    for (const auto& [a, c] : shapes) {
      for (bool constant : {false, true}) {
        INFO(op << " constant " << constant);
        ModelBuilder b(seed++);
        const bool pow = std::string(op) == "Pow";
        const auto x = b.input(a, pow ? 0.1f : -2.0f, 2.0f);
        const auto y = constant ? b.weight(c, 0.5f, 2.0f) : b.input(c, 0.5f, 2.0f);
        check_against_reference(b.build({b.node(op, {x, y})}), {.tolerance = 1e-5, .threads = {2}});
      }
    }
  }
}

TEST_CASE("binary ops mix NHWC conv outputs with row-major tensors") {
  ModelBuilder b(31);
  const auto x = b.input({2, 4, 7, 9});
  const auto conv = b.node("Conv", {x, b.weight({4, 4, 1, 1})});
  const auto sum = b.node("Add", {conv, x});                    // NHWC + NCHW
  const auto gate = b.node("Mul", {conv, b.input({4, 1, 1})});  // per-channel, run-time
  const auto both = b.node("Sub", {b.node("Sigmoid", {gate}), sum});
  check_against_reference(b.build({both, sum}), {.tolerance = 1e-5});
}

TEST_CASE("a squeeze-excitation gate over NHWC pixels: short runs batched, whatever the tiling") {
  // Channels below, at and past a vector, a batch's end mid-row (1024 / 24 is not whole), a
  // gate on either side, a fused activation, tiles of a few pixels to whole images.
  uint32_t seed = 40;
  for (int64_t channels : {3, 8, 24, 300}) {
    for (bool gate_first : {false, true}) {
      INFO(channels << " channels, gate first " << gate_first);
      ModelBuilder b(seed++);
      const auto x = b.input({2, 4, 9, 11});
      const auto conv = b.node("Conv", {x, b.weight({channels, 4, 1, 1})});
      const auto gate = b.node("Sigmoid", {b.node("GlobalAveragePool", {conv})});
      const auto scaled =
          b.node("Mul", gate_first ? std::vector<std::string>{gate, conv} : std::vector<std::string>{conv, gate});
      const auto out = b.node("Relu", {b.node("Sub", {scaled, b.weight({channels, 1, 1})})});
      check_against_reference(b.build({out}), {.tolerance = 1e-5, .threads = {1, 2}, .tile_flops = 500});
      check_against_reference(b.build({out}), {.tolerance = 1e-5, .threads = {2}});
    }
  }
}

}  // namespace
}  // namespace tessera::testing
