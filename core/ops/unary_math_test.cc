// The math unary ops (Sin ... Mish) through the engine: against the reference over each op's
// domain, hand-computed values (Round's ties, signed zeros), Neg / Abs / Sign on int64 and
// int32, folding of constant inputs, dtype errors, and fusion into a convolution's epilogue.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/graph/passes.h"
#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("every math unary op matches the reference over its domain, on every tiling") {
  struct Case {
    const char* op;
    nlohmann::json attributes;
    float lo, hi;  // input range: Log's stays positive
  };
  const Case cases[] = {
      {"Sin", {}, -10, 10},        {"Cos", {}, -10, 10},
      {"Exp", {}, -20, 20},        {"Log", {}, 1e-3f, 100},
      {"Neg", {}, -5, 5},          {"Abs", {}, -5, 5},
      {"Reciprocal", {}, 0.1f, 5}, {"Floor", {}, -6, 6},
      {"Ceil", {}, -6, 6},         {"Round", {}, -6, 6},
      {"Sign", {}, -2, 2},         {"Softplus", {}, -30, 30},
      {"Elu", {}, -8, 8},          {"Elu", {{"alpha", 0.3}}, -8, 8},
      {"Selu", {}, -8, 8},         {"Selu", {{"alpha", 2.0}, {"gamma", 0.5}}, -8, 8},
      {"Mish", {}, -25, 25},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO(c.op << " " << c.attributes.dump());
    ModelBuilder b(seed++);
    const auto y = b.node(c.op, {b.input({3, 17, 5}, c.lo, c.hi)}, c.attributes);
    CHECK(b.shape_of(y) == Dims{3, 17, 5});
    const TestModel model = b.build({y});
    check_against_reference(model, {.tolerance = 1e-6});
    check_against_reference(model, {.tolerance = 1e-6, .threads = {2}, .all_isas = false, .tile_flops = 20});
  }
}

// The engine's output for a run-time input x (checked against the reference: exactly for the
// ops whose kernels are exact, within 1e-6 of the largest value for the others).
std::vector<float> run_on(const char* op, const std::vector<float>& x, nlohmann::json attributes = {},
                          double tolerance = 0) {
  ModelBuilder b(7);
  const auto in = b.input(Tensor("x", {static_cast<int64_t>(x.size())}, x));
  const TestModel model = b.build({b.node(op, {in}, attributes)});
  const std::vector<Tensor> out = check_against_reference(model, {.tolerance = tolerance});
  return {out[0].floats().begin(), out[0].floats().end()};
}

bool same_floats(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i] || std::signbit(got[i]) != std::signbit(want[i])) return false;
  }
  return true;
}

TEST_CASE("round goes half to even; floor, ceil, round and sign keep ONNX's signed zeros") {
  const std::vector<float> x = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, -0.4f, 2.6f, -0.0f, 8388607.5f};
  CHECK(same_floats(run_on("Round", x), {0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, -0.0f, 3.0f, -0.0f, 8388608.0f}));
  CHECK(same_floats(run_on("Floor", x), {0.0f, 1.0f, 2.0f, -1.0f, -2.0f, -3.0f, -1.0f, 2.0f, -0.0f, 8388607.0f}));
  CHECK(same_floats(run_on("Ceil", x), {1.0f, 2.0f, 3.0f, -0.0f, -1.0f, -2.0f, -0.0f, 3.0f, -0.0f, 8388608.0f}));
  CHECK(same_floats(run_on("Sign", x), {1.0f, 1.0f, 1.0f, -1.0f, -1.0f, -1.0f, -1.0f, 1.0f, 0.0f, 1.0f}));
  CHECK(same_floats(run_on("Neg", {0.0f, -2.0f}), {-0.0f, 2.0f}));
  CHECK(same_floats(run_on("Abs", {-0.0f, -2.0f}), {0.0f, 2.0f}));
  CHECK(same_floats(run_on("Reciprocal", {4.0f, -0.5f}), {0.25f, -2.0f}));
}

