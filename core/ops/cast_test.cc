// Cast among float32, int64, int32, bool and uint8: a view to the same dtype, a tiled op
// otherwise; truncation, saturation of NaN / inf / out-of-range floats, low-bit integer
// narrowing, round trips, and folding of constant inputs.
#include <catch2/catch.hpp>

#include <limits>

#include "tests/support/engine_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

// ONNX TensorProto numbers.
constexpr int kFloat = 1, kUInt8 = 2, kInt32 = 6, kInt64 = 7, kBool = 9;

Tensor cast(const Tensor& x, int to) {
  ModelBuilder b(1);
  const TestModel model = b.build({b.node("Cast", {b.input(x)}, {{"to", to}})});
  return check_against_reference(model, {.tolerance = 0, .threads = {1, 2}}).at(0);
}

TEST_CASE("cast to the input's own dtype is a view that runs no tile") {
  ModelBuilder b(1);
  const auto y = b.node("Relu", {b.node("Cast", {b.input({2, 3})}, {{"to", kFloat}})});
  const auto ids = b.node("Add", {b.node("Cast", {b.input(int64s({3}, {1, 2, 3}))}, {{"to", kInt64}}), b.ints({1})});
  CHECK(b.shape_of(y) == Dims{2, 3});
  const TestModel model = b.build({y, ids});
  const std::vector<Tensor> out = check_against_reference(model, {.tolerance = 0});
  CHECK(values_of<int64_t>(out.at(1)) == std::vector<int64_t>{2, 3, 4});
  const ModelInfo info = compiled_info(model);
  CHECK(info.nodes.size() == 2);  // the Relu and the Add
}

TEST_CASE("float to integer truncates toward zero; float to bool is x != 0") {
  const Tensor x = floats({7}, {-2.7f, -0.5f, -0.0f, 0.5f, 2.7f, 300.0f, 1e-30f});
  CHECK(values_of<int64_t>(cast(x, kInt64)) == std::vector<int64_t>{-2, 0, 0, 0, 2, 300, 0});
  CHECK(values_of<int32_t>(cast(x, kInt32)) == std::vector<int32_t>{-2, 0, 0, 0, 2, 300, 0});
  CHECK(values_of<uint8_t>(cast(x, kUInt8)) == std::vector<uint8_t>{0, 0, 0, 0, 2, 255, 0});
  CHECK(values_of<uint8_t>(cast(x, kBool)) == std::vector<uint8_t>{1, 1, 0, 1, 1, 1, 1});
}

TEST_CASE("NaN casts to integer 0 and out-of-range floats saturate (ONNX leaves both undefined)") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = floats({6}, {nan, inf, -inf, 1e20f, -1e20f, 2147483648.0f});
  const int64_t max64 = std::numeric_limits<int64_t>::max(), min64 = std::numeric_limits<int64_t>::min();
  const int32_t max32 = std::numeric_limits<int32_t>::max(), min32 = std::numeric_limits<int32_t>::min();
  CHECK(values_of<int64_t>(cast(x, kInt64)) == std::vector<int64_t>{0, max64, min64, max64, min64, 2147483648});
  CHECK(values_of<int32_t>(cast(x, kInt32)) == std::vector<int32_t>{0, max32, min32, max32, min32, max32});
  CHECK(values_of<uint8_t>(cast(x, kUInt8)) == std::vector<uint8_t>{0, 255, 0, 255, 0, 255});
  CHECK(values_of<uint8_t>(cast(x, kBool)) == std::vector<uint8_t>{1, 1, 1, 1, 1, 1});  // NaN is not zero
}

