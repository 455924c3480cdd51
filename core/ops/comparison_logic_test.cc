// Comparisons (bool outputs), logic on bool and Where: hand-computed values compared
// exactly, NaN, every dtype against the reference with broadcasting, Where three ways.
#include <catch2/catch.hpp>

#include <limits>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

Tensor run_checked(const std::string& op, const std::vector<Tensor>& operands) {
  ModelBuilder b(1);
  std::vector<std::string> names;
  for (const Tensor& t : operands) names.push_back(b.input(t));
  return check_against_reference(b.build({b.node(op, names)}), {.tolerance = 0, .threads = {1, 2}}).at(0);
}

using Bools = std::vector<uint8_t>;

TEST_CASE("comparisons give exact bools, false for NaN except Equal's negation") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor a = floats({5}, {1, 2, 3, nan, -0.0f});
  const Tensor b = floats({5}, {2, 2, 2, nan, 0.0f});
  CHECK(values_of<uint8_t>(run_checked("Equal", {a, b})) == Bools{0, 1, 0, 0, 1});
  CHECK(values_of<uint8_t>(run_checked("Less", {a, b})) == Bools{1, 0, 0, 0, 0});
  CHECK(values_of<uint8_t>(run_checked("LessOrEqual", {a, b})) == Bools{1, 1, 0, 0, 1});
  CHECK(values_of<uint8_t>(run_checked("Greater", {a, b})) == Bools{0, 0, 1, 0, 0});
  CHECK(values_of<uint8_t>(run_checked("GreaterOrEqual", {a, b})) == Bools{0, 1, 1, 0, 1});
  const Tensor big = int64s({3}, {(int64_t{1} << 53) + 1, -5, 7});  // differs from 2^53 only as int64
  CHECK(values_of<uint8_t>(run_checked("Equal", {big, int64s({3}, {int64_t{1} << 53, -5, 8})})) == Bools{0, 1, 0});
  CHECK(values_of<uint8_t>(run_checked("Less", {int32s({3}, {-1, 0, 1}), int32s({}, {0})})) == Bools{1, 0, 0});
  CHECK(values_of<uint8_t>(run_checked("Equal", {bools({4}, {0, 0, 1, 1}), bools({4}, {0, 1, 0, 1})})) ==
        Bools{1, 0, 0, 1});
  CHECK(run_checked("Equal", {a, b}).dtype == DType::kBool);
}

TEST_CASE("not, and, or, xor follow their truth tables") {
  const Tensor a = bools({4}, {0, 0, 1, 1});
  const Tensor b = bools({4}, {0, 1, 0, 1});
  CHECK(values_of<uint8_t>(run_checked("Not", {a})) == Bools{1, 1, 0, 0});
  CHECK(values_of<uint8_t>(run_checked("And", {a, b})) == Bools{0, 0, 0, 1});
  CHECK(values_of<uint8_t>(run_checked("Or", {a, b})) == Bools{0, 1, 1, 1});
  CHECK(values_of<uint8_t>(run_checked("Xor", {a, b})) == Bools{0, 1, 1, 0});
}

TEST_CASE("comparisons and logic broadcast like numpy on every dtype") {
  const std::vector<std::pair<Dims, Dims>> shapes = {{{3, 4}, {3, 4}}, {{}, {3, 4}},        {{2, 3, 4}, {}},
                                                     {{}, {}},         {{2, 1, 4}, {3, 1}}, {{1, 6}, {5, 1}}};
  uint32_t seed = 1;
  for (const char* op : {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor"}) {
    const std::string name = op;
    const bool logic = name == "And" || name == "Or" || name == "Xor";
    for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kUInt8, DType::kBool}) {
      if ((dtype == DType::kBool) != logic && !(name == "Equal" && dtype == DType::kBool)) continue;
      for (const auto& [a, c] : shapes) {
        INFO(op << " " << dtype_name(dtype));
        ModelBuilder b(seed++);
        // Few distinct values, so that ties are common.
        const auto few = [&](const Dims& dims) {
          return dtype == DType::kFloat32 ? random_whole_floats(b.rng(), dims, 0, 3)
                                          : random_tensor(b.rng(), dtype, dims, 0, 3);
        };
        const auto x = b.input(few(a));
        const auto y = seed % 2 ? b.input(few(c)) : b.constant(few(c));
        const auto z = b.node(op, {x, y});
        CHECK(b.dtype_of(z) == DType::kBool);
        const TestModel model = b.build({z, b.node("Not", {z})});
        check_against_reference(model, {.tolerance = 0, .threads = {2}});
        check_against_reference(model, {.tolerance = 0, .threads = {3}, .all_isas = false, .tile_flops = 8});
      }
    }
  }
}