TEST_CASE("exp, log and the activations give hand-computed values") {
  auto near = [](const char* op, const std::vector<float>& x, nlohmann::json attributes,
                 const std::vector<double>& want) {
    const std::vector<float> got = run_on(op, x, attributes, 1e-6);
    for (size_t i = 0; i < want.size(); ++i) {
      if (!(std::fabs(got[i] - want[i]) <= 2e-7 * std::fabs(want[i]))) return false;
    }
    return got.size() == want.size();
  };
  CHECK(near("Exp", {0.0f, 1.0f, -1.0f}, {}, {1.0, 2.718281828459045, 0.36787944117144233}));
  CHECK(
      near("Log", {1.0f, 2.0f, 0.5f, 1e-30f}, {}, {0.0, 0.6931471805599453, -0.6931471805599453, -69.07755278982137}));
  CHECK(near("Softplus", {0.0f, 50.0f, -1.0f}, {}, {0.6931471805599453, 50.0, 0.31326168751822286}));
  // Elu: alpha (e^x - 1) below 0; Selu: gamma alpha (e^x - 1) at or below 0, gamma x above.
  CHECK(near("Elu", {-1.0f, 2.0f}, {{"alpha", 2.0}}, {-1.2642411176571153, 2.0}));
  CHECK(near("Selu", {-1.0f, 3.0f}, {}, {-1.1113307412864784, 3.152103066444397}));
  CHECK(near("Mish", {1.0f, -1.0f, 30.0f}, {}, {0.8650983882673103, -0.30340146137410895, 30.0}));
  CHECK(near("Sin", {1.0f}, {}, {0.8414709848078965}));
  CHECK(near("Cos", {1.0f}, {}, {0.5403023058681398}));
  // The reference check is skipped: inf - inf is NaN to relative_error.
  const std::vector<float> log_edges = run_on("Log", {0.0f, std::numeric_limits<float>::infinity()}, {}, -1);
  CHECK((log_edges[0] == -std::numeric_limits<float>::infinity() && log_edges[1] > 3e38f));
}

template <class T>
std::vector<T> run_integer(const char* op, DType dtype, const std::vector<T>& x) {
  ModelBuilder b(3);
  const auto in = b.input(Tensor::of("x", {2, static_cast<int64_t>(x.size()) / 2}, dtype, x.data()));
  const auto y = b.node(op, {in});
  CHECK(b.dtype_of(y) == dtype);
  const std::vector<Tensor> out = check_against_reference(b.build({y}), {.tolerance = 0});
  REQUIRE(out[0].dtype == dtype);
  return {out[0].values<T>().begin(), out[0].values<T>().end()};
}

TEST_CASE("neg, abs and sign keep int64 and int32 data, the most negative value wrapping around") {
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
  const std::vector<int64_t> x64 = {-5, 0, 7, kMin64, kMax64, -1};
  CHECK(run_integer<int64_t>("Neg", DType::kInt64, x64) == std::vector<int64_t>{5, 0, -7, kMin64, -kMax64, 1});
  CHECK(run_integer<int64_t>("Abs", DType::kInt64, x64) == std::vector<int64_t>{5, 0, 7, kMin64, kMax64, 1});
  CHECK(run_integer<int64_t>("Sign", DType::kInt64, x64) == std::vector<int64_t>{-1, 0, 1, -1, 1, -1});
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  const std::vector<int32_t> x32 = {kMin32, -3, 0, 4};
  CHECK(run_integer<int32_t>("Neg", DType::kInt32, x32) == std::vector<int32_t>{kMin32, 3, 0, -4});
  CHECK(run_integer<int32_t>("Abs", DType::kInt32, x32) == std::vector<int32_t>{kMin32, 3, 0, 4});
  CHECK(run_integer<int32_t>("Sign", DType::kInt32, x32) == std::vector<int32_t>{-1, -1, 0, 1});
}

TEST_CASE("integer neg, abs and sign run as tiles over every tiling") {
  ModelBuilder b(5);
  std::vector<int64_t> values(6 * 50);
  for (int64_t& v : values) v = random_int(b.rng(), -1000, 1000);
  const auto x = b.input(Tensor::of("x", {6, 50}, DType::kInt64, values.data()));
  const auto y = b.node("Sign", {b.node("Abs", {b.node("Neg", {x})})});
  const TestModel model = b.build({y, b.node("Neg", {x})});
  check_against_reference(model, {.tolerance = 0});
  check_against_reference(model, {.tolerance = 0, .threads = {3}, .tile_flops = 10});
}

