// MatMul and Gemm against the reference: batch broadcasting, vectors, transposes, alpha,
// beta and every C shape, constant and run-time B, fused bias / residual / scale / GELU.
#include <catch2/catch.hpp>

#include "core/ops/matmul.h"
#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("matmul matches the reference with batch broadcasting and odd sizes") {
  const std::vector<std::pair<Dims, Dims>> shapes = {{{1, 1}, {1, 1}},
                                                     {{13, 37}, {37, 29}},
                                                     {{70, 300}, {300, 100}},
                                                     {{5}, {5, 7}},
                                                     {{3, 4, 6}, {6}},
                                                     {{2, 3, 17, 9}, {9, 33}},
                                                     {{2, 1, 5, 8}, {3, 8, 4}},
                                                     {{4, 10, 64}, {4, 64, 10}},
                                                     {{1, 12, 20, 16}, {1, 12, 16, 20}},
                                                     {{33, 65}, {65, 1}},
                                                     {{37, 1024}, {1024, 40}}};  // rows 4 KiB apart
  uint32_t seed = 1;
  for (const auto& [a, bshape] : shapes) {
    for (bool constant_b : {false, true}) {
      INFO("A " << a.size() << "-D, B constant " << constant_b << ", seed " << seed);
      ModelBuilder b(seed++);
      const auto x = b.input(a);
      const auto w = constant_b ? b.weight(bshape) : b.input(bshape);
      check_against_reference(b.build({b.node("MatMul", {x, w})}));
    }
  }
}

TEST_CASE("gemm matches the reference for transposes, alpha, beta and every C shape") {
  const int64_t m = 11, k = 19, n = 37;
  const std::vector<Dims> c_shapes = {{}, {n}, {1, n}, {m, n}, {m, 1}, {1}};
  uint32_t seed = 100;
  for (int trans_a = 0; trans_a < 2; ++trans_a) {
    for (int trans_b = 0; trans_b < 2; ++trans_b) {
      for (const Dims& c : c_shapes) {
        INFO("transA " << trans_a << " transB " << trans_b << " C rank " << c.size());
        ModelBuilder b(seed++);
        const auto x = b.input(trans_a ? Dims{k, m} : Dims{m, k});
        const auto w = b.weight(trans_b ? Dims{n, k} : Dims{k, n});
        const auto y = b.node("Gemm", {x, w, b.weight(c)},
                              {{"transA", trans_a}, {"transB", trans_b}, {"alpha", 0.75}, {"beta", -1.5}});
        check_against_reference(b.build({y}));
      }
    }
  }
}

TEST_CASE("gemm with a run-time B and a run-time C") {
  ModelBuilder b(5);
  const auto x = b.input({9, 20});
  const auto w = b.input({33, 20});
  const auto c = b.input({9, 33});
  check_against_reference(b.build({b.node("Gemm", {x, w, c}, {{"transB", 1}, {"alpha", 2.0}})}));
}

TEST_CASE("matmul fuses bias, residual, scale and activation like a transformer layer") {
  ModelBuilder b(9);
  const auto x = b.input({2, 10, 32});
  auto q = b.node("MatMul", {x, b.weight({32, 32}, -0.2f, 0.2f)});
  q = b.node("Add", {q, b.weight({32})});
  auto scores = b.node("MatMul", {q, b.node("Transpose", {x}, {{"perm", {0, 2, 1}}})});
  scores = b.node("Div", {scores, b.constant({}, {8.0f})});
  auto h = b.node("MatMul", {b.node("Softmax", {scores}), x});
  h = b.node("Add", {b.node("Add", {h, b.weight({32})}), x});
  h = b.node("Gelu", {h});
  const TestModel model = b.build({h});
  check_against_reference(model, {.tolerance = 2e-4});
  const ModelInfo info = compiled_info(model);
  for (const NodeInfo& n : info.nodes) {
    CHECK(n.op != "Add");  // every Add was absorbed
    CHECK(n.op != "Div");
  }
}

TEST_CASE("a matmul's cost counts A's rows and B's columns its tile reads, and a fused residual") {
  ops::MatMulAttrs a;
  const ops::OpShapes s{{{64, 128}, {128, 32}, {64, 32}}, {64, 32}};
  ops::Region rows = ops::Region::whole(s.output);
  rows.end[0] = 16;
  const double outputs = 16 * 32, a_rows = 16 * 128, b = 128 * 32;
  CHECK(ops::cost(a, s, rows).bytes == 4 * (outputs + a_rows + b));
  a.epilogue.residual_input = 2;
  CHECK(ops::cost(a, s, rows).bytes == 4 * (2 * outputs + a_rows + b));
}

TEST_CASE("a GELU spelled out with Erf (PyTorch before opset 20) fuses into the matmul") {
  ModelBuilder b(31);
  const auto x = b.input({2, 7, 16});
  auto h = b.node("Add", {b.node("MatMul", {x, b.weight({16, 24})}), b.weight({24})});
  const auto erf = b.node("Erf", {b.node("Div", {h, b.constant({}, {1.4142135f})})});
  h = b.node("Mul", {b.node("Mul", {h, b.node("Add", {erf, b.constant({}, {1.0f})})}), b.constant({}, {0.5f})});
  const TestModel model = b.build({h});
  check_against_reference(model, {.tolerance = 1e-5});
  const ModelInfo info = compiled_info(model);
  REQUIRE(info.nodes.size() == 1);
  CHECK(info.nodes[0].fused == "Gelu");
}

TEST_CASE("matmul bias fusion keeps per-row adds and scalars right") {
  {
    ModelBuilder b(21);  // [4,8] x [8] -> [4]: the added vector runs along M, not N
    const auto y = b.node("MatMul", {b.input({4, 8}), b.weight({8})});
    check_against_reference(b.build({b.node("Add", {y, b.weight({4})})}));
  }
  {
    ModelBuilder b(22);  // a scalar constant after a single-column product
    const auto y = b.node("MatMul", {b.input({4, 8}), b.weight({8, 1})});
    check_against_reference(b.build({b.node("Add", {y, b.constant({}, {0.5f})})}));
  }
  {
    ModelBuilder b(23);  // an Add that broadcasts the product to a larger shape
    const auto y = b.node("MatMul", {b.input({1, 3, 8}), b.weight({8, 5})});
    check_against_reference(b.build({b.node("Add", {y, b.input({2, 3, 5})})}));
  }
}

}  // namespace
}  // namespace tessera::testing
