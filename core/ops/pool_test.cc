// MaxPool, AveragePool and GlobalAveragePool against the reference.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("pools match the reference over random windows, pads, strides, dilations and ceil mode") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    ModelBuilder b(seed);
    auto& rng = b.rng();
    const int64_t k = random_int(rng, 1, 4), stride = random_int(rng, 1, 3), dilation = random_int(rng, 1, 2);
    const int64_t pad = random_int(rng, 0, k / 2);
    const int64_t ceil_mode = random_int(rng, 0, 1);
    const bool max = seed % 2;
    INFO("seed " << seed << " max " << max);
    const auto x =
        b.input({random_int(rng, 1, 2), random_int(rng, 1, 40), random_int(rng, 5, 17), random_int(rng, 5, 17)});
    nlohmann::json attrs = {{"kernel_shape", {k, k}},
                            {"strides", {stride, stride}},
                            {"pads", {pad, pad, pad, 0}},
                            {"ceil_mode", ceil_mode}};
    if (max)
      attrs["dilations"] = {dilation, dilation};
    else
      attrs["count_include_pad"] = static_cast<int64_t>(seed % 4 == 0);
    check_against_reference(b.build({b.node(max ? "MaxPool" : "AveragePool", {x}, attrs)}), {.tolerance = 1e-6});
  }
}

TEST_CASE("global average pool matches the reference") {
  ModelBuilder b(5);
  check_against_reference(b.build({b.node("GlobalAveragePool", {b.input({3, 37, 7, 9})})}), {.tolerance = 1e-5});
}

}  // namespace
}  // namespace tessera::testing
