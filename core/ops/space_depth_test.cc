// DepthToSpace (DCR and CRD) and SpaceToDepth: ONNX's examples by hand, every dtype against
// the reference over small tiles, round trips, NHWC producers and errors.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/tensor_values.h"
#include "tests/support/tile_reads_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("depth to space and space to depth reproduce ONNX's examples") {
  // Channel c of the [1, 8, 2, 3] input holds 9c + {0, ..., 5}.
  std::vector<float> depth;
  for (int c = 0; c < 8; ++c) {
    for (int i = 0; i < 6; ++i) depth.push_back(static_cast<float>(9 * c + i));
  }
  ModelBuilder b(1);
  const auto x = b.input(Tensor("", {1, 8, 2, 3}, depth));
  const auto dcr = b.node("DepthToSpace", {x}, {{"blocksize", 2}});
  const auto crd = b.node("DepthToSpace", {x}, {{"blocksize", 2}, {"mode", "CRD"}});
  const std::vector<float> space = {0, 6, 1, 7,  2, 8,  12, 18, 13, 19, 14, 20,
                                    3, 9, 4, 10, 5, 11, 15, 21, 16, 22, 17, 23};
  const auto s2d = b.node("SpaceToDepth", {b.input(Tensor("", {1, 1, 4, 6}, space))}, {{"blocksize", 2}});
  CHECK(b.shape_of(dcr) == Dims{1, 2, 4, 6});
  CHECK(b.shape_of(s2d) == Dims{1, 4, 2, 3});
  const auto out = check_against_reference(b.build({dcr, crd, s2d}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56, 3,  21, 4,  22,
                                                       5,  23, 39, 57, 40, 58, 41, 59, 9,  27, 10, 28, 11, 29, 45, 63,
                                                       46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68});
  CHECK(values_of<float>(out[1]) == std::vector<float>{0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29, 3,  12, 4,  13,
                                                       5,  14, 21, 30, 22, 31, 23, 32, 36, 45, 37, 46, 38, 47, 54, 63,
                                                       55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68});
  std::vector<float> counting(24);
  for (int i = 0; i < 24; ++i) counting[i] = static_cast<float>(i);
  CHECK(values_of<float>(out[2]) == counting);
}

TEST_CASE("depth to space and space to depth match the reference for every dtype over small tiles") {
  struct Case {
    Dims shape;
    int64_t block;
  };
  const std::vector<Case> to_space = {{{2, 8, 3, 5}, 2}, {{1, 18, 4, 2}, 3}, {{3, 4, 1, 1}, 2}, {{1, 5, 3, 3}, 1}};
  const std::vector<Case> to_depth = {{{2, 2, 6, 4}, 2}, {{1, 3, 6, 9}, 3}, {{2, 1, 2, 2}, 2}};
  uint32_t seed = 1;
  for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kUInt8}) {
    for (const Case& c : to_space) {
      for (const char* mode : {"DCR", "CRD"}) {
        INFO(dtype_name(dtype) << " DepthToSpace " << mode << " block " << c.block);
        ModelBuilder b(seed++);
        const auto x =
            dtype == DType::kFloat32 ? b.input(c.shape) : b.input(random_tensor(b.rng(), c.shape, dtype, 0, 200));
        const auto y = b.node("DepthToSpace", {x}, {{"blocksize", c.block}, {"mode", mode}});
        check_against_reference(b.build({y}), {.tolerance = 0, .threads = {1, 3}, .all_isas = false, .tile_flops = 4});
      }
    }
    for (const Case& c : to_depth) {
      INFO(dtype_name(dtype) << " SpaceToDepth block " << c.block);
      ModelBuilder b(seed++);
      const auto x =
          dtype == DType::kFloat32 ? b.input(c.shape) : b.input(random_tensor(b.rng(), c.shape, dtype, 0, 200));
      const auto y = b.node("SpaceToDepth", {x}, {{"blocksize", c.block}});
      check_against_reference(b.build({y}), {.tolerance = 0, .threads = {1, 3}, .all_isas = false, .tile_flops = 4});
    }
  }
}

