// Tests of the TEST-ONLY zoo oracle against hand-computed results, so that its verdicts on the
// generated models can be trusted.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "core/model/load.h"
#include "models/check/reference_interpreter.h"
#include "models/zoo/graph_builder.h"
#include "models/zoo/layers.h"

namespace {

using tessera::zoo::GraphBuilder;
using tessera::zoo::Tensor;
using tessera::zoo_check::RefTensor;

tessera::model::ModelDesc load(const GraphBuilder& g) {
  auto weights = tessera::AlignedBuffer::allocate(g.weights().size());
  if (!g.weights().empty()) std::memcpy(weights.data(), g.weights().data(), g.weights().size());
  auto model = tessera::model::load_model(g.to_json(g.graph_name() + ".bin"), std::move(weights));
  INFO(model.status().message());
  REQUIRE(model.ok());
  return std::move(model).value();
}

std::map<std::string, RefTensor> run(const GraphBuilder& g, const std::map<std::string, RefTensor>& inputs) {
  const auto model = load(g);
  auto result = tessera::zoo_check::run_reference(model, inputs);
  INFO(result.status().message());
  REQUIRE(result.ok());
  return result->outputs;
}

std::vector<float> iota(int n, float start = 1.0f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

}  // namespace

TEST_CASE("oracle conv with stride 2 and asymmetric pads reads the right window", "[zoo_oracle]") {
  GraphBuilder g("conv");
  Tensor x = g.input("x", {1, 1, 3, 3});
  Tensor w = g.initializer("w", {1, 1, 2, 2}, {1, 1, 1, 1});
  g.output(g.node("Conv", "conv", {x, w}, {1, 1, 2, 2},
                  {{"kernel_shape", {2, 2}}, {"pads", {0, 1, 1, 0}}, {"strides", {2, 2}}}),
           "y");
  const auto out = run(g, {{"x", RefTensor{{1, 1, 3, 3}, iota(9)}}});
  // Windows (top, left): (0,-1) -> 1+4, (0,1) -> 2+3+5+6, (2,-1) -> 7, (2,1) -> 8+9.
  CHECK(out.at("y").data == std::vector<float>{5, 16, 7, 17});
}

TEST_CASE("oracle grouped and dilated conv matches a direct sum", "[zoo_oracle]") {
  GraphBuilder g("conv_groups");
  Tensor x = g.input("x", {1, 2, 5, 5});
  Tensor w = g.initializer("w", {2, 1, 3, 3}, iota(18, -9.0f));
  g.output(g.node("Conv", "conv", {x, w}, {1, 2, 1, 1},
                  {{"dilations", {2, 2}}, {"group", 2}, {"kernel_shape", {3, 3}}}),
           "y");
  const std::vector<float> xs = iota(50, -25.0f);
  const auto out = run(g, {{"x", RefTensor{{1, 2, 5, 5}, xs}}});
  for (int c = 0; c < 2; ++c) {
    double expected = 0;
    for (int kh = 0; kh < 3; ++kh) {
      for (int kw = 0; kw < 3; ++kw) expected += (-9.0 + c * 9 + kh * 3 + kw) * xs[c * 25 + kh * 2 * 5 + kw * 2];
    }
    CHECK(out.at("y").data[c] == Approx(expected));
  }
}

TEST_CASE("oracle Gemm applies transB, alpha, beta and broadcasts C", "[zoo_oracle]") {
  GraphBuilder g("gemm");
  Tensor a = g.input("a", {2, 3});
  Tensor b = g.initializer("b", {2, 3}, {1, 0, 2, -1, 1, 0});  // [N, K]
  Tensor c = g.initializer("c", {1, 2}, {10, 20});
  g.output(g.node("Gemm", "gemm", {a, b, c}, {2, 2}, {{"alpha", 0.5}, {"beta", 2.0}, {"transB", 1}}), "y");
  const auto out = run(g, {{"a", RefTensor{{2, 3}, {1, 2, 3, 4, 5, 6}}}});
  // A*B^T = [[7, 1], [16, 1]]; 0.5 * that + 2 * [10, 20].
  CHECK(out.at("y").data == std::vector<float>{23.5f, 40.5f, 28.0f, 40.5f});
}

TEST_CASE("oracle MatMul broadcasts batch dimensions of either operand", "[zoo_oracle]") {
  GraphBuilder g("matmul");
  tessera::zoo::Rng rng(3);
  tessera::zoo::LayerBuilder nn(g, rng);
  Tensor a = g.input("a", {1, 2, 3});
  Tensor b = g.input("b", {2, 3, 2});
  g.output(nn.matmul(a, b, "mm"), "y");
  const std::vector<float> av = iota(6), bv = iota(12, -6.0f);
  const auto out = run(g, {{"a", RefTensor{{1, 2, 3}, av}}, {"b", RefTensor{{2, 3, 2}, bv}}});
  REQUIRE(out.at("y").shape == std::vector<int64_t>{2, 2, 2});
  for (int batch = 0; batch < 2; ++batch) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        double expected = 0;
        for (int k = 0; k < 3; ++k) expected += av[i * 3 + k] * bv[batch * 6 + k * 2 + j];
        CHECK(out.at("y").data[(batch * 2 + i) * 2 + j] == Approx(expected));
      }
    }
  }
}

