// Conv against the reference over random geometries: groups and depthwise, strides, pads
// (explicit and auto_pad), dilations, odd sizes, bias, and fused epilogues.
#include <catch2/catch.hpp>

#include "core/base/cpu_features.h"
#include "core/kernels/gemm/gemm.h"
#include "core/ops/conv.h"
#include "core/ops/spatial.h"
#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

TEST_CASE("conv matches the reference over random geometries") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    ModelBuilder b(seed);
    auto& rng = b.rng();
    const int64_t n = random_int(rng, 1, 2), h = random_int(rng, 1, 19), w = random_int(rng, 1, 23);
    const int64_t kh = random_int(rng, 1, 3) * 2 - 1, kw = random_int(rng, 1, 3) * 2 - 1;
    const int64_t dilation = random_int(rng, 1, 2), stride = random_int(rng, 1, 3);
    // Pads large enough that the window always fits.
    const int64_t pad_h = (kh - 1) * dilation, pad_w = (kw - 1) * dilation;
    std::vector<int64_t> pads{random_int(rng, 0, pad_h), random_int(rng, 0, pad_w), 0, 0};
    pads[2] = pad_h - pads[0];
    pads[3] = pad_w - pads[1];
    int64_t group = 1, c = random_int(rng, 1, 20), m = random_int(rng, 1, 40);
    switch (seed % 3) {
      case 0: group = c, m = c; break;  // depthwise
      case 1:
        group = random_int(rng, 1, 3), c = group * random_int(rng, 1, 5), m = group * random_int(rng, 1, 9);
        break;
      default: break;
    }
    const auto x = b.input({n, c, h, w});
    const auto wt = b.weight({m, c / group, kh, kw}, -0.5f, 0.5f);
    std::vector<std::string> inputs{x, wt};
    if (seed % 2) inputs.push_back(b.weight({m}));
    const auto y =
        b.node("Conv", inputs,
               {{"strides", {stride, stride}}, {"dilations", {dilation, dilation}}, {"pads", pads}, {"group", group}});
    check_against_reference(b.build({y}));
  }
}

TEST_CASE("pointwise convolutions read consecutive pixels: batches, groups, ragged blocks, any tiling") {
  // 1x1 at stride 1 without padding takes its rows as consecutive pixels (conv_bind.cc); a
  // padded or strided 1x1 places a window per row. Odd pixel counts leave blocks shorter than
  // the kernel's rows, and small tiles start blocks anywhere in an image.
  for (const auto& [group, pads, stride] :
       {std::tuple<int64_t, int64_t, int64_t>{1, 0, 1}, {3, 0, 1}, {1, 1, 1}, {1, 0, 2}}) {
    INFO("group " << group << ", pads " << pads << ", stride " << stride);
    ModelBuilder b(static_cast<uint32_t>(100 + group * 10 + pads + stride));
    const auto x = b.input({2, 3 * group, 9, 13});
    const auto y = b.node("Conv", {x, b.weight({5 * group, 3, 1, 1}), b.weight({5 * group})},
                          {{"group", group}, {"pads", {pads, pads, pads, pads}}, {"strides", {stride, stride}}});
    check_against_reference(b.build({y}), {.tile_flops = 300});
  }
}

TEST_CASE("stems of few channels read kernel rows in place and gather only in the padding") {
  // A ResNet-like 7x7 stride-2 stem and a 3x3 one with a dilation (gathered everywhere), on
  // odd sizes: kernel rows inside the image, across each edge, and wholly in the padding.
  for (const auto& [kernel, dilation] : {std::pair<int64_t, int64_t>{7, 1}, {3, 2}}) {
    INFO(kernel << "x" << kernel << ", dilation " << dilation);
    ModelBuilder b(static_cast<uint32_t>(kernel * 10 + dilation));
    const int64_t pad = (kernel - 1) * dilation / 2;
    const auto x = b.input({1, 3, 29, 31});
    const auto y =
        b.node("Conv", {x, b.weight({20, 3, kernel, kernel}), b.weight({20})},
               {{"strides", {2, 2}}, {"pads", {pad, pad + 1, pad, pad}}, {"dilations", {dilation, dilation}}});
    check_against_reference(b.build({b.node("Relu", {y})}), {.tile_flops = 20000});
  }
}

