// ConvTranspose against the scatter-form reference over random geometries (strides, pads,
// output_padding, dilations, groups, odd sizes, bias), the ONNX padding rules, and tilings.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "core/ops/conv_transpose.h"
#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("conv transpose matches the reference over random geometries") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    ModelBuilder b(seed);
    auto& rng = b.rng();
    const int64_t n = random_int(rng, 1, 2), h = random_int(rng, 1, 11), w = random_int(rng, 1, 13);
    const int64_t kh = random_int(rng, 1, 4), kw = random_int(rng, 1, 4);
    const int64_t sh = random_int(rng, 1, 3), sw = random_int(rng, 1, 3);
    const int64_t dh = random_int(rng, 1, 2), dw = random_int(rng, 1, 2);
    const int64_t group = random_int(rng, 1, 3);
    const int64_t c = group * random_int(rng, 1, 6), m = group * random_int(rng, 1, 12);
    // Pads crop at most the full output minus one row.
    const int64_t full_h = sh * (h - 1) + (kh - 1) * dh + 1, full_w = sw * (w - 1) + (kw - 1) * dw + 1;
    const int64_t top = random_int(rng, 0, std::min<int64_t>(kh, (full_h - 1) / 2));
    const int64_t left = random_int(rng, 0, std::min<int64_t>(kw, (full_w - 1) / 2));
    const int64_t bottom = random_int(rng, 0, std::min<int64_t>(kh, (full_h - 1) / 2));
    const int64_t right = random_int(rng, 0, std::min<int64_t>(kw, (full_w - 1) / 2));
    const int64_t oph = random_int(rng, 0, std::max(sh, dh) - 1), opw = random_int(rng, 0, std::max(sw, dw) - 1);
    // A producer in front, so that tiles wait on exactly the input rows they read.
    const auto x = b.node("Relu", {b.input({n, c, h, w})});
    std::vector<std::string> inputs{x, b.weight({c, m / group, kh, kw}, -0.5f, 0.5f)};
    if (seed % 2) inputs.push_back(b.weight({m}));
    const auto y = b.node("ConvTranspose", inputs,
                          {{"strides", {sh, sw}},
                           {"dilations", {dh, dw}},
                           {"pads", {top, left, bottom, right}},
                           {"output_padding", {oph, opw}},
                           {"group", group}});
    CHECK(b.shape_of(y) == Dims{n, m, full_h + oph - top - bottom, full_w + opw - left - right});
    check_against_reference(b.build({y}));
    check_against_reference(b.build({y}), {.threads = {3}, .all_isas = false, .tile_flops = 2e3});
  }
}

TEST_CASE("conv transpose with a kernel as large as its stride and few outputs runs per input pixel") {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    ModelBuilder b(100 + seed);
    auto& rng = b.rng();
    const int64_t n = random_int(rng, 1, 2), h = random_int(rng, 1, 9), w = random_int(rng, 1, 17);
    const int64_t sh = random_int(rng, 1, 3), sw = random_int(rng, 1, 3);
    const int64_t c = random_int(rng, 1, 20), m = random_int(rng, 1, 31);
    // Pads crop up to a tap less than the stride; output_padding stays within what was
    // cropped at the end, so that every output is reached.
    const int64_t top = random_int(rng, 0, sh - 1), left = random_int(rng, 0, sw - 1);
    const int64_t bottom = random_int(rng, 0, sh - 1), right = random_int(rng, 0, sw - 1);
    const int64_t oph = std::min(bottom, random_int(rng, 0, sh - 1));
    const int64_t opw = std::min(right, random_int(rng, 0, sw - 1));
    if (sh * h - top - bottom < 1 || sw * w - left - right < 1) continue;
    const auto x = b.node("Relu", {b.input({n, c, h, w})});
    std::vector<std::string> inputs{x, b.weight({c, m, sh, sw}, -0.5f, 0.5f)};
    if (seed % 2) inputs.push_back(b.weight({m}));
    std::string y = b.node("ConvTranspose", inputs,
                           {{"kernel_shape", {sh, sw}},
                            {"strides", {sh, sw}},
                            {"pads", {top, left, bottom, right}},
                            {"output_padding", {oph, opw}}});
    if (seed % 3 == 1) y = b.node("Relu", {y});     // a clamp at the store
    if (seed % 3 == 2) y = b.node("Sigmoid", {y});  // a tail over the output rows
    const TestModel model = b.build({y});
    const ModelInfo info = compiled_info(model);
    const auto conv = std::find_if(info.nodes.begin(), info.nodes.end(),
                                   [](const NodeInfo& node) { return node.op == "ConvTranspose"; });
    REQUIRE(conv != info.nodes.end());
    CHECK_THAT(conv->kernel, Catch::EndsWith("_per_input_pixel"));
    check_against_reference(model);
    check_against_reference(model, {.threads = {3}, .all_isas = false, .tile_flops = 2e3});
  }
}

