// ScatterND and ScatterElements (the converter maps opset-9 Scatter to it): every reduction and dtype, duplicate
// indices (applied in index order on every tiling), constant and run-time indices, against
// the reference and the ONNX backend tests' values.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

const char* const kReductions[] = {"none", "add", "mul", "max", "min"};

TEST_CASE("scatter elements matches the reference for every axis, reduction and dtype") {
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    for (const char* reduction : kReductions) {
      if (dtype == DType::kBool && std::string(reduction) != "none") continue;
      for (int axis = -2; axis < 3; ++axis) {
        INFO(dtype_name(dtype) << " " << reduction << " axis " << axis);
        const int a = axis < 0 ? axis + 3 : axis;
        Dims indices_shape{3, 4, 5};  // no larger than the data outside the axis
        indices_shape[a] = 6;         // many duplicates along it
        ModelBuilder b(seed++);
        const Dims data_shape{4, 5, 6};
        const auto data = b.input(random_typed(b.rng(), data_shape, dtype, -4, 4));
        const auto updates = b.input(random_typed(b.rng(), indices_shape, dtype, -4, 4));
        const int64_t size = data_shape[a];
        const auto runtime = b.input(random_typed(b.rng(), indices_shape, DType::kInt32, -size, size - 1));
        const auto constant = b.constant(random_typed(b.rng(), indices_shape, DType::kInt64, -size, size - 1));
        const nlohmann::json attrs = {{"axis", axis}, {"reduction", reduction}};
        const auto y = b.node("ScatterElements", {data, runtime, updates}, attrs);
        const auto z = b.node("ScatterElements", {data, constant, updates}, attrs);
        CHECK(b.dtype_of(y) == dtype);
        const TestModel model = b.build({y, z});
        check_against_reference(model, {.tolerance = 0, .all_isas = false});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 20});
      }
    }
  }
}

TEST_CASE("scatter nd matches the reference for every tuple length, reduction and dtype") {
  struct Case {
    Dims indices;  // data is {5, 4, 6}
    Dims updates;
  };
  const std::vector<Case> cases = {{{7, 1}, {7, 4, 6}}, {{3, 3, 2}, {3, 3, 6}}, {{9, 3}, {9}}, {{2, 2, 3}, {2, 2}}};
  uint32_t seed = 1;
  for (DType dtype : all_dtypes()) {
    for (const char* reduction : kReductions) {
      if (dtype == DType::kBool && std::string(reduction) != "none") continue;
      for (const Case& c : cases) {
        INFO(dtype_name(dtype) << " " << reduction << " indices " << c.indices.size() << "-D");
        ModelBuilder b(seed++);
        const auto data = b.input(random_typed(b.rng(), {5, 4, 6}, dtype, -4, 4));
        const auto updates = b.input(random_typed(b.rng(), c.updates, dtype, -4, 4));
        // Values within every data dim: duplicates are frequent.
        const auto runtime = b.input(random_typed(b.rng(), c.indices, DType::kInt64, -4, 3));
        const auto constant = b.constant(random_typed(b.rng(), c.indices, DType::kInt32, -4, 3));
        const nlohmann::json attrs = {{"reduction", reduction}};
        const auto y = b.node("ScatterND", {data, runtime, updates}, attrs);
        const auto z = b.node("ScatterND", {data, constant, updates}, attrs);
        const TestModel model = b.build({y, z});
        check_against_reference(model, {.tolerance = 0, .all_isas = false});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 20});
      }
    }
  }
}

TEST_CASE("scatter gives the ONNX examples' values") {
  ModelBuilder b(1);
  const auto row = b.input(floats({1, 5}, {1, 2, 3, 4, 5}));
  const auto two = b.input(floats({1, 2}, {1.1f, 2.1f}));
  const auto with_axis = b.node("ScatterElements", {row, b.ints({1, 2}, {1, 3}), two}, {{"axis", 1}});
  const auto duplicates =
      b.node("ScatterElements", {row, b.input(int64s({1, 2}, {1, 1})), two}, {{"axis", 1}, {"reduction", "add"}});
  const auto negative = b.node("ScatterElements", {row, b.ints({1, 2}, {1, -3}), two}, {{"axis", 1}});
  const auto without_axis = b.node("ScatterElements", {b.input(floats({3, 3}, std::vector<float>(9, 0.0f))),
                                                       b.input(int64s({2, 3}, {1, 0, 2, 0, 2, 1})),
                                                       b.input(floats({2, 3}, {1, 1.1f, 1.2f, 2, 2.1f, 2.2f}))});
  // ScatterND: test_scatternd's first slices, a later duplicate winning, and an added one.
  std::vector<float> cube(64);
  for (int i = 0; i < 64; ++i) cube[i] = static_cast<float>(i);
  std::vector<float> planes(32);
  for (int i = 0; i < 32; ++i) planes[i] = static_cast<float>(100 + i);
  const auto data = b.input(floats({4, 4, 4}, cube));
  const auto slices = b.input(floats({2, 4, 4}, planes));
  const auto nd = b.node("ScatterND", {data, b.ints({2, 1}, {0, 2}), slices});
  const auto nd_last = b.node("ScatterND", {data, b.input(int64s({2, 1}, {3, 3})), slices});
  const auto nd_mul = b.node("ScatterND", {data, b.ints({2, 1}, {1, 1}), slices}, {{"reduction", "mul"}});
  const auto out = check_against_reference(
      b.build({with_axis, duplicates, negative, without_axis, nd, nd_last, nd_mul}), {.tolerance = 0});
  CHECK(values_of<float>(out[0]) == std::vector<float>{1, 1.1f, 3, 2.1f, 5});
  CHECK(values_of<float>(out[1]) == std::vector<float>{1, 2 + 1.1f + 2.1f, 3, 4, 5});
  CHECK(values_of<float>(out[2]) == std::vector<float>{1, 1.1f, 2.1f, 4, 5});
  CHECK(values_of<float>(out[3]) == std::vector<float>{2, 1.1f, 0, 1, 0, 2.2f, 0, 2.1f, 1.2f});
  const auto nd_values = values_of<float>(out[4]);
  const auto last_values = values_of<float>(out[5]);
  const auto mul_values = values_of<float>(out[6]);
  for (int i = 0; i < 16; ++i) {
    CHECK(nd_values[i] == 100 + i);         // plane 0 <- slice 0
    CHECK(nd_values[16 + i] == 16 + i);     // plane 1 kept
    CHECK(nd_values[32 + i] == 116 + i);    // plane 2 <- slice 1
    CHECK(last_values[48 + i] == 116 + i);  // plane 3: the later of two writes
    CHECK(mul_values[16 + i] == (16 + i) * (100.0f + i) * (116.0f + i));
  }
}