// The GEMM kernel a compiled node runs, by name.
const kernels::GemmKernel& kernel_named(const std::string& name) {
  for (const kernels::GemmKernel& kernel : kernels::gemm_kernels()) {
    if (name == kernel.name) return kernel;
  }
  FAIL("no GEMM kernel named " << name);
  return kernels::gemm_kernels().front();
}

TEST_CASE("convolutions whose input rows lie 4 KiB apart run a kernel of few rows, with the reference's values") {
  // 1024 channels at stride 1 and 512 at stride 2: adjacent output pixels read rows 4 KiB
  // apart (gemm.h: gemm_kernel_for), with a residual and a ReLU fused.
  for (const auto& [channels, stride] : {std::pair<int64_t, int64_t>{1024, 1}, {512, 2}}) {
    INFO(channels << " channels, stride " << stride);
    ModelBuilder b(static_cast<uint32_t>(channels + stride));
    const auto x = b.input({1, channels, 9, 10});
    auto y = b.node("Conv", {x, b.weight({40, channels, 1, 1}, -0.05f, 0.05f), b.weight({40})},
                    {{"strides", {stride, stride}}});
    const auto z = b.node("Conv", {x, b.weight({40, channels, 1, 1}, -0.05f, 0.05f)}, {{"strides", {stride, stride}}});
    y = b.node("Relu", {b.node("Add", {y, z})});
    const TestModel model = b.build({y});
    check_against_reference(model);
    if (tessera::detected_isa() != tessera::Isa::kAvx512) continue;
    for (const NodeInfo& n : compiled_info(model).nodes) {
      if (n.op == "Conv") CHECK(kernel_named(n.kernel).mr <= kernels::kL1Ways);
    }
  }
}

TEST_CASE("convolutions of few output channels run a narrower GEMM panel, with the reference's values") {
  // 8, 16 and 48 outputs pad a 32-wide AVX-512 panel by half or a quarter; 3x3 and 1x1,
  // grouped, with a residual and a ReLU; split into channel blocks by small tiles.
  for (const int64_t outputs : {8, 16, 48}) {
    INFO(outputs << " output channels");
    ModelBuilder b(static_cast<uint32_t>(outputs));
    const auto x = b.input({1, 24, 11, 13});
    auto y = b.node("Conv", {x, b.weight({outputs, 24, 3, 3}, -0.1f, 0.1f), b.weight({outputs})},
                    {{"pads", {1, 1, 1, 1}}, {"strides", {2, 2}}});
    const auto z = b.node("Conv", {x, b.weight({outputs, 24, 1, 1}, -0.1f, 0.1f)}, {{"strides", {2, 2}}});
    y = b.node("Relu", {b.node("Add", {y, z})});
    y = b.node("Conv", {y, b.weight({2 * outputs, 1, 1, 1})}, {{"group", outputs}});
    const TestModel model = b.build({y});
    check_against_reference(model, {.tile_flops = 2000});
    const Isa isa = tessera::detected_isa();
    for (const NodeInfo& n : compiled_info(model).nodes) {
      if (n.op != "Conv" || n.shape[1] != outputs) continue;  // not the grouped one
      INFO(n.name << " runs " << n.kernel);
      CHECK(kernel_named(n.kernel).nr == kernels::gemm_panel_width(isa, static_cast<size_t>(outputs)));
      if (isa == Isa::kAvx512 && outputs <= 16) CHECK(kernel_named(n.kernel).nr == 16);
    }
  }
}