TEST_CASE("a math unary op of a constant is folded when the model is specialised") {
  ModelBuilder b(6);
  const std::vector<int64_t> shape = {-3, 4};
  const auto folded_int = b.node("Abs", {b.constant(Tensor::of("c", {2}, DType::kInt64, shape.data()))});
  const auto folded_float = b.node("Round", {b.constant({3}, {0.5f, 1.5f, -2.5f})});
  const auto runs = b.node("Exp", {b.input({4})});
  const TestModel model = b.build({folded_int, folded_float, runs});
  const ModelInfo info = compiled_info(model);
  const auto& nodes = info.nodes;
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].op == "Exp");
  const std::vector<Tensor> out = check_against_reference(model, {.tolerance = 1e-6});
  CHECK(std::vector<int64_t>(out[0].values<int64_t>().begin(), out[0].values<int64_t>().end()) ==
        std::vector<int64_t>{3, 4});
  CHECK(same_floats({out[1].floats().begin(), out[1].floats().end()}, {0.0f, 2.0f, -2.0f}));
}

TEST_CASE("float-only math ops reject integer inputs, naming the node and the tensor") {
  for (const char* op : {"Sin", "Log", "Round", "Elu", "Mish", "Reciprocal"}) {
    INFO(op);
    ModelBuilder b(8);
    const std::vector<int64_t> values = {1, 2};
    const std::string x = b.input(Tensor::of("ids", {2}, DType::kInt64, values.data()));
    const TestModel model = b.build({b.node(op, {x})});
    auto compiled = Model::load(model.json, model.weights, {});
    REQUIRE(!compiled.ok());
    CHECK_THAT(compiled.status().message(),
               Catch::Contains(op) && Catch::Contains(x) && Catch::Contains("int64") && Catch::Contains("float32"));
  }
}

// Any float unary op is an epilogue activation (the epilogue runs the elementwise kernel).
TEST_CASE("elu, selu, softplus and mish fuse into conv and matmul epilogues and match the reference") {
  for (const char* op : {"Elu", "Selu", "Softplus", "Mish", "Round"}) {
    for (const char* producer : {"Conv", "MatMul"}) {
      INFO(op << " after " << producer);
      ModelBuilder b(9);
      const bool conv = std::string(producer) == "Conv";
      const auto p = conv ? b.node("Conv", {b.input({1, 3, 9, 8}), b.weight({6, 3, 3, 3}), b.weight({6})},
                                   {{"pads", {1, 1, 1, 1}}})
                          : b.node("MatMul", {b.input({5, 12}), b.weight({12, 7})});
      const TestModel model = b.build({b.node(op, {p})});
      const ModelInfo info = compiled_info(model);
      int computing = 0;
      for (const NodeInfo& n : info.nodes) {
        if (n.op == "Relayout") continue;
        ++computing;
        CHECK(n.op == producer);
        CHECK(n.fused == op);
      }
      CHECK(computing == 1);
      check_against_reference(model, {.tolerance = 1e-5});
    }
  }
}

// Epilogues compute in float32: an integer Neg after an integer-typed producer that has an
// epilogue (built by hand here: no integer op with an epilogue exists yet) stays a node.
TEST_CASE("an integer neg is never fused into a producer's float epilogue") {
  graph::Graph g;
  auto tensor = [&](const char* name, DType dtype) {
    graph::Tensor t;
    t.name = name;
    t.shape = {4};
    t.dtype = dtype;
    return g.add_tensor(std::move(t));
  };
  for (DType dtype : {DType::kInt64, DType::kFloat32}) {
    g = graph::Graph();
    const int a = tensor("a", dtype), b = tensor("b", dtype), sum = tensor("sum", dtype), neg = tensor("neg", dtype);
    g.tensors[a].is_graph_input = g.tensors[b].is_graph_input = g.tensors[neg].is_graph_output = true;
    ops::BinaryAttrs add;
    add.op = kernels::BinaryOp::kAdd;
    ops::UnaryAttrs negate;
    negate.op = kernels::UnaryOp::kNeg;
    g.nodes.push_back(graph::Node{"add", "Add", add, {a, b}, sum});
    g.nodes.push_back(graph::Node{"neg", "Neg", negate, {sum}, neg});
    g.renumber_producers();
    graph::fuse_epilogues(g);
    INFO(dtype_name(dtype));
    CHECK(g.nodes[1].removed == (dtype == DType::kFloat32));  // the float one does fuse
  }
}

}  // namespace
}  // namespace tessera::testing