TEST_CASE("scatter updates from a run-time producer land the same on every tiling") {
  // Updates and data computed by tiles; many tiles, so updates cross tile borders.
  ModelBuilder b(7);
  const auto data = b.node("Relu", {b.input({8, 16, 12})});
  const auto updates = b.node("Sigmoid", {b.input({8, 30, 12})});
  const auto ids = b.input(random_typed(b.rng(), {8, 30, 12}, DType::kInt64, -16, 15));
  const auto y = b.node("ScatterElements", {data, ids, updates}, {{"axis", 1}, {"reduction", "add"}});
  const auto rows = b.node("ScatterND", {data, b.input(random_typed(b.rng(), {20, 2}, DType::kInt64, 0, 7)),
                                         b.node("Tanh", {b.input({20, 12})})});
  const TestModel model = b.build({y, rows});
  // (Sigmoid and Tanh kernels round differently from their references: hence the tolerance.)
  check_against_reference(model, {.tolerance = 1e-6, .threads = {1, 3}, .tile_flops = 100, .repeats = 2});
  check_against_reference(model, {.tolerance = 1e-6, .threads = {2}, .all_isas = false});
}

TEST_CASE("scatter clamps run-time indices, folds constants and checks its inputs") {
  ModelBuilder b(1);
  const auto y = b.node("ScatterElements", {b.input(int64s({4}, {0, 0, 0, 0})), b.input(int64s({3}, {9, -9, -1})),
                                            b.input(int64s({3}, {5, 6, 7}))});
  const auto folded = b.node("ScatterND", {b.ints({0, 0, 0}), b.ints({1, 1}, {-2}), b.ints({1}, {8})});
  // Integer sums wrap around.
  const auto wrapped =
      b.node("ScatterElements", {b.input(int32s({2}, {INT32_MAX, 5})), b.ints({0}), b.input(int32s({1}, {1}))},
             {{"reduction", "add"}});
  const TestModel model = b.build({y, folded, wrapped});
  const ModelInfo info = compiled_info(model);
  CHECK(info.nodes.size() == 2);  // the ScatterND on constants is folded
  const auto out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{6, 0, 0, 7});  // 9 -> 3 (then -1 -> 3 wins)
  CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{0, 8, 0});
  CHECK(values_of<int32_t>(out[2]) == std::vector<int32_t>{INT32_MIN, 5});

  struct Bad {
    std::string op;
    std::vector<Tensor> inputs;
    nlohmann::json attrs;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {"ScatterND",
       {bools({3}, {0, 1, 0}), int64s({1, 1}, {0}), bools({1}, {1})},
       {{"reduction", "add"}},
       "reduction \"add\" does not apply to bool data"},
      {"ScatterND", {floats({3}, {0, 1, 0}), int64s({1, 1}, {0}), int64s({1}, {1})}, {}, "is int64, expected float32"},
      {"ScatterND",
       {floats({3}, {0, 1, 0}), int64s({1, 1}, {0}), floats({2}, {1, 2})},
       {},
       "updates [2] must have shape [1]"},
      {"ScatterElements",
       {floats({3}, {0, 1, 0}), int64s({1}, {0}), floats({1}, {1})},
       {{"reduction", "sum"}},
       "must be none, add, mul, max or min"},
  };
  for (const Bad& c : bad) {
    ModelBuilder m(2);
    std::vector<std::string> inputs;
    for (const Tensor& t : c.inputs) inputs.push_back(m.input(t));
    const TestModel bad_model = m.build({m.node(c.op, inputs, c.attrs)});
    auto error = Model::load(bad_model.json, bad_model.weights, {});
    REQUIRE(!error.ok());
    CHECK_THAT(error.status().message(), Catch::Contains(c.op) && Catch::Contains(c.message));
  }
}

}  // namespace
}  // namespace tessera::testing