TEST_CASE("3x3 stride-1 convolutions run Winograd F(4x4, 3x3) within the bound of the reference, bitwise alike") {
  // Random sizes, odd and even, asymmetric pads (partial 4x4 tiles at every edge), a fused
  // residual and ReLU or a sigmoid; the same bits for every thread count, scheduler and tile
  // size.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    ModelBuilder b(seed + 500);
    auto& rng = b.rng();
    const int64_t h = random_int(rng, 14, 30), w = random_int(rng, 14, 30);
    const int64_t c = random_int(rng, 16, 40), m = random_int(rng, 16, 70);
    const int64_t top = random_int(rng, 0, 2), left = random_int(rng, 0, 2);
    const std::vector<int64_t> pads{top, left, 2 - top, 2 - left};
    const auto x = b.input({random_int(rng, 1, 2), c, h, w});
    auto y = b.node("Conv", {x, b.weight({m, c, 3, 3}, -0.2f, 0.2f), b.weight({m})}, {{"pads", pads}});
    if (seed % 2) y = b.node("Relu", {b.node("Add", {y, b.node("Conv", {x, b.weight({m, c, 1, 1})})})});
    if (seed % 3 == 0) y = b.node("Sigmoid", {y});  // an epilogue tail after the output transform
    const TestModel model = b.build({y});
    int winograd = 0;
    for (const NodeInfo& n : compiled_info(model).nodes) winograd += n.kernel.rfind("f32_winograd_f4x4_3x3", 0) == 0;
    CHECK(winograd == 1);
    const std::vector<Tensor> first = check_against_reference(model);
    CheckOptions small_tiles;
    small_tiles.tile_flops = 2e5;
    check_identical(check_against_reference(model, small_tiles), first);
  }
}

TEST_CASE("3x3 stride-1 convolutions run Winograd F(2x2, 3x3) within the bound of the reference, bitwise alike") {
  // As above, on F(2x2)'s tiles (partial 2x2 tiles at odd edges), chosen through a saved plan
  // (the convolution in one tile, the rest tiled for the threads); small images too, where
  // F(4x4)'s weights would outgrow the output and only F(2x2) applies.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    ModelBuilder b(seed + 600);
    auto& rng = b.rng();
    // Odd seeds: F(4x4) would add more than 6x the output in weights (27 x 32 against 6 x 128
    // pixels), F(2x2) not (7 x 40 against 6 x 72).
    const bool small = seed % 2;
    const int64_t h = small ? random_int(rng, 6, 8) : random_int(rng, 14, 30);
    const int64_t w = small ? random_int(rng, 12, 16) : random_int(rng, 14, 30);
    const int64_t c = random_int(rng, small ? 32 : 16, 40), m = random_int(rng, 16, 70);
    const int64_t top = random_int(rng, 0, 2), left = random_int(rng, 0, 2);
    const std::vector<int64_t> pads{top, left, 2 - top, 2 - left};
    const auto x = b.input({random_int(rng, 1, 2), c, h, w});
    const std::string conv = b.node("Conv", {x, b.weight({m, c, 3, 3}, -0.2f, 0.2f), b.weight({m})}, {{"pads", pads}});
    std::string y = conv;
    if (seed % 2) y = b.node("Relu", {b.node("Add", {y, b.node("Conv", {x, b.weight({m, c, 1, 1})})})});
    if (seed % 3 == 0) y = b.node("Sigmoid", {y});
    const TestModel model = b.build({y});
    CheckOptions f2;
    f2.algorithms = {{conv.substr(0, conv.size() - std::string("_out").size()), "winograd_f2"}};
    int winograd = 0;
    const CompileOptions compile = with_algorithms(model.json, model.weights, {}, f2.algorithms);
    for (const NodeInfo& n : compiled_info(model, compile).nodes) {
      winograd += n.kernel.rfind("f32_winograd_f2x2_3x3", 0) == 0;
    }
    CHECK(winograd == 1);
    ops::ConvAttrs attrs;
    attrs.kernel_h = attrs.kernel_w = 3;
    const ops::OpShapes shapes{{{1, c, h, w}, {m, c, 3, 3}}, {1, m, h, w}};
    CHECK(ops::winograd_allowed(attrs, shapes, ops::ConvAlgorithm::kWinogradF2));
    CHECK(ops::winograd_allowed(attrs, shapes, ops::ConvAlgorithm::kWinogradF4) == !small);
    const std::vector<Tensor> first = check_against_reference(model, f2);
    f2.tile_flops = 2e5;
    check_identical(check_against_reference(model, f2), first);
  }
}

