// Typed arithmetic (int64 / int32 / uint8 Add, Sub, Mul, Div, Pow, Mod), variadic Min / Max /
// Sum / Mean and PRelu: hand-computed values, broadcasting (rank-0 scalars included) against
// the reference as tiles and folded at specialisation, and what must never fuse.
#include <catch2/catch.hpp>

#include <limits>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();

// The node's output for these operands, computed once by tiles (run-time inputs) and once
// folded while the model is specialised (initializers); both must agree bitwise. A
// tolerance < 0 skips the comparison with the reference run (which cannot compare NaN).
Tensor run_tiled_and_folded(const std::string& op, const std::vector<Tensor>& operands,
                            const nlohmann::json& attributes = {}, double tolerance = 0) {
  std::vector<Tensor> results;
  for (bool constant : {false, true}) {
    ModelBuilder b(1);
    if (constant) b.input({1});  // a model needs an input, even one nothing reads
    std::vector<std::string> names;
    for (const Tensor& t : operands) names.push_back(constant ? b.constant(t) : b.input(t));
    const TestModel model = b.build({b.node(op, names, attributes)});
    results.push_back(check_against_reference(model, {.tolerance = tolerance, .threads = {1, 2}}).at(0));
  }
  CHECK(results[0].bytes == results[1].bytes);
  CHECK(results[0].dims == results[1].dims);
  return results[0];
}

template <class T>
void check_division(DType dtype) {
  INFO(dtype_name(dtype));
  // ONNX's mod test cases (mixed signs), and a dividend of each sign over a negative divisor.
  const std::vector<T> a = {-4, 7, 5, 4, -7, 8, -7, 7, -7};
  const std::vector<T> b = {2, -3, 8, -2, 3, 5, 2, -2, -2};
  const Dims dims{9};
  CHECK(values_of<T>(run_tiled_and_folded("Div", {tensor_of(dtype, dims, a), tensor_of(dtype, dims, b)})) ==
        std::vector<T>{-2, -2, 0, -2, -2, 1, -3, -3, 3});
  CHECK(values_of<T>(run_tiled_and_folded("Mod", {tensor_of(dtype, dims, a), tensor_of(dtype, dims, b)})) ==
        std::vector<T>{0, -2, 5, 0, 2, 3, 1, -1, -1});
  CHECK(values_of<T>(run_tiled_and_folded("Mod", {tensor_of(dtype, dims, a), tensor_of(dtype, dims, b)},
                                          {{"fmod", 1}})) == std::vector<T>{0, 1, 5, 0, -1, 3, -1, 1, -1});
}

TEST_CASE("integer div truncates toward zero and mod takes the divisor's sign (fmod: the dividend's)") {
  check_division<int64_t>(DType::kInt64);
  check_division<int32_t>(DType::kInt32);
}

TEST_CASE("integer division by zero gives 0 and min / -1 wraps, never trapping") {
  const Tensor a = int64s({4}, {5, -5, kMin64, kMin64});
  const Tensor b = int64s({4}, {0, 0, -1, 3});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Div", {a, b})) == std::vector<int64_t>{0, 0, kMin64, kMin64 / 3});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Mod", {a, b})) == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Mod", {a, b}, {{"fmod", 1}})) == std::vector<int64_t>{0, 0, 0, -2});
}

TEST_CASE("int64 arithmetic is exact beyond float precision and wraps at the ends of its range") {
  const int64_t big = int64_t{1} << 62, odd = (int64_t{1} << 53) + 1;
  const Tensor a = int64s({4}, {big, odd, -kMax64, kMax64});
  const Tensor b = int64s({4}, {big - 1, 1, 1, 1});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Add", {a, b})) ==
        std::vector<int64_t>{kMax64, odd + 1, -kMax64 + 1, kMin64});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Sub", {a, b})) ==
        std::vector<int64_t>{1, odd - 1, kMin64, kMax64 - 1});
  const Tensor c = int64s({3}, {3037000499, -3037000499, odd});
  const Tensor d = int64s({3}, {3037000499, 3037000499, 3});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Mul", {c, d})) ==
        std::vector<int64_t>{int64_t{3037000499} * 3037000499, -int64_t{3037000499} * 3037000499, odd * 3});
  CHECK(values_of<int32_t>(run_tiled_and_folded("Add", {int32s({}, {2147483647}), int32s({}, {1})})) ==
        std::vector<int32_t>{-2147483647 - 1});
}