TEST_CASE("space to depth undoes depth to space (DCR); NHWC producers are read through strides") {
  ModelBuilder b(3);
  const auto x = b.input({2, 4, 6, 6});
  const auto conv = b.node("Conv", {x, b.weight({8, 4, 1, 1})});
  const auto deep = b.node("SpaceToDepth", {conv}, {{"blocksize", 3}});
  CHECK(b.shape_of(deep) == Dims{2, 72, 2, 2});
  const auto back = b.node("DepthToSpace", {deep}, {{"blocksize", 3}});
  const auto crd = b.node("DepthToSpace", {conv}, {{"blocksize", 2}, {"mode", "CRD"}});
  const auto round_trip = b.node("DepthToSpace", {b.node("SpaceToDepth", {x}, {{"blocksize", 2}})}, {{"blocksize", 2}});
  const auto folded = b.node("SpaceToDepth", {b.node("DepthToSpace", {b.weight({1, 8, 2, 2})}, {{"blocksize", 2}})},
                             {{"blocksize", 2}});
  const TestModel model = b.build({back, crd, round_trip, conv, folded});
  const auto out = check_against_reference(model, {.tolerance = 1e-6, .tile_flops = 30});
  CHECK(out[0].bytes == out[3].bytes);
  CHECK(out[2].bytes == model.inputs[0].bytes);
  const ModelInfo info = compiled_info(model);
  for (const NodeInfo& node : info.nodes) CHECK(node.shape != Dims{1, 8, 2, 2});  // the constant pair folded
}

TEST_CASE("depth to space and space to depth errors name the node") {
  auto error_of = [](const char* op, Dims shape, nlohmann::json attributes) {
    ModelBuilder b(1);
    return load_error(b.build({b.node(op, {b.input(shape)}, attributes)}));
  };
  CHECK_THAT(error_of("DepthToSpace", {1, 6, 2, 2}, {{"blocksize", 2}}),
             Catch::Contains("(DepthToSpace") && Catch::Contains("channels 6 must be a multiple of blocksize^2 = 4"));
  CHECK_THAT(error_of("DepthToSpace", {1, 8, 2, 2}, {{"blocksize", 2}, {"mode", "RCD"}}),
             Catch::Contains("mode \"RCD\""));
  CHECK_THAT(error_of("DepthToSpace", {1, 8, 2, 2}, nullptr), Catch::Contains("\"blocksize\" is required"));
  CHECK_THAT(error_of("SpaceToDepth", {1, 2, 4, 5}, {{"blocksize", 2}}),
             Catch::Contains("(SpaceToDepth") && Catch::Contains("multiples of blocksize 2"));
  CHECK_THAT(error_of("SpaceToDepth", {2, 4, 4}, {{"blocksize", 2}}), Catch::Contains("[N, C, H, W]"));
}

TEST_CASE("depth to space and space to depth tiles read only what their footprints name") {
  ModelBuilder b(13);
  const auto x = b.node("Relu", {b.input({2, 8, 6, 4})});
  const auto dcr = b.node("DepthToSpace", {x}, {{"blocksize", 2}});
  const auto crd = b.node("DepthToSpace", {x}, {{"blocksize", 2}, {"mode", "CRD"}});
  const auto deep = b.node("SpaceToDepth", {x}, {{"blocksize", 2}});
  const auto bytes = b.input(random_tensor(b.rng(), {1, 3, 6, 9}, DType::kUInt8, 0, 255));
  const auto round_trip =
      b.node("DepthToSpace", {b.node("SpaceToDepth", {bytes}, {{"blocksize", 3}})}, {{"blocksize", 3}});
  check_tile_reads(b.build({dcr, crd, deep, round_trip}), 3, 20);
}

}  // namespace
}  // namespace tessera::testing
