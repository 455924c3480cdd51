// Shape, Size, Range and ConstantOfShape: values by hand (ONNX's test cases), errors naming
// the node, and models with symbolic dims whose shape arithmetic folds at specialisation.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/tensor_values.h"

namespace tessera::testing {
namespace {

template <class T>
Tensor scalar(DType dtype, T value) {
  return Tensor::of("", {}, dtype, &value);
}

// A tensor attribute as the model format writes it: `{"dtype", "shape": [n], "values"}`.
nlohmann::json tensor_attribute(const char* dtype, const std::vector<double>& values) {
  return {{"dtype", dtype}, {"shape", nlohmann::json::array({values.size()})}, {"values", values}};
}

TEST_CASE("shape slices dims with start and end (negative, clamped) and size counts elements") {
  struct Case {
    nlohmann::json attributes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {nlohmann::json::object(), {3, 4, 5}},
      {{{"start", 1}}, {4, 5}},
      {{{"end", 1}}, {3}},
      {{{"start", -1}}, {5}},
      {{{"end", -1}}, {3, 4}},
      {{{"start", 1}, {"end", 2}}, {4}},
      {{{"start", 1}, {"end", -1}}, {4}},
      {{{"start", -10}}, {3, 4, 5}},  // clamped
      {{{"end", 10}}, {3, 4, 5}},
  };
  for (const Case& c : cases) {
    INFO(c.attributes.dump());
    ModelBuilder b(1);
    const auto x = b.input({3, 4, 5});
    const auto shape = b.node("Shape", {x}, c.attributes);
    const auto size = b.node("Size", {x});
    CHECK(b.dtype_of(shape) == DType::kInt64);
    CHECK(b.shape_of(size) == Dims{});  // rank 0
    const auto out = check_against_reference(b.build({shape, size}), {.tolerance = 0});
    REQUIRE(out.size() == 2);
    CHECK(out[0].dims == Dims{static_cast<int64_t>(c.expected.size())});
    CHECK(values_of<int64_t>(out[0]) == c.expected);
    CHECK(out[1].dims.empty());
    CHECK(values_of<int64_t>(out[1]) == std::vector<int64_t>{60});
  }
  ModelBuilder b(2);
  const TestModel empty = b.build({b.node("Shape", {b.input({3, 4})}, {{"start", 2}})});
  CHECK_THAT(load_error(empty), Catch::Contains("Shape") && Catch::Contains("zero-size"));
}

TEST_CASE("range counts ceil((limit - start) / delta) values of the inputs' dtype") {
  {
    ModelBuilder b(1);  // ONNX test_range_int32_type_negative_delta
    b.input({1});       // a model needs an input
    const auto r =
        b.node("Range", {b.constant(scalar<int32_t>(DType::kInt32, 10)), b.constant(scalar<int32_t>(DType::kInt32, 6)),
                         b.constant(scalar<int32_t>(DType::kInt32, -3))});
    CHECK(b.dtype_of(r) == DType::kInt32);
    const auto out = check_against_reference(b.build({r}), {.tolerance = 0});
    CHECK(values_of<int32_t>(out[0]) == std::vector<int32_t>{10, 7});
  }
  {
    ModelBuilder b(2);  // ONNX test_range_float_type_positive_delta, and a fractional delta
    b.input({1});       // a model needs an input
    const auto r = b.node("Range", {b.constant(Dims{}, {1}), b.constant(Dims{}, {5}), b.constant(Dims{}, {2})});
    const auto f = b.node("Range", {b.constant(Dims{}, {0}), b.constant(Dims{}, {1}), b.constant(Dims{}, {0.25f})});
    const auto out = check_against_reference(b.build({r, f}), {.tolerance = 0});
    CHECK(values_of<float>(out[0]) == std::vector<float>{1, 3});
    CHECK(values_of<float>(out[1]) == std::vector<float>{0, 0.25f, 0.5f, 0.75f});
  }
  {
    ModelBuilder b(3);
    b.input({1});  // a model needs an input
    const auto r = b.node("Range", {b.ints(Dims{}, {-5}), b.ints(Dims{}, {5}), b.ints(Dims{}, {4})});
    const auto out = check_against_reference(b.build({r}), {.tolerance = 0});
    CHECK(values_of<int64_t>(out[0]) == std::vector<int64_t>{-5, -1, 3});
  }
  {
    ModelBuilder b(4);  // an empty range is an error naming the node
    b.input({1});       // a model needs an input
    const TestModel m = b.build({b.node("Range", {b.ints(Dims{}, {5}), b.ints(Dims{}, {5}), b.ints(Dims{}, {1})})});
    CHECK_THAT(load_error(m), Catch::Contains("(Range \"Range") && Catch::Contains("zero-size"));
  }
  {
    ModelBuilder b(5);
    b.input({1});  // a model needs an input
    const TestModel m = b.build({b.node("Range", {b.ints(Dims{}, {0}), b.ints(Dims{}, {5}), b.ints(Dims{}, {0})})});
    CHECK_THAT(load_error(m), Catch::Contains("delta is 0"));
  }
  {
    ModelBuilder b(6);  // from input data: not known at specialisation
    b.input({1});       // a model needs an input
    const auto start = b.input(scalar<int64_t>(DType::kInt64, 0));
    const TestModel m = b.build({b.node("Range", {start, b.ints(Dims{}, {5}), b.ints(Dims{}, {1})})});
    CHECK_THAT(load_error(m), Catch::Contains("start (input 0") && Catch::Contains("specialised"));
  }
  {
    ModelBuilder b(7);
    b.input({1});  // a model needs an input
    const TestModel m = b.build({b.node("Range", {b.ints(Dims{}, {0}), b.constant(Dims{}, {5}), b.ints(Dims{}, {1})})});
    CHECK_THAT(load_error(m), Catch::Contains("float32, expected int64"));
  }
}

TEST_CASE("constant of shape fills its value's dtype, float32 0 by default") {
  ModelBuilder b(1);
  b.input({1});  // a model needs an input
  const auto ones = b.node("ConstantOfShape", {b.ints({4, 3, 2})}, {{"value", tensor_attribute("float32", {1})}});
  const auto zeros = b.node("ConstantOfShape", {b.ints({10, 6})}, {{"value", tensor_attribute("int32", {0})}});
  const auto fill = b.node("ConstantOfShape", {b.ints({2, 2})}, {{"value", tensor_attribute("int64", {-7})}});
  const auto flags = b.node("ConstantOfShape", {b.ints({3})}, {{"value", tensor_attribute("bool", {1})}});
  const auto plain = b.node("ConstantOfShape", {b.ints({2})});
  const auto out = check_against_reference(b.build({ones, zeros, fill, flags, plain}), {.tolerance = 0});
  CHECK(out[0].dims == Dims{4, 3, 2});
  CHECK(values_of<float>(out[0]) == std::vector<float>(24, 1.0f));
  CHECK(out[1].dtype == DType::kInt32);
  CHECK(values_of<int32_t>(out[1]) == std::vector<int32_t>(60, 0));
  CHECK(values_of<int64_t>(out[2]) == std::vector<int64_t>(4, -7));
  CHECK(out[3].dtype == DType::kBool);
  CHECK(values_of<uint8_t>(out[3]) == std::vector<uint8_t>(3, 1));
  CHECK(out[4].dtype == DType::kFloat32);
  CHECK(values_of<float>(out[4]) == std::vector<float>(2, 0.0f));

  ModelBuilder zero(2);  // ONNX test_constantofshape_int_shape_zero: a zero-size output

  zero.input({1});  // a model needs an input
  const TestModel empty = zero.build({zero.node("ConstantOfShape", {zero.ints({0})})});
  CHECK_THAT(load_error(empty), Catch::Contains("ConstantOfShape") && Catch::Contains("zero-size"));
  ModelBuilder two(3);
  two.input({1});  // a model needs an input
  const TestModel pair =
      two.build({two.node("ConstantOfShape", {two.ints({2})}, {{"value", tensor_attribute("float32", {1, 2})}})});
  CHECK_THAT(load_error(pair), Catch::Contains("value must hold one element"));
  ModelBuilder wrong(4);
  wrong.input({1});  // a model needs an input
  const TestModel number = wrong.build({wrong.node("ConstantOfShape", {wrong.ints({2})}, {{"value", 1}})});
  CHECK_THAT(load_error(number), Catch::Contains("attribute \"value\" must be a tensor"));
}

// The model's JSON with every input and output dim replaced as `dims` says (by tensor name).
std::string with_dims(const std::string& json, const std::map<std::string, nlohmann::json>& dims) {
  nlohmann::json model = nlohmann::json::parse(json);
  for (const char* list : {"inputs", "outputs"}) {
    for (auto& value : model[list]) {
      if (auto it = dims.find(value["name"].get<std::string>()); it != dims.end()) value["shape"] = it->second;
    }
  }
  return model.dump();
}

TEST_CASE("shape arithmetic on symbolic dims folds at specialisation: x -> Shape -> Range -> ... runs at any size") {
  ModelBuilder b(1);
  const auto x = b.input({2, 5});
  // seq = Shape(x)[1:2] (a one-element Range limit, as onnxruntime accepts); Range(0, seq, 1).
  const auto seq = b.node("Shape", {x}, {{"start", 1}, {"end", 2}});
  const auto positions = b.node("Range", {b.ints(Dims{}, {0}), seq, b.ints(Dims{}, {1})});
  const auto sums = b.node("CumSum", {positions, b.ints(Dims{}, {0})});
  // Size(x) is a rank-0 limit: Range(0, batch * seq, 3).
  const auto strided = b.node("Range", {b.ints(Dims{}, {0}), b.node("Size", {x}), b.ints(Dims{}, {3})});
  // An upper-triangular mask of ones, shaped like x, added to x: the only node that runs.
  const auto ones = b.node("ConstantOfShape", {b.node("Shape", {x})}, {{"value", tensor_attribute("float32", {1})}});
  const auto y = b.node("Add", {x, b.node("Trilu", {ones})});
  const TestModel built = b.build({y, sums, strided});
  const std::string json =
      with_dims(built.json, {{x, {"batch", "seq"}}, {y, {"batch", "seq"}}, {sums, {"seq"}}, {strided, {"thirds"}}});
  auto model = Model::load(json, built.weights, {});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(2));
  for (const Dims& dims : {Dims{2, 5}, Dims{3, 7}}) {
    INFO("x " << dims[0] << "x" << dims[1]);
    std::vector<float> data(static_cast<size_t>(dims[0] * dims[1]));
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f;
    auto out = session.run({Tensor(x, dims, data)}, {});
    REQUIRE(out.ok());
    REQUIRE(out->size() == 3);
    const Tensor& sum = (*out)[0];
    REQUIRE(sum.dims == dims);
    for (int64_t i = 0; i < dims[0]; ++i) {
      for (int64_t j = 0; j < dims[1]; ++j) {
        CHECK(sum.floats()[i * dims[1] + j] == data[i * dims[1] + j] + (j >= i ? 1.0f : 0.0f));
      }
    }
    std::vector<int64_t> triangular;
    for (int64_t j = 0; j < dims[1]; ++j) triangular.push_back(j * (j + 1) / 2);
    CHECK(values_of<int64_t>((*out)[1]) == triangular);
    std::vector<int64_t> thirds;
    for (int64_t v = 0; v < dims[0] * dims[1]; v += 3) thirds.push_back(v);
    CHECK(values_of<int64_t>((*out)[2]) == thirds);
    auto info = model.value()->info({{x, dims}});
    REQUIRE(info.ok());
    REQUIRE(info->nodes.size() == 1);
    CHECK(info->nodes[0].op == "Add");
  }
}

}  // namespace
}  // namespace tessera::testing