TEST_CASE("pow takes integer and float bases and exponents of other dtypes") {
  const Tensor base = int64s({3}, {1, 2, 3});
  const Tensor exponent = int64s({3}, {4, 5, 6});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Pow", {base, exponent})) == std::vector<int64_t>{1, 32, 729});
  CHECK(values_of<int32_t>(run_tiled_and_folded("Pow", {int32s({3}, {1, 2, 3}), int32s({3}, {4, 5, 6})})) ==
        std::vector<int32_t>{1, 32, 729});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Pow", {base, floats({3}, {4, 5, 0.5f})})) ==
        std::vector<int64_t>{1, 32, 1});
  CHECK(values_of<float>(run_tiled_and_folded("Pow", {floats({3}, {1, 2, 3}), exponent})) ==
        std::vector<float>{1, 32, 729});
  CHECK(values_of<float>(run_tiled_and_folded("Pow", {floats({2}, {3, -2}), int32s({}, {2})})) ==
        std::vector<float>{9, 4});
  // A negative integer exponent truncates the real result: only bases 1 and -1 survive.
  CHECK(values_of<int64_t>(
            run_tiled_and_folded("Pow", {int64s({5}, {1, -1, -1, 2, 0}), int64s({5}, {-3, -3, -2, -1, -1})})) ==
        std::vector<int64_t>{1, -1, 1, 0, 0});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Pow", {int64s({3}, {2, 3, -4}), int64s({}, {2})})) ==
        std::vector<int64_t>{4, 9, 16});
}

TEST_CASE("pow broadcasts bases and exponents of mixed dtypes") {
  const std::vector<std::pair<DType, DType>> dtypes = {{DType::kInt64, DType::kInt64},
                                                       {DType::kInt32, DType::kInt64},
                                                       {DType::kInt64, DType::kFloat32},
                                                       {DType::kFloat32, DType::kInt32}};
  const std::vector<std::pair<Dims, Dims>> shapes = {{{2, 3, 4}, {}}, {{}, {3, 4}}, {{2, 1, 4}, {3, 1}}, {{}, {}}};
  uint32_t seed = 30;
  for (const auto& [base, exponent] : dtypes) {
    for (const auto& [a, c] : shapes) {
      INFO(dtype_name(base) << " ^ " << dtype_name(exponent));
      ModelBuilder b(seed++);
      const auto x = b.input(random_tensor(b.rng(), base, a, -12, 12));
      const auto y = b.input(random_tensor(b.rng(), exponent, c, -3, 9));
      check_against_reference(b.build({b.node("Pow", {x, y})}), {.tolerance = 0, .threads = {2}, .tile_flops = 10});
    }
  }
}

TEST_CASE("typed binary ops broadcast like numpy, rank-0 scalars included") {
  const std::vector<std::pair<Dims, Dims>> shapes = {
      {{2, 3, 4}, {2, 3, 4}}, {{}, {3, 4}},  {{2, 3, 4}, {}}, {{}, {}},
      {{2, 1, 4}, {3, 1}},    {{5}, {3, 5}}, {{1}, {7, 9}},   {{6, 1}, {1, 6}}};
  const std::vector<std::pair<const char*, nlohmann::json>> ops = {{"Add", {}}, {"Sub", {}}, {"Mul", {}},
                                                                   {"Div", {}}, {"Mod", {}}, {"Mod", {{"fmod", 1}}},
                                                                   {"Min", {}}, {"Max", {}}};
  uint32_t seed = 1;
  for (DType dtype : {DType::kInt64, DType::kInt32, DType::kUInt8, DType::kFloat32}) {
    for (const auto& [op, attributes] : ops) {
      if (dtype == DType::kFloat32 && std::string(op) == "Mod" && attributes.empty()) continue;  // needs fmod 1
      for (const auto& [a, c] : shapes) {
        for (bool constant : {false, true}) {
          INFO(op << " " << attributes.dump() << " " << dtype_name(dtype) << " constant " << constant);
          ModelBuilder b(seed++);
          const auto x = b.input(random_tensor(b.rng(), dtype, a, -40, 40));
          const Tensor other = random_tensor(b.rng(), dtype, c, -9, 9);
          const auto y = constant ? b.constant(other) : b.input(other);
          const TestModel model = b.build({b.node(op, {x, y}, attributes)});
          check_against_reference(model, {.tolerance = 0, .threads = {2}});
          check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 10});
        }
      }
    }
  }
}