TEST_CASE("oracle erf-pattern GELU equals the Gelu op", "[zoo_oracle]") {
  GraphBuilder g("gelu");
  tessera::zoo::Rng rng(3);
  tessera::zoo::LayerBuilder nn(g, rng);
  Tensor x = g.input("x", {8});
  Tensor y = nn.binary("Div", x, g.scalar(static_cast<float>(std::sqrt(2.0))), "div");
  y = nn.binary("Add", nn.unary("Erf", y, "erf"), g.scalar(1.0f), "add");
  y = nn.binary("Mul", nn.binary("Mul", x, y, "mul"), g.scalar(0.5f), "half");
  g.output(y, "pattern");
  g.output(nn.unary("Gelu", x, "gelu"), "op");
  const auto out = run(g, {{"x", RefTensor{{8}, {-3, -1.5f, -0.5f, 0, 0.25f, 1, 2, 4}}}});
  for (int i = 0; i < 8; ++i) CHECK(out.at("pattern").data[i] == Approx(out.at("op").data[i]).margin(1e-6));
  CHECK(out.at("op").data[5] == Approx(0.8413447).epsilon(1e-6));
}

TEST_CASE("oracle softmax rows sum to one and layer norm rows are standardised", "[zoo_oracle]") {
  GraphBuilder g("norms");
  tessera::zoo::Rng rng(3);
  tessera::zoo::LayerBuilder nn(g, rng);
  Tensor x = g.input("x", {2, 5});
  g.output(nn.softmax(x, "softmax"), "probs");
  Tensor gamma = g.initializer("gamma", {5}, {1, 1, 1, 1, 1});
  Tensor beta = g.initializer("beta", {5}, {0, 0, 0, 0, 0});
  g.output(g.node("LayerNormalization", "ln", {x, gamma, beta}, {2, 5}, {{"axis", -1}, {"epsilon", 1e-12}}), "ln");
  const auto out = run(g, {{"x", RefTensor{{2, 5}, {1, 2, 3, 4, 5, -3, 0, 7, 7, 1}}}});
  for (int row = 0; row < 2; ++row) {
    double sum = 0, mean = 0, sq = 0;
    for (int i = 0; i < 5; ++i) {
      sum += out.at("probs").data[row * 5 + i];
      mean += out.at("ln").data[row * 5 + i] / 5.0;
      sq += out.at("ln").data[row * 5 + i] * out.at("ln").data[row * 5 + i] / 5.0;
    }
    CHECK(sum == Approx(1.0));
    CHECK(mean == Approx(0.0).margin(1e-6));
    CHECK(sq == Approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("oracle max pool with padding and reduce mean over spatial axes", "[zoo_oracle]") {
  GraphBuilder g("pools");
  tessera::zoo::Rng rng(3);
  tessera::zoo::LayerBuilder nn(g, rng);
  Tensor x = g.input("x", {1, 2, 2, 3});
  g.output(nn.max_pool(x, "maxpool", 3, 2, 1), "max");
  g.output(nn.reduce_mean(x, "mean", {2, 3}, false), "mean");
  const auto out = run(g, {{"x", RefTensor{{1, 2, 2, 3}, iota(12)}}});
  CHECK(out.at("max").shape == std::vector<int64_t>{1, 2, 1, 2});
  CHECK(out.at("max").data == std::vector<float>{5, 6, 11, 12});
  CHECK(out.at("mean").shape == std::vector<int64_t>{1, 2});
  CHECK(out.at("mean").data == std::vector<float>{3.5f, 9.5f});
}

TEST_CASE("oracle transpose, reshape and concat move data like numpy", "[zoo_oracle]") {
  GraphBuilder g("moves");
  tessera::zoo::Rng rng(3);
  tessera::zoo::LayerBuilder nn(g, rng);
  Tensor x = g.input("x", {2, 3});
  Tensor t = nn.transpose(x, "t", {1, 0});
  g.output(t, "t");
  g.output(nn.concat({nn.reshape(t, "r", {2, 3}), x}, "cat", 0), "cat");
  const auto out = run(g, {{"x", RefTensor{{2, 3}, {1, 2, 3, 4, 5, 6}}}});
  CHECK(out.at("t").data == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(out.at("cat").data == std::vector<float>{1, 4, 2, 5, 3, 6, 1, 2, 3, 4, 5, 6});
}

TEST_CASE("oracle rejects attributes it does not know and wrong declared shapes", "[zoo_oracle]") {
  GraphBuilder g("bad");
  Tensor x = g.input("x", {2});
  g.output(g.node("Relu", "relu", {x}, {2}, {{"frobnicate", 1}}), "y");
  auto result = tessera::zoo_check::run_reference(load(g), {{"x", RefTensor{{2}, {1, 2}}}});
  REQUIRE(!result.ok());
  CHECK(result.status().message().find("frobnicate") != std::string::npos);

  GraphBuilder wrong("wrong_shape");
  Tensor a = wrong.input("a", {2, 3});
  wrong.output(wrong.node("Flatten", "flatten", {a}, {3, 2}, {{"axis", 1}}), "y");
  result = tessera::zoo_check::run_reference(load(wrong), {{"a", RefTensor{{2, 3}, iota(6)}}});
  REQUIRE(!result.ok());
  CHECK(result.status().message().find("declares") != std::string::npos);
}