TEST_CASE("a convolution's cost counts the input rows and columns its windows read") {
  // 1x1 at stride 2 reads every other row and column of its footprint; 3x3 at stride 2 all.
  ops::ConvAttrs a;
  a.stride_h = a.stride_w = 2;
  const ops::OpShapes s{{{1, 64, 28, 28}, {32, 64, 1, 1}}, {1, 32, 14, 14}};
  const ops::Region out = ops::Region::whole(s.output);
  const double outputs = 32 * 14 * 14, weights = 32 * 64;
  CHECK(ops::cost(a, s, out).bytes == 4 * (outputs + 64 * 14 * 14 + weights));
  a.kernel_h = a.kernel_w = 3;
  a.pad_top = a.pad_left = a.pad_bottom = a.pad_right = 1;
  const ops::OpShapes t{{{1, 64, 28, 28}, {32, 64, 3, 3}}, {1, 32, 14, 14}};
  CHECK(ops::cost(a, t, out).bytes == 4 * (outputs + 64 * 28 * 28 + 9 * weights));
  // A fused residual is read where the outputs go.
  a.epilogue.residual_input = 3;
  const ops::OpShapes r{{{1, 64, 28, 28}, {32, 64, 3, 3}, {32}, {1, 32, 14, 14}}, {1, 32, 14, 14}};
  CHECK(ops::cost(a, r, out).bytes == 4 * (2 * outputs + 64 * 28 * 28 + 9 * weights));
}

TEST_CASE("a depthwise convolution's cost counts the taps inside the image, as its kernel computes them") {
  // A 5x5 window over a 3 x 7 image, padded by 2 (stride 2 across): count by hand per output.
  ops::ConvAttrs a;
  a.kernel_h = a.kernel_w = 5;
  a.stride_w = 2;
  a.pad_top = a.pad_left = a.pad_bottom = a.pad_right = 2;
  a.group = 40;
  const ops::OpShapes s{{{1, 40, 3, 7}, {40, 1, 5, 5}}, {1, 40, 3, 4}};
  ops::Region out = ops::Region::whole(s.output);
  out.begin[1] = 8;
  out.begin[3] = 1;  // channels [8, 40), columns [1, 4)
  int64_t taps = 0;
  for (int64_t oh = 0; oh < 3; ++oh) {
    for (int64_t ow = 1; ow < 4; ++ow) {
      for (int64_t kh = 0; kh < 5; ++kh) {
        for (int64_t kw = 0; kw < 5; ++kw) {
          const int64_t ih = oh - 2 + kh, iw = ow * 2 - 2 + kw;
          taps += ih >= 0 && ih < 3 && iw >= 0 && iw < 7;
        }
      }
    }
  }
  REQUIRE(taps < 9 * 25);
  const ops::OpCost c = ops::cost(a, s, out);
  CHECK(c.kind == ops::WorkKind::kDepthwise);
  CHECK(c.flops == 2.0 * 32 * 3 * 3 * 25);  // the convolution's, what inspect reports
  CHECK(c.depthwise.channels == 32);
  CHECK(c.depthwise.taps == taps);
}