TEST_CASE("min, max, sum and mean take one to many inputs and broadcast them all") {
  const Tensor a = floats({3}, {3, 2, 1}), b = floats({3}, {1, 4, 4}), c = floats({3}, {2, 5, 3});
  CHECK(values_of<float>(run_tiled_and_folded("Sum", {a, b, c})) == std::vector<float>{6, 11, 8});
  CHECK(values_of<float>(run_tiled_and_folded("Mean", {a, b, c})) == std::vector<float>{2, 11.0f / 3, 8.0f / 3});
  CHECK(values_of<float>(run_tiled_and_folded("Max", {a, b, c})) == std::vector<float>{3, 5, 4});
  CHECK(values_of<float>(run_tiled_and_folded("Min", {a, b})) == std::vector<float>{1, 2, 1});
  CHECK(values_of<float>(run_tiled_and_folded("Mean", {a})) == std::vector<float>{3, 2, 1});
  CHECK(values_of<int64_t>(run_tiled_and_folded("Max", {int64s({3}, {3, 2, 1}), int64s({}, {2})})) ==
        std::vector<int64_t>{3, 2, 2});
  CHECK(values_of<int32_t>(run_tiled_and_folded("Min", {int32s({2, 1}, {-5, 7}), int32s({3}, {0, 6, 9})})) ==
        std::vector<int32_t>{-5, -5, -5, 0, 6, 7});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor with_nan = run_tiled_and_folded("Max", {floats({2}, {nan, 1}), floats({2}, {1, nan})}, {}, -1);
  CHECK((std::isnan(with_nan.floats()[0]) && std::isnan(with_nan.floats()[1])));

  const std::vector<Dims> shapes = {{2, 3, 4}, {4}, {}, {3, 1}, {1, 1, 4}, {2, 1, 1}, {1}};
  uint32_t seed = 50;
  for (const char* op : {"Sum", "Mean", "Max", "Min"}) {
    const bool any_dtype = std::string(op) == "Max" || std::string(op) == "Min";
    for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kUInt8}) {
      if (dtype != DType::kFloat32 && !any_dtype) continue;
      for (size_t count = 1; count <= shapes.size(); ++count) {
        INFO(op << " " << dtype_name(dtype) << " " << count << " inputs");
        ModelBuilder m(seed++);
        std::vector<std::string> inputs;
        for (size_t i = 0; i < count; ++i) {
          const Tensor t = random_tensor(m.rng(), dtype, shapes[i], -20, 20);
          inputs.push_back(i % 3 == 2 ? m.constant(t) : m.input(t));
        }
        const TestModel model = m.build({m.node(op, inputs)});
        check_against_reference(model, {.tolerance = 0, .threads = {1, 3}, .tile_flops = 20});
      }
    }
  }
}

TEST_CASE("prelu broadcasts its slope to X only") {
  CHECK(values_of<float>(
            run_tiled_and_folded("PRelu", {floats({2, 3}, {-2, 0, 3, -1, -4, 5}), floats({3}, {0.5f, 2, 3})})) ==
        std::vector<float>{-1, 0, 3, -0.5f, -8, 5});
  uint32_t seed = 70;
  for (const Dims& slope : {Dims{5}, Dims{4, 1}, Dims{3, 4, 5}, Dims{}, Dims{1}}) {
    ModelBuilder b(seed++);
    const auto y = b.node("PRelu", {b.input({3, 4, 5}), b.weight(slope, 0, 1)});
    CHECK(b.shape_of(y) == Dims{3, 4, 5});
    check_against_reference(b.build({y}), {.tolerance = 0, .threads = {2}, .tile_flops = 10});
  }
  ModelBuilder b(9);
  const TestModel model = b.build({b.node("PRelu", {b.input({4}), b.weight({3, 4})})});
  auto compiled = Model::load(model.json, model.weights, {});
  REQUIRE(!compiled.ok());
  CHECK_THAT(compiled.status().message(),
             Catch::Contains("PRelu") && Catch::Contains("slope [3, 4] does not broadcast to X [4]"));
}

