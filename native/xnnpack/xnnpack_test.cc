// The XNNPACK baseline against Tessera: the tiny zoo models XNNPACK can express, small graphs
// for each translation rule (layouts, broadcasting, fused epilogues, pools, relayouts), and
// the message listing the ops it cannot express.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>

#include "core/model/load.h"
#include "models/zoo/zoo.h"
#include "native/xnnpack/xnnpack_runner.h"
#include "tests/support/op_model.h"

namespace tessera::xnnpack {
namespace {

using testing::Dims;
using testing::ModelBuilder;
using testing::TestModel;

// The tiny zoo models, written once per test process into a temporary directory.
std::string tiny_zoo_dir() {
  static const std::string dir = [] {
    const auto path = std::filesystem::temp_directory_path() / ("tessera-xnnpack-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    auto requests = zoo::resolve_target("tiny", 1);
    REQUIRE(requests.ok());
    for (const zoo::ModelRequest& r : requests.value()) REQUIRE(zoo::generate(r, 1, path.string()).ok());
    return path.string();
  }();
  return dir;
}

struct TinyZooCleanup {
  ~TinyZooCleanup() {
    std::error_code ignored;
    std::filesystem::remove_all(
        std::filesystem::temp_directory_path() / ("tessera-xnnpack-test-" + std::to_string(getpid())), ignored);
  }
} cleanup;

// Largest |a - b| over the largest |b|.
double relative_difference(const Tensor& a, const Tensor& b) {
  REQUIRE(a.dims == b.dims);
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.floats().size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(a.floats()[i]) - b.floats()[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(b.floats()[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// Runs `xnn` (1 and 2 threads) and `tessera` on the same inputs; outputs within 1e-4.
void check_same_outputs(const std::function<Result<std::unique_ptr<XnnpackModel>>()>& load_xnnpack,
                        const std::shared_ptr<const Model>& tessera, std::vector<Tensor> inputs = {}) {
  if (inputs.empty()) inputs = random_inputs(tessera->info().value().inputs, 7);
  Session session(tessera, Executor::create(1));
  auto expected = session.run(inputs, {});
  REQUIRE(expected.ok());
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    auto model = load_xnnpack();
    REQUIRE(model.ok());
    auto runner = XnnpackRunner::create(std::move(model).value(), threads);
    REQUIRE(runner.ok());
    for (int repeat = 0; repeat < 2; ++repeat) {  // runtimes are reused across runs
      auto got = runner.value()->run(inputs);
      REQUIRE(got.ok());
      REQUIRE(got->size() == expected->size());
      for (size_t i = 0; i < got->size(); ++i) {
        INFO("output " << (*expected)[i].name);
        CHECK(relative_difference((*got)[i], (*expected)[i]) <= 1e-4);
      }
    }
  }
}

void check_zoo_model(const std::string& stem) {
  const std::string path = tiny_zoo_dir() + "/" + stem + ".json";
  auto tessera = Model::load_file(path, {});
  REQUIRE(tessera.ok());
  check_same_outputs([&] { return XnnpackModel::load_file(path); }, tessera.value());
}

void check_built(const TestModel& m) {
  auto tessera = Model::load(m.json, m.weights, {});
  REQUIRE(tessera.ok());
  check_same_outputs([&] { return XnnpackModel::load(m.json, m.weights); }, tessera.value(), m.inputs);
}

std::string unsupported_message(const std::string& json, const std::vector<uint8_t>& weights) {
  auto model = XnnpackModel::load(json, weights);
  REQUIRE(!model.ok());
  return model.status().message();
}

TEST_CASE("xnnpack runs tiny_cnn like Tessera: BN folded, depthwise, grouped, dilated, asymmetric pads, pools") {
  check_zoo_model("tiny_cnn");
}

TEST_CASE("xnnpack runs tiny_mlp like Tessera: Gemm forms, LeakyRelu, HardSigmoid, Sqrt, Pow 2, views") {
  check_zoo_model("tiny_mlp");
}

TEST_CASE("xnnpack lists every op kind it cannot express, with counts") {
  auto transformer = model::read_file(tiny_zoo_dir() + "/tiny_transformer.json");
  auto weights = model::read_file(tiny_zoo_dir() + "/tiny_transformer.bin");
  REQUIRE(transformer.ok());
  REQUIRE(weights.ok());
  const std::string json(reinterpret_cast<const char*>(transformer->data()), transformer->size());
  const auto* w = reinterpret_cast<const uint8_t*>(weights->data());
  const std::string message = unsupported_message(json, std::vector<uint8_t>(w, w + weights->size()));
  INFO(message);
  CHECK(message.rfind("xnnpack baseline: unsupported ops: ", 0) == 0);
  CHECK(message.find("LayerNormalization x4") != std::string::npos);
  CHECK(message.find("MatMul (batched) x") != std::string::npos);
  CHECK(message.find("Transpose x") != std::string::npos);
  CHECK(message.find("Tanh x1") != std::string::npos);
}

TEST_CASE("xnnpack rejects ReduceMean of tiny_mobilenet by name") {
  auto tessera = XnnpackModel::load_file(tiny_zoo_dir() + "/tiny_mobilenet.json");
  REQUIRE(!tessera.ok());
  CHECK(tessera.status().message() == "xnnpack baseline: unsupported ops: ReduceMean x1");
}

std::vector<StageKind> stage_kinds(const TestModel& m) {
  auto model = XnnpackModel::load(m.json, m.weights);
  REQUIRE(model.ok());
  std::vector<StageKind> kinds;
  for (const Stage& s : model.value()->stages()) kinds.push_back(s.kind);
  return kinds;
}

TEST_CASE("xnnpack concatenates by XNNPACK's strided copies: NHWC channels, rows, an input that is the model's") {
  ModelBuilder b(12);
  const auto x = b.input({1, 3, 6, 5});
  const auto a = b.node("Conv", {x, b.weight({4, 3, 1, 1})});
  const auto c = b.node("Conv", {x, b.weight({5, 3, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  auto y = b.node("Concat", {a, c, a}, {{"axis", 1}});  // channels: the last dim in NHWC
  y = b.node("Relu", {b.node("Conv", {y, b.weight({6, 13, 1, 1})})});
  const auto rows = b.node("Concat", {y, b.node("Conv", {x, b.weight({6, 3, 1, 1})})}, {{"axis", 2}});
  const TestModel m = b.build({b.node("Concat", {rows, rows}, {{"axis", 3}})});
  const std::vector<StageKind> kinds = stage_kinds(m);
  CHECK(std::count(kinds.begin(), kinds.end(), StageKind::kConcat) == 3);
  check_built(m);
}

TEST_CASE("xnnpack flattens an NHWC feature map through a C++ relayout before a Gemm") {
  ModelBuilder b(3);
  const auto x = b.input({2, 3, 7, 6});
  auto y = b.node("Conv", {x, b.weight({5, 3, 3, 3}), b.weight({5})}, {{"pads", {1, 1, 1, 1}}});
  y = b.node("Relu", {y});
  y = b.node("MaxPool", {y}, {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}, {"ceil_mode", 1}});  // 7x6 -> 4x3
  y = b.node("Flatten", {y});
  y = b.node("Gemm", {y, b.weight({4, 60}), b.weight({4})}, {{"transB", 1}});
  const TestModel m = b.build({b.node("Softmax", {y}, {{"axis", -1}})});
  // Stages: the input to NHWC, the convolution and pool, back to NCHW, the Gemm and softmax.
  auto model = XnnpackModel::load(m.json, m.weights);
  REQUIRE(model.ok());
  CHECK(stage_kinds(m) ==
        std::vector<StageKind>{StageKind::kRelayout, StageKind::kSubgraph, StageKind::kRelayout, StageKind::kSubgraph});
  check_built(m);
}

TEST_CASE("xnnpack adds residuals and activations after convs in NHWC") {
  ModelBuilder b(4);
  const auto x = b.input({1, 4, 9, 8});
  const auto a = b.node("Conv", {x, b.weight({4, 4, 3, 3}, -0.3f, 0.3f)}, {{"pads", {1, 1, 1, 1}}});
  const auto sum = b.node("Add", {a, x});  // residual fused into the conv
  const auto clipped = b.node("Clip", {sum, b.constant({}, {-0.5f}), b.constant({}, {0.5f})});
  const auto h = b.node("HardSwish", {b.node("Conv", {clipped, b.weight({6, 4, 1, 1})})});
  const auto s = b.node("Sigmoid", {b.node("Conv", {h, b.weight({6, 1, 3, 3}), b.weight({6})},
                                           {{"group", 6}, {"strides", {2, 2}}, {"pads", {0, 1, 1, 0}}})});
  check_built(b.build({b.node("LeakyRelu", {s}, {{"alpha", 0.2}})}));
}

TEST_CASE("xnnpack applies the scalar affine and activations fused after convolutions") {
  ModelBuilder b(11);
  const auto x = b.input({1, 3, 6, 6});
  auto y = b.node("Conv", {x, b.weight({4, 3, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  y = b.node("Add", {b.node("Mul", {b.node("Sigmoid", {y}), b.constant({}, {0.5f})}), b.constant({}, {1.0f})});
  y = b.node("ConvTranspose", {y, b.weight({4, 2, 2, 2}), b.weight({2})}, {{"strides", {2, 2}}});
  y = b.node("Div", {b.node("Relu", {y}), b.constant({}, {4.0f})});
  check_built(b.build({y}));
}

TEST_CASE("xnnpack broadcasts binary operands in NHWC: gates, per-channel constants, scalars") {
  ModelBuilder b(5);
  const auto x = b.input({2, 6, 5, 7});
  const auto f = b.node("Conv", {x, b.weight({6, 6, 1, 1})});
  const auto gate = b.node("Sigmoid", {b.node("GlobalAveragePool", {f})});  // [2, 6, 1, 1]
  auto y = b.node("Mul", {gate, f});
  y = b.node("Sub", {y, b.weight({6, 1, 1})});
  y = b.node("Div", {y, b.weight({1, 6, 1, 7}, 0.5f, 2.0f)});
  y = b.node("Add", {b.constant({}, {0.25f}), y});
  y = b.node("AveragePool", {y}, {{"kernel_shape", {3, 3}}, {"pads", {1, 1, 1, 1}}});
  check_built(b.build({b.node("Relu", {y})}));
}

TEST_CASE("xnnpack runs ConvTranspose as a deconvolution: groups, strides, pads, output_padding") {
  ModelBuilder b(8);
  const auto x = b.input({2, 4, 5, 6});
  auto y = b.node("ConvTranspose", {x, b.weight({4, 3, 3, 3}), b.weight({6})},
                  {{"group", 2}, {"strides", {2, 2}}, {"pads", {1, 0, 0, 1}}, {"output_padding", {1, 1}}});
  y = b.node("ConvTranspose", {y, b.weight({6, 2, 2, 2})}, {{"strides", {2, 2}}});
  check_built(b.build({y}));
}

TEST_CASE("xnnpack resizes bilinearly with the ONNX coordinate transforms it shares") {
  for (const char* mode : {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"}) {
    INFO(mode);
    ModelBuilder b(9);
    const auto x = b.input({1, 3, 5, 4});
    const nlohmann::json attributes = {{"mode", "linear"}, {"coordinate_transformation_mode", mode}};
    const auto up = b.node("Resize", {x, "", b.constant({4}, {1, 1, 2, 1.5f})}, attributes);
    const auto down = b.node("Resize", {up, "", "", b.ints({1, 3, 3, 3})}, attributes);
    check_built(b.build({down}));
  }
}

TEST_CASE("xnnpack pads NHWC maps with a constant") {
  ModelBuilder b(10);
  const auto x = b.input({1, 3, 6, 5});
  auto y = b.node("Conv", {x, b.weight({4, 3, 1, 1})});
  y = b.node("Pad", {y, b.ints({0, 0, 1, 2, 0, 0, 2, 1}), b.constant({}, {0.5f})});
  check_built(b.build({b.node("Conv", {y, b.weight({2, 4, 3, 3})})}));
}

TEST_CASE("xnnpack averages counting the padding by padding with zeros first") {
  ModelBuilder b(6);
  const auto x = b.input({1, 2, 5, 6});
  const auto y = b.node("Conv", {x, b.weight({3, 2, 1, 1})});  // NHWC from here
  check_built(b.build(
      {b.node("AveragePool", {y}, {{"kernel_shape", {3, 3}}, {"pads", {1, 2, 0, 1}}, {"count_include_pad", 1}})}));
}

TEST_CASE("xnnpack rejects AveragePool counting padding where ceil_mode adds windows past it") {
  ModelBuilder b(6);
  const auto x = b.input({1, 2, 6, 6});
  const auto y = b.node("AveragePool", {x},
                        {{"kernel_shape", {3, 3}},
                         {"strides", {2, 2}},
                         {"pads", {1, 1, 1, 1}},
                         {"ceil_mode", 1},
                         {"count_include_pad", 1}});
  const TestModel m = b.build({y});
  CHECK(unsupported_message(m.json, m.weights) ==
        "xnnpack baseline: unsupported ops: AveragePool (count_include_pad, ceil_mode) x1");
}

}  // namespace
}  // namespace tessera::xnnpack