TEST_CASE("window taps inside the input match a count per output, with dilation and padding wider than the window") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t size = random_int(rng, 1, 12), kernel = random_int(rng, 1, 5), dilation = random_int(rng, 1, 3);
    const int64_t stride = random_int(rng, 1, 3), pad = random_int(rng, 0, 2 * kernel);
    const int64_t outputs = random_int(rng, 1, 10), begin = random_int(rng, 0, outputs - 1);
    int64_t want = 0;
    for (int64_t o = begin; o < outputs; ++o) {
      for (int64_t t = 0; t < kernel; ++t) {
        const int64_t i = o * stride - pad + t * dilation;
        want += i >= 0 && i < size;
      }
    }
    INFO("size " << size << " kernel " << kernel << " dilation " << dilation << " stride " << stride << " pad " << pad);
    CHECK(ops::window_taps_inside(begin, outputs, stride, pad, kernel, dilation, size) == want);
  }
}

TEST_CASE("conv shape inference follows ONNX for explicit and automatic padding") {
  ModelBuilder b(1);
  const auto x = b.input({1, 2, 10, 11});
  const auto w = b.weight({4, 2, 3, 3});
  CHECK(b.shape_of(b.node("Conv", {x, w}, {{"strides", {2, 2}}})) == Dims{1, 4, 4, 5});
  CHECK(b.shape_of(b.node("Conv", {x, w}, {{"pads", {1, 1, 1, 1}}})) == Dims{1, 4, 10, 11});
  CHECK(b.shape_of(b.node("Conv", {x, w}, {{"auto_pad", "SAME_UPPER"}, {"strides", {2, 2}}})) == Dims{1, 4, 5, 6});
  CHECK(b.shape_of(b.node("Conv", {x, w}, {{"auto_pad", "VALID"}, {"dilations", {2, 2}}})) == Dims{1, 4, 6, 7});
}

TEST_CASE("conv with auto_pad SAME_LOWER and SAME_UPPER matches the reference") {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    ModelBuilder b(7);
    const auto x = b.input({1, 3, 9, 8});
    const auto w = b.weight({5, 3, 4, 3});
    check_against_reference(b.build({b.node("Conv", {x, w}, {{"auto_pad", mode}, {"strides", {2, 3}}})}));
  }
}

TEST_CASE("conv fuses batchnorm, bias add, residual add and activations into its tiles") {
  ModelBuilder b(3);
  const auto x = b.input({2, 8, 13, 11});
  auto y = b.node("Conv", {x, b.weight({8, 8, 3, 3}, -0.3f, 0.3f)}, {{"pads", {1, 1, 1, 1}}});
  y = b.node("BatchNormalization",
             {y, b.weight({8}, 0.5f, 1.5f), b.weight({8}), b.weight({8}), b.weight({8}, 0.5f, 2.0f)});
  y = b.node("Add", {y, x});
  y = b.node("Relu", {y});
  auto z = b.node("Conv", {y, b.weight({16, 8, 1, 1})});
  z = b.node("Add", {z, b.weight({16, 1, 1})});
  z = b.node("Clip", {z, b.constant({}, {0.0f}), b.constant({}, {6.0f})});
  z = b.node("HardSwish", {z});
  const TestModel model = b.build({z});
  check_against_reference(model);
  const ModelInfo info = compiled_info(model);
  int convs = 0;
  for (const NodeInfo& n : info.nodes) {
    if (n.op != "Conv") continue;
    ++convs;
    if (n.fused.find("+residual") != std::string::npos) CHECK(n.fused_nodes.size() == 3);  // bn, add, relu
  }
  CHECK(convs == 2);
  CHECK(info.nodes.size() == 4);  // two convs and the relayouts in and out
}