TEST_CASE("conv transpose cropping a whole input column keeps to the phase GEMM") {
  // pads of a stride or more leave the first input column reaching no output: the per-pixel
  // kernel, which reads whole input rows, would read past the footprint of a tile of W.
  ModelBuilder b(7);
  const auto x = b.node("Relu", {b.input({1, 8, 4, 4})});
  const auto y = b.node("ConvTranspose", {x, b.weight({8, 4, 2, 2})},
                        {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}, {"pads", {0, 2, 0, 0}}});
  const TestModel model = b.build({y});
  for (const NodeInfo& node : compiled_info(model).nodes) {
    if (node.op == "ConvTranspose") CHECK_THAT(node.kernel, !Catch::EndsWith("_per_input_pixel"));
  }
  check_against_reference(model, {.threads = {3}, .tile_flops = 50});
}

TEST_CASE("conv transpose footprints are the exact input rows that reach an output band") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 3000; ++trial) {
    const int64_t stride = random_int(rng, 1, 4), pad = random_int(rng, 0, 4), kernel = random_int(rng, 1, 5);
    const int64_t dilation = random_int(rng, 1, 3), in = random_int(rng, 1, 9);
    const int64_t full = stride * (in - 1) + (kernel - 1) * dilation + 1;
    const int64_t out = std::max<int64_t>(1, full - pad - random_int(rng, 0, 3));
    const int64_t begin = random_int(rng, 0, out - 1), end = random_int(rng, begin + 1, out);
    int64_t lo = in, hi = 0;  // brute force: every (input, tap) pair
    for (int64_t i = 0; i < in; ++i) {
      for (int64_t k = 0; k < kernel; ++k) {
        const int64_t o = i * stride - pad + k * dilation;
        if (o >= begin && o < end) lo = std::min(lo, i), hi = std::max(hi, i + 1);
      }
    }
    const auto range = ops::transposed_input_range(begin, end, stride, pad, kernel, dilation, in);
    INFO("stride " << stride << " pad " << pad << " kernel " << kernel << " dilation " << dilation << " in " << in
                   << " band [" << begin << ", " << end << ")");
    if (lo >= hi) {
      CHECK(range.first == range.second);
    } else {
      CHECK(range == std::make_pair(lo, hi));
    }
  }
}

TEST_CASE("conv transpose gives the same bits for every tiling") {
  // A fused Sigmoid runs per pixel on channel-split tiles and per row on tiles holding every
  // channel; 1 output channel is PP-OCR's probability map.
  for (int64_t out_channels : {40, 1}) {
    INFO("output channels " << out_channels);
    ModelBuilder b(5);
    const auto x = b.input({2, 24, 9, 10});
    const auto y =
        b.node("ConvTranspose", {x, b.weight({24, out_channels, 3, 3}, -0.3f, 0.3f), b.weight({out_channels})},
               {{"strides", {2, 2}}, {"pads", {1, 1, 0, 0}}, {"output_padding", {1, 0}}});
    const TestModel model = b.build({b.node("Sigmoid", {y})});
    const auto coarse = check_against_reference(model, {.tile_flops = 1e9});
    for (double tile_flops : {2e3, 3e4, 5e5}) {
      INFO("tile flops " << tile_flops);
      const auto fine = check_against_reference(model, {.threads = {2}, .all_isas = false, .tile_flops = tile_flops});
      CHECK(std::memcmp(fine[0].floats().data(), coarse[0].floats().data(), 4 * coarse[0].floats().size()) == 0);
    }
  }
}

TEST_CASE("conv transpose shape inference follows ONNX pads, auto_pad and output_shape") {
  ModelBuilder b(1);
  const auto x = b.input({1, 2, 3, 3});
  const auto w = b.weight({2, 4, 3, 3});
  // ONNX examples: strides [3, 2] with pads [1, 2, 1, 2] give 7x3; SAME_UPPER with strides 2 gives 6x6.
  CHECK(b.shape_of(b.node("ConvTranspose", {x, w}, {{"strides", {3, 2}}, {"pads", {1, 2, 1, 2}}})) == Dims{1, 4, 7, 3});
  CHECK(b.shape_of(b.node("ConvTranspose", {x, w}, {{"strides", {2, 2}}, {"auto_pad", "SAME_UPPER"}})) ==
        Dims{1, 4, 6, 6});
  CHECK(b.shape_of(b.node("ConvTranspose", {x, w}, {{"strides", {3, 2}}, {"output_shape", {10, 8}}})) ==
        Dims{1, 4, 10, 8});
  CHECK(b.shape_of(b.node("ConvTranspose", {x, w}, {{"strides", {3, 2}}, {"output_padding", {1, 1}}})) ==
        Dims{1, 4, 10, 8});
}

