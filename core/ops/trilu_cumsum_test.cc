// Trilu and CumSum: every dtype against the reference over threads, schedulers and small
// tiles, NHWC inputs read through strides, ONNX's test cases by hand, folding, and errors.
#include <catch2/catch.hpp>

#include <cstdint>

#include "tests/support/engine_check.h"
#include "tests/support/tensor_values.h"
#include "tests/support/tile_reads_check.h"

namespace tessera::testing {
namespace {

TEST_CASE("trilu matches the reference for every dtype, both triangles and diagonals beyond the matrix") {
  const std::vector<Dims> shapes = {{4, 5}, {3, 1, 5}, {2, 3, 6, 4}, {7, 3}};
  uint32_t seed = 1;
  for (const Dims& shape : shapes) {
    for (int64_t k : {INT64_MIN, int64_t{-7}, int64_t{-1}, int64_t{0}, int64_t{2}, int64_t{6}, INT64_MAX}) {
      for (int upper = 0; upper < 2; ++upper) {
        for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8}) {
          INFO("shape " << shape.size() << "-D, k " << k << ", upper " << upper << ", " << dtype_name(dtype));
          ModelBuilder b(seed++);
          const auto x =
              dtype == DType::kFloat32 ? b.input(shape) : b.input(random_tensor(b.rng(), shape, dtype, 1, 9));
          const auto y = b.node("Trilu", {x, b.ints(Dims{}, {k})}, {{"upper", upper}});
          CHECK(b.dtype_of(y) == dtype);
          check_against_reference(b.build({y}),
                                  {.tolerance = 0, .threads = {1, 3}, .all_isas = false, .tile_flops = 8});
        }
      }
    }
  }
}

TEST_CASE("trilu keeps ONNX's triangles: test_triu_one_row and test_tril_out_neg by hand") {
  const std::vector<int64_t> data = {5, 0, 3, 3, 7, 9, 3, 5, 2, 4, 7, 6, 8, 8, 1};
  ModelBuilder b(1);
  const auto x = b.input(Tensor::of("", {3, 1, 5}, DType::kInt64, data.data()));
  const auto triu = b.node("Trilu", {x, b.ints(Dims{}, {1})});
  const auto tril = b.node("Trilu", {x, b.ints(Dims{}, {-7})}, {{"upper", 0}});
  const auto lower = b.node("Trilu", {b.input(Tensor::of("", {5, 3}, DType::kInt64, data.data()))}, {{"upper", 0}});
  const auto out = check_against_reference(b.build({triu, tril, lower}), {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{0, 0, 3, 3, 7, 0, 3, 5, 2, 4, 0, 6, 8, 8, 1});
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>(15, 0));
  CHECK(values_of<int64_t>(out[2]) == std::vector<int64_t>{5, 0, 0, 3, 7, 0, 3, 5, 2, 4, 7, 6, 8, 8, 1});
}

TEST_CASE("trilu and cumsum read NHWC producers through strides; constant instances fold") {
  ModelBuilder b(3);
  const auto conv = b.node("Conv", {b.input({2, 3, 6, 5}), b.weight({4, 3, 1, 1})});
  const auto masked = b.node("Trilu", {conv}, {{"upper", 0}});
  const auto scanned = b.node("CumSum", {conv, b.ints(Dims{}, {1})}, {{"reverse", 1}});
  const auto folded = b.node("Trilu", {b.weight({3, 3})});
  const auto folded_sum = b.node("CumSum", {b.weight({3, 3}), b.ints(Dims{}, {0})});
  const TestModel model = b.build({masked, scanned, folded, folded_sum});
  check_against_reference(model, {.tolerance = 1e-5, .tile_flops = 40});
  const ModelInfo info = compiled_info(model);
  for (const NodeInfo& node : info.nodes) CHECK(node.shape != Dims{3, 3});
}

