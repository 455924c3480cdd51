// Resize against the reference for every mode, coordinate transform and nearest rounding, on
// the NHWC path (4-D, H and W) and the row-major path (other ranks and axes), up and down,
// from scales and from sizes; plus ONNX backend-test values and the unsupported cases.
#include <catch2/catch.hpp>
#include <cstring>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

const char* const kCoordinateModes[] = {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                        "asymmetric"};

TEST_CASE("resize matches the reference for every mode and coordinate transform") {
  const std::vector<std::pair<std::string, std::string>> modes = {{"linear", "round_prefer_floor"},
                                                                  {"nearest", "round_prefer_floor"},
                                                                  {"nearest", "round_prefer_ceil"},
                                                                  {"nearest", "floor"},
                                                                  {"nearest", "ceil"}};
  uint32_t seed = 1;
  for (const auto& [mode, nearest] : modes) {
    for (const char* transform : kCoordinateModes) {
      INFO(mode << " " << nearest << " " << transform);
      ModelBuilder b(seed++);
      const nlohmann::json attrs = {
          {"mode", mode}, {"nearest_mode", nearest}, {"coordinate_transformation_mode", transform}};
      const auto image = b.input({2, 5, 7, 6});
      const auto up = b.node("Resize", {image, "", b.constant({4}, {1, 1, 2.5f, 1.75f})}, attrs);
      const auto down = b.node("Resize", {image, "", b.constant({4}, {1, 1, 0.6f, 0.45f})}, attrs);
      const auto sized = b.node("Resize", {image, "", "", b.ints({2, 5, 3, 11})}, attrs);
      const auto volume = b.node("Resize", {b.input({3, 4, 5}), "", b.constant({3}, {1.5f, 0.7f, 2.0f})}, attrs);
      const auto matrix = b.node("Resize", {b.node("Relu", {b.input({6, 5})}), "", "", b.ints({4, 9})}, attrs);
      nlohmann::json with_axes = attrs;
      with_axes["axes"] = {-1, 1};
      const auto along = b.node("Resize", {b.input({2, 3, 4, 5}), "", b.constant({2}, {1.5f, 2.0f})}, with_axes);
      CHECK(b.shape_of(up) == Dims{2, 5, 17, 10});
      CHECK(b.shape_of(down) == Dims{2, 5, 4, 2});
      CHECK(b.shape_of(along) == Dims{2, 6, 4, 7});
      const TestModel model = b.build({up, down, sized, volume, matrix, along});
      check_against_reference(model, {.tolerance = 1e-6});
      check_against_reference(model, {.tolerance = 1e-6, .threads = {3}, .all_isas = false, .tile_flops = 500});
    }
  }
}

TEST_CASE("resize tiles give the same bits for any tiling") {
  ModelBuilder b(3);
  const auto x = b.input({1, 24, 13, 17});
  const auto y = b.node("Resize", {x, "", b.constant({4}, {1, 1, 2, 2})}, {{"mode", "linear"}});
  const auto volume = b.node("Relu", {b.input({3, 10, 12})});  // a producer: tiles wait on their source hull
  const auto z = b.node("Resize", {volume, "", "", b.ints({5, 7, 20})}, {{"mode", "linear"}});
  const TestModel model = b.build({y, z});
  const auto coarse = check_against_reference(model, {.tolerance = 1e-6, .tile_flops = 1e9});
  const auto fine = check_against_reference(model, {.tolerance = 1e-6, .threads = {3}, .tile_flops = 3e3});
  for (size_t i = 0; i < coarse.size(); ++i) {
    CHECK(std::memcmp(fine[i].floats().data(), coarse[i].floats().data(), 4 * coarse[i].floats().size()) == 0);
  }
}

// One Resize of `data` (row-major) with `attrs` and a scales or sizes input, run through
// the engine; returns the output values.
std::vector<float> resize_values(const Dims& dims, const std::vector<float>& data, nlohmann::json attrs,
                                 const std::vector<float>& scales, const std::vector<int64_t>& sizes) {
  ModelBuilder b(1);
  const auto x = b.input(dims);
  const auto y = scales.empty()
                     ? b.node("Resize", {x, "", "", b.ints(sizes)}, attrs)
                     : b.node("Resize", {x, "", b.constant({static_cast<int64_t>(scales.size())}, scales)}, attrs);
  TestModel model = b.build({y});
  model.inputs[0] = Tensor(model.inputs[0].name, model.inputs[0].dims, data);
  const auto out = check_against_reference(model, {.tolerance = 1e-6, .threads = {1}});
  return {out[0].floats().begin(), out[0].floats().end()};
}