TEST_CASE("conv transpose pads per ONNX for auto_pad and output_shape") {
  // SAME_UPPER puts the odd pad at the end, SAME_LOWER at the start; output_shape larger than
  // the full output adds bias-only rows at the end.
  const std::vector<nlohmann::json> cases = {
      {{"strides", {2, 2}}, {"auto_pad", "SAME_UPPER"}},
      {{"strides", {2, 3}}, {"auto_pad", "SAME_LOWER"}},
      {{"strides", {3, 2}}, {"output_shape", {10, 8}}},
      {{"strides", {2, 2}}, {"output_shape", {5, 6}}, {"auto_pad", "SAME_UPPER"}},
      {{"strides", {2, 2}}, {"output_shape", {5, 6}}, {"auto_pad", "SAME_LOWER"}},
      {{"strides", {1, 2}}, {"auto_pad", "VALID"}, {"dilations", {2, 1}}},
  };
  uint32_t seed = 1;
  for (const auto& attrs : cases) {
    INFO(attrs.dump());
    ModelBuilder b(seed++);
    const auto y = b.node("ConvTranspose", {b.input({1, 3, 3, 4}), b.weight({3, 5, 3, 3}), b.weight({5})}, attrs);
    check_against_reference(b.build({y}), {.threads = {2}});
  }
}

TEST_CASE("conv transpose matches the ONNX example output") {
  // onnx backend test_convtranspose: x = 0..8 as 3x3, weights all ones, 2 output channels.
  ModelBuilder b(1);
  std::vector<float> ones(18, 1.0f);
  const auto y = b.node("ConvTranspose", {b.input({1, 1, 3, 3}), b.constant({1, 2, 3, 3}, ones)},
                        {{"strides", {3, 2}}, {"pads", {1, 2, 1, 2}}});
  TestModel model = b.build({y});
  for (int i = 0; i < 9; ++i) model.inputs[0].floats()[i] = static_cast<float>(i);
  const auto out = check_against_reference(model, {.tolerance = 0, .threads = {1}});
  const std::vector<float> plane = {1, 1, 3, 1, 1, 3, 7, 4, 9, 7, 4, 9, 7, 4, 9, 13, 7, 15, 13, 7, 15};
  REQUIRE(out[0].floats().size() == 42);
  for (int c = 0; c < 2; ++c) {
    for (size_t i = 0; i < plane.size(); ++i) CHECK(out[0].floats()[c * plane.size() + i] == plane[i]);
  }
}

TEST_CASE("conv transpose folds batchnorm and fuses bias, residual and activations, as PP-OCR's detector uses it") {
  for (int64_t group : {1, 2}) {
    ModelBuilder b(static_cast<uint32_t>(40 + group));
    const auto x = b.input({1, 8, 9, 7});
    auto y = b.node("ConvTranspose", {x, b.weight({8, 12 / group, 2, 2}, -0.5f, 0.5f)},
                    {{"strides", {2, 2}}, {"group", group}});
    y = b.node("BatchNormalization",
               {y, b.weight({12}, 0.5f, 1.5f), b.weight({12}), b.weight({12}), b.weight({12}, 0.5f, 2.0f)});
    y = b.node("Add", {y, b.weight({12, 1, 1})});
    y = b.node("Add", {y, b.input({1, 12, 18, 14})});
    y = b.node("Relu", {y});
    y = b.node("Sigmoid", {y});
    const TestModel model = b.build({y});
    check_against_reference(model);
    const ModelInfo info = compiled_info(model);
    for (const NodeInfo& n : info.nodes) {
      if (n.op == "ConvTranspose") CHECK(n.fused_nodes.size() == 5);  // bn, both adds, relu, sigmoid
      CHECK(n.op != "BatchNormalization");
      CHECK(n.op != "Add");
    }
  }
}

TEST_CASE("conv transpose rejects bad attributes with the node's name") {
  ModelBuilder b(1);
  const auto x = b.input({1, 4, 5, 5});
  const auto y = b.node("ConvTranspose", {x, b.weight({4, 2, 3, 3})}, {{"group", 3}});
  const TestModel model = b.build({y});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(), Catch::Contains("ConvTranspose") && Catch::Contains("group 3"));
}

}  // namespace
}  // namespace tessera::testing