TEST_CASE("where selects by a condition broadcast three ways, for every dtype") {
  const Tensor picked = run_checked("Where", {bools({2, 1}, {1, 0}), int64s({3}, {1, 2, 3}), int64s({2, 1}, {-1, -2})});
  CHECK(picked.dims == Dims{2, 3});
  CHECK(values_of<int64_t>(picked) == std::vector<int64_t>{1, 2, 3, -2, -2, -2});
  CHECK(values_of<float>(run_checked("Where", {bools({}, {1}), floats({2}, {5, 6}), floats({}, {0})})) ==
        std::vector<float>{5, 6});

  const std::vector<std::array<Dims, 3>> shapes = {{Dims{2, 3, 4}, Dims{2, 3, 4}, Dims{2, 3, 4}},
                                                   {Dims{3, 1}, Dims{1, 4}, Dims{2, 1, 1}},
                                                   {Dims{}, Dims{5}, Dims{}},
                                                   {Dims{4, 1, 6}, Dims{}, Dims{1, 5, 1}},
                                                   {Dims{}, Dims{}, Dims{}}};
  uint32_t seed = 40;
  for (DType dtype : {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8}) {
    for (const auto& [c, x, y] : shapes) {
      for (int constants = 0; constants < 2; ++constants) {
        INFO(dtype_name(dtype) << " constants " << constants);
        ModelBuilder b(seed++);
        const auto cond = b.input(random_tensor(b.rng(), DType::kBool, c, 0, 1));
        const auto xs = b.input(random_tensor(b.rng(), dtype, x, -50, 50));
        const Tensor ys = random_tensor(b.rng(), dtype, y, -50, 50);
        const auto z = b.node("Where", {cond, xs, constants ? b.constant(ys) : b.input(ys)});
        CHECK(b.dtype_of(z) == dtype);
        check_against_reference(b.build({z}), {.tolerance = 0, .threads = {1, 3}, .tile_flops = 10});
      }
    }
  }
}

TEST_CASE("comparison, logic and where reject other dtypes, naming the input") {
  const auto rejects = [](const std::string& op, std::vector<Tensor> inputs, const std::string& message) {
    ModelBuilder b(1);
    std::vector<std::string> names;
    for (Tensor& t : inputs) names.push_back(b.input(std::move(t)));
    const TestModel model = b.build({b.node(op, names)});
    auto compiled = Model::load(model.json, model.weights, {});
    REQUIRE(!compiled.ok());
    CHECK_THAT(compiled.status().message(), Catch::Contains(op) && Catch::Contains(message));
  };
  rejects("Less", {bools({2}, {0, 1}), bools({2}, {1, 1})}, "is bool, expected float32 or int64 or int32 or uint8");
  rejects("Equal", {floats({2}, {0, 1}), int64s({2}, {1, 1})}, "input 1 \"in1\" is int64, expected float32");
  rejects("And", {floats({2}, {0, 1}), bools({2}, {1, 1})}, "is float32, expected bool");
  rejects("Where", {floats({2}, {0, 1}), floats({2}, {1, 1}), floats({2}, {1, 1})}, "is float32, expected bool");
  rejects("Where", {bools({2}, {0, 1}), floats({2}, {1, 1}), int32s({2}, {1, 1})}, "is int32, expected float32");
  rejects("Xor", {bools({2}, {0, 1}), bools({3}, {1, 1, 0})}, "cannot broadcast [2] with [3]");
}

}  // namespace
}  // namespace tessera::testing
