// Einsum: hand-computed contractions, the forms real models use against the reference over
// threads, schedulers and small tiles, implicit outputs, ellipsis and size-1 broadcasting,
// folding of constant instances, and errors naming the node.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/tensor_values.h"
#include "tests/support/tile_reads_check.h"

namespace tessera::testing {
namespace {

// 1, 2, 3, ... (+ offset) in a tensor of these dims.
Tensor counting(const Dims& dims, float offset) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1) + offset;
  return Tensor("", dims, v);
}

TEST_CASE("einsum computes matmul, dot, sums, transposes and outer products by hand") {
  struct Case {
    const char* equation;
    std::vector<Dims> shapes;
    Dims expected_dims;
    std::vector<float> expected;
  };
  // Inputs count 1, 2, 3, ... and the second starts at 101 (these values are onnxruntime's).
  const std::vector<Case> cases = {
      {"ij,jk->ik", {{2, 3}, {3, 2}}, {2, 2}, {622, 628, 1549, 1564}},
      {"ij,jk", {{2, 3}, {3, 2}}, {2, 2}, {622, 628, 1549, 1564}},  // implicit: "ik"
      {"i j , j k -> i k", {{2, 3}, {3, 2}}, {2, 2}, {622, 628, 1549, 1564}},
      {"i,i", {{3}, {3}}, {}, {614}},
      {"ij->", {{2, 3}}, {}, {21}},
      {"ij->i", {{2, 3}}, {2}, {6, 15}},
      {"ij->ji", {{2, 3}}, {3, 2}, {1, 4, 2, 5, 3, 6}},
      {"ji", {{2, 3}}, {3, 2}, {1, 4, 2, 5, 3, 6}},  // implicit: alphabetical, "ij"
      {"ij,j->i", {{2, 3}, {1}}, {2}, {606, 1515}},  // a size-1 label broadcasts
      {"ij,kl->ijkl", {{2, 1}, {1, 2}}, {2, 1, 1, 2}, {101, 102, 202, 204}},
      {"ji,...", {{2, 3}, {2}}, {2, 3, 2}, {101, 404, 202, 505, 303, 606, 102, 408, 204, 510, 306, 612}},
      {"...ij->...ji", {{2, 3}}, {3, 2}, {1, 4, 2, 5, 3, 6}},
  };
  for (const Case& c : cases) {
    INFO(c.equation);
    ModelBuilder b(1);
    std::vector<std::string> inputs;
    for (size_t k = 0; k < c.shapes.size(); ++k) inputs.push_back(b.input(counting(c.shapes[k], 100.0f * k)));
    const auto y = b.node("Einsum", inputs, {{"equation", c.equation}});
    CHECK(b.shape_of(y) == c.expected_dims);
    const auto out = check_against_reference(b.build({y}), {.tolerance = 0});
    CHECK(values_of<float>(out[0]) == c.expected);
  }
}