TEST_CASE("conv absorbs constant affines, a spelled-out HardSwish and an affine after it (PP-OCR's blocks)") {
  ModelBuilder b(11);
  const auto x = b.input({1, 6, 11, 9});
  auto y = b.node("Conv", {x, b.weight({6, 1, 3, 3}), b.weight({6})}, {{"pads", {1, 1, 1, 1}}, {"group", 6}});
  y = b.node("Mul", {b.constant({1}, {1.5f}), y});
  y = b.node("Add", {y, b.constant({1}, {-0.25f})});
  y = b.node("Mul", {y, b.weight({6, 1, 1})});
  const auto shifted = b.node("Add", {y, b.constant({}, {3.0f})});
  const auto clipped = b.node("Clip", {shifted, b.constant({}, {0.0f}), b.constant({}, {6.0f})});
  y = b.node("Div", {b.node("Mul", {y, clipped}), b.constant({}, {6.0f})});
  y = b.node("Mul", {b.constant({1}, {0.75f}), y});
  y = b.node("Add", {y, b.constant({1}, {0.5f})});
  const TestModel model = b.build({y});
  check_against_reference(model);
  const ModelInfo info = compiled_info(model);
  int convs = 0;
  for (const NodeInfo& n : info.nodes) {
    CHECK((n.op == "Conv" || n.op == "Relayout"));
    if (n.op == "Conv") {
      ++convs;
      CHECK(n.fused == "HardSwish, *0.75+0.5");
    }
  }
  CHECK(convs == 1);
}

TEST_CASE("conv applies a fused tail over runs of pixel blocks, whatever the tiling") {
  // 1x1 and 3x3 GEMM convolutions with HardSwish and an affine after them, on images large
  // enough for many runs of blocks with a ragged last one; small tiles also split channels.
  // Weights of 40 x 16 go pixel blocks first; 288 x 256 (288 KiB) one panel at a time.
  struct Case {
    int64_t k, in, out;
  };
  for (const Case c : {Case{1, 16, 40}, Case{3, 16, 40}, Case{1, 256, 288}}) {
    INFO("kernel " << c.k << ", " << c.in << " -> " << c.out << " channels");
    const int64_t k = c.k;
    ModelBuilder b(17 + k + c.in);
    const auto x = b.input({1, c.in, 37, 29});
    auto y = b.node("Conv", {x, b.weight({c.out, c.in, k, k}, -0.3f, 0.3f), b.weight({c.out})},
                    {{"pads", {k / 2, k / 2, k / 2, k / 2}}});
    y = b.node("HardSwish", {y});
    y = b.node("Mul", {b.constant({1}, {0.75f}), y});
    y = b.node("Add", {y, b.constant({1}, {0.5f})});
    const TestModel model = b.build({y});
    check_against_reference(model);
    check_against_reference(model, {.tile_flops = 2e4});
    check_against_reference(model, {.tile_flops = 1e10});  // one tile: many runs per panel
  }
}

TEST_CASE("a depthwise tail on channel blocks goes through the scratch, with the whole tile's bits") {
  // 48 channels with HardSwish and an affine: small tiles split the channels, and each block's
  // runs of a few channels per pixel are gathered into long calls.
  ModelBuilder b(31);
  const auto x = b.input({1, 48, 37, 29});
  auto y = b.node("Conv", {x, b.weight({48, 1, 3, 3}, -0.3f, 0.3f), b.weight({48})},
                  {{"pads", {1, 1, 1, 1}}, {"group", 48}});
  y = b.node("HardSwish", {y});
  y = b.node("Mul", {b.constant({1}, {0.75f}), y});
  y = b.node("Add", {y, b.constant({1}, {0.5f})});
  const TestModel model = b.build({y});
  bool channel_blocks = false;
  for (const NodeInfo& n : compiled_info(model, {.tile_flops = 2e4}).nodes) {
    if (n.op == "Conv") channel_blocks = n.grid[1] > 1;
  }
  REQUIRE(channel_blocks);
  const std::vector<Tensor> whole = check_against_reference(model);
  const std::vector<Tensor> blocks = check_against_reference(model, {.tile_flops = 2e4});
  CHECK(bitwise_equal(whole, blocks));
}

}  // namespace
}  // namespace tessera::testing