TEST_CASE("cumsum matches ONNX's 1-D and 2-D cases by hand") {
  const std::vector<float> x = {1, 2, 3, 4, 5};
  struct Case {
    int exclusive, reverse;
    std::vector<float> expected;
  };
  const std::vector<Case> cases = {
      {0, 0, {1, 3, 6, 10, 15}}, {1, 0, {0, 1, 3, 6, 10}}, {0, 1, {15, 14, 12, 9, 5}}, {1, 1, {14, 12, 9, 5, 0}}};
  for (const Case& c : cases) {
    ModelBuilder b(1);
    const auto axis = b.constant(Tensor::of("", {}, DType::kInt32, std::vector<int32_t>{0}.data()));
    const auto y =
        b.node("CumSum", {b.input(Tensor("", {5}, x)), axis}, {{"exclusive", c.exclusive}, {"reverse", c.reverse}});
    CHECK(values_of<float>(check_against_reference(b.build({y}), {.tolerance = 0})[0]) == c.expected);
  }
  const std::vector<float> m = {1, 2, 3, 4, 5, 6};
  ModelBuilder b(2);
  const auto input = b.input(Tensor("", {2, 3}, m));
  const auto rows = b.node("CumSum", {input, b.ints(Dims{}, {0})});
  const auto columns = b.node("CumSum", {input, b.ints(Dims{}, {-1})});
  const auto out = check_against_reference(b.build({rows, columns}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{1, 2, 3, 5, 7, 9});
  CHECK(values_of<float>(out[1]) == std::vector<float>{1, 3, 6, 4, 9, 15});
}

TEST_CASE("cumsum matches the reference on every axis, both directions, float32 and integers (wrapping)") {
  const Dims shape{3, 4, 5, 6};
  uint32_t seed = 1;
  for (int64_t axis : {0, 1, 2, 3, -1}) {
    for (int flags = 0; flags < 4; ++flags) {
      for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32}) {
        INFO("axis " << axis << ", exclusive " << (flags & 1) << ", reverse " << (flags >> 1) << ", "
                     << dtype_name(dtype));
        ModelBuilder b(seed++);
        const int64_t big = dtype == DType::kInt32 ? int64_t{1} << 30 : int64_t{1} << 62;
        const auto x = dtype == DType::kFloat32 ? b.input(shape) : b.input(random_tensor(b.rng(), shape, dtype, -9, 9));
        const auto y =
            b.node("CumSum", {x, b.ints(Dims{}, {axis})}, {{"exclusive", flags & 1}, {"reverse", flags >> 1}});
        // Integers near the top of their range wrap around (two's complement) on the way.
        const auto wrap = b.node(
            "CumSum",
            {b.input(random_tensor(b.rng(), {2, 5}, dtype == DType::kFloat32 ? DType::kInt64 : dtype, big - 3, big)),
             b.ints(Dims{}, {1})});
        check_against_reference(b.build({y, wrap}),
                                {.tolerance = 1e-6, .threads = {1, 3}, .all_isas = false, .tile_flops = 30});
      }
    }
  }
}

TEST_CASE("trilu and cumsum errors name the node") {
  ModelBuilder b(1);
  const auto x = b.input({4});
  CHECK_THAT(load_error(b.build({b.node("Trilu", {x})})), Catch::Contains("(Trilu") && Catch::Contains("rank 2"));
  ModelBuilder c(2);
  const auto m = c.input({2, 3});
  CHECK_THAT(load_error(c.build({c.node("CumSum", {m, c.ints(Dims{}, {2})})})),
             Catch::Contains("(CumSum") && Catch::Contains("axis 2 is out of range for rank 2"));
  ModelBuilder d(3);
  const auto axis = d.input(Tensor::of("", {}, DType::kInt64, std::vector<int64_t>{0}.data()));
  CHECK_THAT(load_error(d.build({d.node("CumSum", {d.input({2, 3}), axis})})),
             Catch::Contains("axis (input 1") && Catch::Contains("specialised"));
  ModelBuilder e(4);
  const auto flags = e.input(random_tensor(e.rng(), {2, 3}, DType::kBool, 0, 1));
  CHECK_THAT(load_error(e.build({e.node("CumSum", {flags, e.ints(Dims{}, {0})})})),
             Catch::Contains("is bool, expected float32 or int64 or int32"));
}

TEST_CASE("trilu and cumsum tiles read only what their footprints name") {
  ModelBuilder b(11);
  const auto x = b.node("Relu", {b.input({3, 6, 7})});
  const auto upper = b.node("Trilu", {x, b.ints(Dims{}, {1})});
  const auto scanned = b.node("CumSum", {x, b.ints(Dims{}, {1})}, {{"exclusive", 1}});
  const auto ids = b.input(random_tensor(b.rng(), {5, 4}, DType::kInt64, -50, 50));
  const auto lower = b.node("Trilu", {b.node("CumSum", {ids, b.ints(Dims{}, {0})}, {{"reverse", 1}})}, {{"upper", 0}});
  const auto columns = b.node("CumSum", {b.node("Relu", {b.input({6, 40})}), b.ints(Dims{}, {0})});
  const TestModel model = b.build({upper, scanned, lower, columns});
  check_tile_reads(model);
  CompileOptions options;
  options.threads = 3;
  options.tile_flops = 40;
  const ModelInfo info = compiled_info(model, options);
  CHECK(info.nodes.back().grid == Dims{1, 3});  // a scan down columns splits them, in blocks of 16
}

}  // namespace
}  // namespace tessera::testing