TEST_CASE("einsum matches the reference for the contractions real models use") {
  struct Case {
    const char* equation;
    std::vector<Dims> shapes;
  };
  const std::vector<Case> cases = {
      {"bij,bjk->bik", {{5, 2, 3}, {5, 3, 4}}},
      {"bhid,bhjd->bhij", {{2, 3, 7, 8}, {2, 3, 5, 8}}},
      {"bhij,bhjd->bhid", {{2, 3, 7, 5}, {2, 3, 5, 8}}},
      {"ij->ji", {{9, 13}}},
      {"bhwc->bchw", {{2, 5, 6, 3}}},
      {"ij->i", {{7, 33}}},
      {"ijk->", {{3, 4, 5}}},
      {"i,j->ij", {{6}, {7}}},
      {"...ij,...jk->...ik", {{2, 3, 4, 5}, {3, 5, 6}}},
      {"...ij,...jk->...ik", {{2, 1, 4, 5}, {3, 5, 6}}},  // ellipsis dims broadcast
      {"...ij,...jk", {{4, 5}, {5, 6}}},                  // an ellipsis of no dims
      {"abc,cd,de->abe", {{2, 3, 4}, {4, 5}, {5, 3}}},    // three operands
      {"bn,anm,bm->ba", {{3, 4}, {5, 4, 6}, {3, 6}}},     // bilinear
      {"Ab,bC->AC", {{3, 4}, {4, 2}}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    INFO(c.equation);
    ModelBuilder b(seed++);
    std::vector<std::string> inputs;
    for (const Dims& shape : c.shapes) inputs.push_back(b.input(shape));
    const TestModel model = b.build({b.node("Einsum", inputs, {{"equation", c.equation}})});
    check_against_reference(model, {.tolerance = 1e-5});
    check_against_reference(model, {.tolerance = 1e-5, .threads = {3}, .all_isas = false, .tile_flops = 40});
  }
}

TEST_CASE("einsum reads NHWC producers and constant operands; all-constant instances fold") {
  ModelBuilder b(4);
  const auto conv = b.node("Conv", {b.input({2, 3, 5, 4}), b.weight({6, 3, 1, 1})});
  const auto mixed = b.node("Einsum", {conv, b.weight({6, 4})}, {{"equation", "nchw,cw->nhc"}});
  const auto folded = b.node("Einsum", {b.weight({3, 4}), b.weight({4})}, {{"equation", "ij,j->i"}});
  const TestModel model = b.build({mixed, folded});
  check_against_reference(model, {.tolerance = 1e-5, .tile_flops = 50});
  const ModelInfo info = compiled_info(model);
  int einsums = 0;
  for (const NodeInfo& node : info.nodes) einsums += node.op == "Einsum";
  CHECK(einsums == 1);
}

TEST_CASE("einsum errors name the node") {
  auto error_of = [](const char* equation, std::vector<Dims> shapes) {
    ModelBuilder b(1);
    std::vector<std::string> inputs;
    for (const Dims& shape : shapes) inputs.push_back(b.input(shape));
    return load_error(b.build({b.node("Einsum", inputs, {{"equation", equation}})}));
  };
  CHECK_THAT(
      error_of("ii->i", {{3, 3}}),
      Catch::Contains("(Einsum") && Catch::Contains("Einsum: repeated labels within one input are not supported"));
  CHECK_THAT(error_of("...ii->...i", {{2, 3, 3}}), Catch::Contains("repeated labels"));
  CHECK_THAT(error_of("ij,jk->ik", {{2, 3}, {4, 2}}), Catch::Contains("label j has sizes 3 and 4"));
  CHECK_THAT(error_of("ij,jk->ik", {{2, 3}}), Catch::Contains("2 input terms for 1 inputs"));
  CHECK_THAT(error_of("ijk->ij", {{2, 3}}), Catch::Contains("3 subscripts for input 0 of rank 2"));
  CHECK_THAT(error_of("...ij->ij", {{2, 2, 3}}), Catch::Contains("no \"...\""));
  CHECK_THAT(error_of("ij->ik", {{2, 3}}), Catch::Contains("output label k is in no input"));
  CHECK_THAT(error_of("ij->ii", {{2, 3}}), Catch::Contains("output label i is repeated"));
  CHECK_THAT(error_of("i1->i", {{2, 3}}), Catch::Contains("subscripts are letters"));
}

TEST_CASE("einsum tiles read only what their footprints name") {
  ModelBuilder b(14);
  const auto q = b.node("Relu", {b.input({2, 3, 6, 4})});
  const auto k = b.node("Relu", {b.input({2, 3, 5, 4})});
  const auto scores = b.node("Einsum", {q, k}, {{"equation", "bhid,bhjd->bhij"}});
  const auto mixed = b.node("Einsum", {scores, k}, {{"equation", "bhij,bhjd->bhid"}});
  const auto moved = b.node("Einsum", {q}, {{"equation", "bhwc->bchw"}});
  const auto summed = b.node("Einsum", {q}, {{"equation", "...ij->...i"}});
  check_tile_reads(b.build({mixed, moved, summed}));
}

}  // namespace
}  // namespace tessera::testing