TEST_CASE("typed ops read NHWC convolution outputs and follow their layout when float") {
  ModelBuilder b(80);
  // Integer-valued data and weights: the convolution is exact on every ISA, so comparisons
  // of its output are too.
  const auto x = b.input(random_whole_floats(b.rng(), {2, 4, 6, 7}, -3, 3));
  const auto conv = b.node("Conv", {x, b.constant(random_whole_floats(b.rng(), {4, 4, 1, 1}, -2, 2))});
  const auto prelu = b.node("PRelu", {conv, b.weight({4, 1, 1}, 0, 1)});
  const auto max = b.node("Max", {conv, x, b.weight({7}, -1, 1)});
  const auto as_int = b.node("Cast", {conv}, {{"to", 7}});
  const auto mod = b.node("Mod", {as_int, b.ints({}, {-3})});
  check_against_reference(b.build({prelu, max, mod}), {.tolerance = 0, .threads = {1, 2}, .tile_flops = 50});
}

TEST_CASE("int64 shape arithmetic on constants folds at specialisation") {
  ModelBuilder b(90);
  const auto x = b.input({2, 3, 4});
  const auto dims = b.ints({2, 3, 4});
  const auto is_three = b.node("Equal", {dims, b.ints({}, {3})});
  const auto target = b.node("Where", {is_three, b.ints({1}, {-1}), b.node("Mul", {dims, b.ints({}, {1})})});
  const auto shifted = b.node("Add", {b.node("Sub", {target, b.ints({3}, {0, 1, 0})}), b.ints({3}, {0, 1, 0})});
  const auto y = b.node("Reshape", {b.node("Relu", {x}), shifted});
  CHECK(b.shape_of(y) == Dims{2, 3, 4});
  const auto doubled = b.node("Mul", {dims, b.ints({}, {2})});
  const TestModel model = b.build({y, doubled});
  const std::vector<Tensor> out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out.at(1)) == std::vector<int64_t>{4, 6, 8});
  const ModelInfo info = compiled_info(model);
  const std::vector<NodeInfo>& nodes = info.nodes;
  REQUIRE(nodes.size() == 1);  // only the Relu runs; the Reshape is a view
  CHECK(nodes[0].op == "Relu");
}

TEST_CASE("integer binary ops never fuse into their producer or fold into a convolution") {
  ModelBuilder b(100);
  const std::vector<int64_t> values = {-7, -1, 0, 2, 5, 9, 1000, 1077936128};  // the last: 3.0f's bits
  const auto x = b.input(int64s({2, 4}, values));
  // x * (x + 3) / 6, HardSwish's shape without the Clip, and a per-channel Mul / Add after
  // a convolution (through a Cast): as floats the passes would rewrite both.
  const auto chain = b.node("Div", {b.node("Mul", {x, b.node("Add", {x, b.ints({}, {3})})}), b.ints({}, {6})});
  const auto f = b.input(random_whole_floats(b.rng(), {1, 2, 3, 3}, -3, 3));
  const auto conv = b.node("Cast", {b.node("Conv", {f, b.constant(floats({2, 2, 1, 1}, {1, 2, -1, 3}))})}, {{"to", 7}});
  const auto affine = b.node("Add", {b.node("Mul", {conv, b.ints({1, 2, 1, 1}, {3, -2})}), b.ints({}, {1})});
  // A bool op as a float op's only reader (a Relu's shape: x > 0) stays a node of its own.
  const auto sum = b.node("Add", {f, b.constant(floats({}, {0.5f}))});
  const auto positive = b.node("Or", {b.node("Greater", {sum, b.constant(floats({}, {0}))}), b.input(bools({}, {0}))});
  const TestModel model = b.build({chain, affine, positive});
  const std::vector<Tensor> out = check_against_reference(model, {.tolerance = 0});
  std::vector<int64_t> expected;
  for (int64_t v : values) expected.push_back(v * (v + 3) / 6);
  CHECK(values_of<int64_t>(out.at(0)) == expected);

  const ModelInfo info = compiled_info(model);
  const std::vector<NodeInfo>& nodes = info.nodes;
  std::vector<std::string> ops, kernels;
  for (const NodeInfo& n : nodes) {
    INFO(n.name << " " << n.kernel);
    CHECK(n.fused_nodes.empty());
    if (n.op == "Relayout") continue;
    ops.push_back(n.op);
    kernels.push_back(n.kernel.substr(0, n.kernel.find('_')));
  }
  CHECK(ops == std::vector<std::string>{"Add", "Mul", "Div", "Conv", "Cast", "Mul", "Add", "Add", "Greater", "Or"});
  CHECK(kernels == std::vector<std::string>{"i64", "i64", "i64", "f32", "f32", "i64", "i64", "f32", "f32", "bool"});
}

}  // namespace
}  // namespace tessera::testing