TEST_CASE("resize reproduces the ONNX backend test outputs") {
  const std::vector<float> two_by_two = {1, 2, 3, 4}, two_by_four = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> four_by_four(16);
  for (int i = 0; i < 16; ++i) four_by_four[i] = static_cast<float>(i + 1);
  const auto check = [](const std::vector<float>& got, const std::vector<float>& expected) {
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(expected[i]).epsilon(1e-5));
  };
  for (const Dims& dims : {Dims{1, 1, 2, 2}, Dims{2, 2}}) {
    const bool image = dims.size() == 4;
    auto scales = [&](float h, float w) { return image ? std::vector<float>{1, 1, h, w} : std::vector<float>{h, w}; };
    INFO("rank " << dims.size());
    // resize_upsample_scales_nearest
    check(resize_values(dims, two_by_two, {}, scales(2, 3), {}),
          {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
    // resize_upsample_scales_linear and its align_corners variant
    check(resize_values(dims, two_by_two, {{"mode", "linear"}}, scales(2, 2), {}),
          {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
    check(resize_values(dims, two_by_two, {{"mode", "linear"}, {"coordinate_transformation_mode", "align_corners"}},
                        scales(2, 2), {}),
          {1, 4 / 3.0f, 5 / 3.0f, 2, 5 / 3.0f, 2, 7 / 3.0f, 8 / 3.0f, 7 / 3.0f, 8 / 3.0f, 3, 10 / 3.0f, 3, 10 / 3.0f,
           11 / 3.0f, 4});
  }
  for (const Dims& dims : {Dims{1, 1, 2, 4}, Dims{2, 4}}) {
    const bool image = dims.size() == 4;
    auto scales = [&](float s) { return image ? std::vector<float>{1, 1, s, s} : std::vector<float>{s, s}; };
    // resize_downsample_scales_nearest / _linear / _linear_align_corners (fractional width)
    check(resize_values(dims, two_by_four, {}, scales(0.6f), {}), {1, 3});
    check(resize_values(dims, two_by_four, {{"mode", "linear"}}, scales(0.6f), {}), {2.6666665f, 4.3333331f});
    check(resize_values(dims, two_by_four, {{"mode", "linear"}, {"coordinate_transformation_mode", "align_corners"}},
                        scales(0.6f), {}),
          {1, 3.142857f});
  }
  // resize_upsample_sizes_nearest_ceil_half_pixel, _floor_align_corners,
  // _round_prefer_ceil_asymmetric: per-axis index patterns of 4 -> 8.
  const std::vector<std::pair<nlohmann::json, std::vector<int>>> patterns = {
      {{{"nearest_mode", "ceil"}}, {0, 1, 1, 2, 2, 3, 3, 3}},
      {{{"nearest_mode", "floor"}, {"coordinate_transformation_mode", "align_corners"}}, {0, 0, 0, 1, 1, 2, 2, 3}},
      {{{"nearest_mode", "round_prefer_ceil"}, {"coordinate_transformation_mode", "asymmetric"}},
       {0, 1, 1, 2, 2, 3, 3, 3}}};
  for (const auto& [attrs, pattern] : patterns) {
    INFO(attrs.dump());
    std::vector<float> expected;
    for (int r : pattern) {
      for (int c : pattern) expected.push_back(four_by_four[r * 4 + c]);
    }
    check(resize_values({1, 1, 4, 4}, four_by_four, attrs, {}, {1, 1, 8, 8}), expected);
  }
}

TEST_CASE("resize shape inference: scales floor, keep_aspect_ratio_policy rounds") {
  ModelBuilder b(1);
  const auto x = b.input({1, 1, 4, 6});
  CHECK(b.shape_of(b.node("Resize", {x, "", b.constant({4}, {1, 1, 1.3f, 0.5f})})) == Dims{1, 1, 5, 3});
  const nlohmann::json larger = {{"axes", {2, 3}}, {"keep_aspect_ratio_policy", "not_larger"}};
  const nlohmann::json smaller = {{"axes", {2, 3}}, {"keep_aspect_ratio_policy", "not_smaller"}};
  const auto a = b.node("Resize", {x, "", "", b.ints({3, 3})}, larger);
  const auto c = b.node("Resize", {x, "", "", b.ints({3, 3})}, smaller);
  CHECK(b.shape_of(a) == Dims{1, 1, 2, 3});
  CHECK(b.shape_of(c) == Dims{1, 1, 3, 5});
  check_against_reference(b.build({a, c}), {.tolerance = 1e-6, .threads = {2}});
}

TEST_CASE("resize rejects cubic, tf_crop_and_resize and antialias with the node's name") {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"mode", "cubic"}}, "mode \"cubic\" is not supported"},
      {{{"coordinate_transformation_mode", "tf_crop_and_resize"}}, "\"tf_crop_and_resize\" is not supported"},
      {{{"mode", "linear"}, {"antialias", 1}}, "antialias must be 0"}};
  for (const auto& [attrs, message] : cases) {
    ModelBuilder b(1);
    const auto y = b.node("Resize", {b.input({1, 2, 3, 3}), "", b.constant({4}, {1, 1, 2, 2})}, attrs);
    const TestModel model = b.build({y});
    auto compiled = Model::load(model.json, model.weights, {});
    REQUIRE(!compiled.ok());
    CHECK_THAT(compiled.status().message(), Catch::Contains("Resize") && Catch::Contains(message));
  }
}

}  // namespace
}  // namespace tessera::testing