TEST_CASE("integer casts keep the low bits; bool and uint8 widen exactly") {
  const Tensor x = int64s({5}, {300, -1, (int64_t{1} << 40) + 5, 0, (int64_t{1} << 24) + 1});
  CHECK(values_of<int32_t>(cast(x, kInt32)) == std::vector<int32_t>{300, -1, 5, 0, (1 << 24) + 1});
  CHECK(values_of<uint8_t>(cast(x, kUInt8)) == std::vector<uint8_t>{44, 255, 5, 0, 1});
  CHECK(values_of<uint8_t>(cast(x, kBool)) == std::vector<uint8_t>{1, 1, 1, 0, 1});
  // To float: the nearest float (2^24 + 1 rounds to even).
  CHECK(values_of<float>(cast(x, kFloat)) ==
        std::vector<float>{300, -1, static_cast<float>((int64_t{1} << 40) + 5), 0, 16777216.0f});
  CHECK(values_of<int64_t>(cast(int32s({2}, {-7, 2147483647}), kInt64)) == std::vector<int64_t>{-7, 2147483647});
  const Tensor flags = bools({2}, {0, 1});
  CHECK(values_of<float>(cast(flags, kFloat)) == std::vector<float>{0, 1});
  CHECK(values_of<int64_t>(cast(flags, kInt64)) == std::vector<int64_t>{0, 1});
  CHECK(values_of<uint8_t>(cast(flags, kUInt8)) == std::vector<uint8_t>{0, 1});
  const Tensor bytes = tensor_of<uint8_t>(DType::kUInt8, {3}, {0, 200, 255});
  CHECK(values_of<float>(cast(bytes, kFloat)) == std::vector<float>{0, 200, 255});
  CHECK(values_of<int32_t>(cast(bytes, kInt32)) == std::vector<int32_t>{0, 200, 255});
  CHECK(values_of<uint8_t>(cast(bytes, kBool)) == std::vector<uint8_t>{0, 1, 1});
}

TEST_CASE("casts round-trip where the value fits, as tiles and folded") {
  struct Trip {
    DType from;
    int through;
    int back;
  };
  const std::vector<Trip> trips = {{DType::kInt64, kFloat, kInt64}, {DType::kInt32, kInt64, kInt32},
                                   {DType::kInt32, kFloat, kInt32}, {DType::kFloat32, kInt32, kFloat},
                                   {DType::kBool, kUInt8, kBool},   {DType::kUInt8, kInt64, kUInt8},
                                   {DType::kBool, kFloat, kBool},   {DType::kUInt8, kFloat, kUInt8}};
  uint32_t seed = 1;
  for (const Trip& trip : trips) {
    for (bool constant : {false, true}) {
      INFO(dtype_name(trip.from) << " through " << trip.through << " constant " << constant);
      ModelBuilder b(seed++);
      if (constant) b.input({1});  // a model needs an input, even one nothing reads
      const Dims dims{3, 5, 7};
      // Whole numbers within 2^24: exact in float32 and in every integer dtype here.
      const Tensor x = trip.from == DType::kFloat32 ? random_whole_floats(b.rng(), dims, -(1 << 24), 1 << 24)
                                                    : random_tensor(b.rng(), trip.from, dims, -(1 << 24), 1 << 24);
      const auto in = constant ? b.constant(x) : b.input(x);
      const auto there = b.node("Cast", {in}, {{"to", trip.through}});
      const auto back = b.node("Cast", {there}, {{"to", trip.back}, {"saturate", 1}});
      const TestModel model = b.build({back});
      const std::vector<Tensor> out =
          check_against_reference(model, {.tolerance = 0, .threads = {1, 3}, .tile_flops = 20});
      CHECK(out.at(0).bytes == x.bytes);
      if (constant) {
        const ModelInfo info = compiled_info(model);
        CHECK(info.nodes.empty());
      }
    }
  }
}

TEST_CASE("casts to types Tessera lacks are errors naming the type") {
  for (const auto& [to, name] :
       std::vector<std::pair<int, std::string>>{{10, "FLOAT16"}, {11, "DOUBLE"}, {40, "type 40"}}) {
    ModelBuilder b(2);
    const TestModel model = b.build({b.node("Cast", {b.input({2, 3})}, {{"to", to}})});
    auto rejected = Model::load(model.json, model.weights, {});
    REQUIRE(!rejected.ok());
    CHECK_THAT(rejected.status().message(),
               Catch::Contains("Cast") && Catch::Contains("Cast to " + name + " is not supported"));
  }
  ModelBuilder b(3);
  const TestModel model = b.build({b.node("Cast", {b.input({2})})});
  auto rejected = Model::load(model.json, model.weights, {});
  REQUIRE(!rejected.ok());
  CHECK_THAT(rejected.status().message(), Catch::Contains("attribute \"to\" is required"));
}

}  // namespace
}  // namespace tessera::testing
