// Models with symbolic dims: one model specialised per input-dims signature, each matching the
// reference kernels; specialisations cached and bounded, sharing constants and packed weights;
// bindings that contradict the model rejected with the input, the dim and both values.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <thread>

#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

// A small CNN + classifier over x: [n, 3, h, w] with n, h and w symbolic; outputs the logits
// [n, 5] and the first convolution's activations [n, 8, h, w].
TestModel symbolic_cnn() {
  ModelBuilder b(7);
  const auto x = b.input({1, 3, 6, 6});
  const auto conv =
      b.node("Relu", {b.node("Conv", {x, b.weight({8, 3, 3, 3}), b.weight({8})}, {{"pads", {1, 1, 1, 1}}})});
  const auto dw = b.node("Conv", {conv, b.weight({8, 1, 3, 3})}, {{"pads", {1, 1, 1, 1}}, {"group", 8}});
  const auto pooled = b.node("Flatten", {b.node("GlobalAveragePool", {dw})});
  const auto logits = b.node("MatMul", {pooled, b.weight({8, 5})});
  TestModel m = b.build({logits, conv});
  auto json = nlohmann::json::parse(m.json);
  json["inputs"][0]["shape"] = {"n", 3, "h", "w"};
  json["outputs"][0]["shape"] = {"n", 5};
  json["outputs"][1]["shape"] = {"n", 8, "h", "w"};
  m.json = json.dump();
  return m;
}

std::vector<Tensor> random_image(int64_t n, int64_t h, int64_t w, uint64_t seed) {
  return random_inputs({Tensor::spec("in0", {n, 3, h, w}, DType::kFloat32)}, seed);
}

TEST_CASE("a model with symbolic dims runs at every shape and matches the reference") {
  const TestModel m = symbolic_cnn();
  for (auto [n, h, w] : std::vector<std::array<int64_t, 3>>{{1, 6, 6}, {2, 9, 5}, {1, 17, 31}}) {
    INFO(n << "x3x" << h << "x" << w);
    const auto outputs = check_model(m.json, m.weights, random_image(n, h, w, h * w), {.threads = {1, 3}});
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[0].dims == std::vector<int64_t>{n, 5});
    CHECK(outputs[1].dims == std::vector<int64_t>{n, 8, h, w});
  }
}

TEST_CASE("specialisations are cached, bounded, and share constants and packed weights") {
  const TestModel m = symbolic_cnn();
  auto model = Model::load(m.json, m.weights, {.threads = 2, .max_specializations = 2});
  REQUIRE(model.ok());
  CHECK(model.value()->memory().specializations == 0);  // symbolic: nothing compiled at load
  Session session(model.value(), Executor::create(2));
  REQUIRE(session.run(random_image(1, 8, 8, 1), {}).ok());
  const ModelMemory first = model.value()->memory();
  CHECK(first.specializations == 1);
  CHECK(first.packed_bytes > 0);
  const ModelInfo info = model.value()->info({{"in0", {1, 3, 8, 8}}}).value();
  CHECK(info.compile_ms > 0);

  REQUIRE(session.run(random_image(2, 12, 7, 2), {}).ok());
  REQUIRE(session.run(random_image(1, 5, 9, 3), {}).ok());
  const ModelMemory third = model.value()->memory();
  CHECK(third.specializations == 2);                    // the least recently used was evicted
  CHECK(third.packed_bytes == first.packed_bytes);      // packed once, shared by every shape
  CHECK(third.constant_bytes == first.constant_bytes);  // no constant copied per shape
  // Loaded from bytes, its weights stay: new dims fold and pack from them.
  CHECK(third.weight_bytes == static_cast<int64_t>(m.weights.size()));

  // A cached specialisation is the same compiled object: its compile time does not change.
  const ModelInfo again = model.value()->info({{"in0", {1, 3, 5, 9}}}).value();
  CHECK(again.compile_ms == model.value()->info({{"in0", {1, 3, 5, 9}}}).value().compile_ms);
}

TEST_CASE("specialisations of one model compile and run concurrently from several sessions") {
  const TestModel m = symbolic_cnn();
  auto model = Model::load(m.json, m.weights, {.threads = 2});
  REQUIRE(model.ok());
  auto pool = Executor::create(2);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Session session(model.value(), pool);
      for (int i = 0; i < 3; ++i) ok[t] += session.run(random_image(1 + t % 2, 6 + i, 7, t), {}).ok();
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(ok == std::vector<int>(4, 3));
}

TEST_CASE("a binding that contradicts the model names the input, the dim and both values") {
  ModelBuilder b(3);
  const auto ids = b.input(Tensor::of("", {1, 4}, DType::kInt64, std::vector<int64_t>{1, 2, 3, 4}.data()));
  const auto mask = b.input(Tensor::of("", {1, 4}, DType::kInt64, std::vector<int64_t>{1, 1, 1, 0}.data()));
  const auto mask3 = b.node("Unsqueeze", {b.node("Cast", {mask}, {{"to", 1}}), b.ints({2})});
  const auto y = b.node("Mul", {b.node("Gather", {b.weight({10, 3}), ids}), mask3});
  TestModel m = b.build({y});
  auto json = nlohmann::json::parse(m.json);
  json["inputs"][0]["shape"] = {"batch", "seq"};
  json["inputs"][1]["shape"] = {"batch", "seq"};
  json["outputs"][0]["shape"] = {"batch", "seq", 3};
  auto model = Model::load(json.dump(), m.weights, {});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(1));
  auto run = [&](std::vector<int64_t> ids_dims, std::vector<int64_t> mask_dims, DType dtype = DType::kInt64) {
    std::vector<int64_t> zeros(64, 0);
    return session.run(
        {Tensor::of("in0", ids_dims, dtype, zeros.data()), Tensor::of("in1", mask_dims, dtype, zeros.data())}, {});
  };
  CHECK(run({1, 7}, {1, 9}).status().message() ==
        "input \"in1\": dim 1 (\"seq\") is 9, but input \"in0\" binds \"seq\" to 7");
  CHECK(run({1, 7}, {7}).status().message() == "input \"in1\": expected rank 2 [batch, seq], got dims [7]");
  CHECK(run({2, 3}, {2, 3}, DType::kInt32).status().message() == "input \"in0\": expected int64, got int32");
  auto good = run({2, 5}, {2, 5});
  INFO(good.status().message());
  REQUIRE(good.ok());  // and after the errors the model still runs
  CHECK(good.value()[0].dims == std::vector<int64_t>{2, 5, 3});

  auto fixed = nlohmann::json::parse(m.json);  // the same model with fixed dims
  auto fixed_model = Model::load(fixed.dump(), m.weights, {});
  REQUIRE(fixed_model.ok());
  CHECK(fixed_model.value()->info({{"in0", {1, 5}}, {"in1", {1, 4}}}).status().message() ==
        "input \"in0\": dim 1 is fixed at 4, got 5");
}

}  // namespace
}  // namespace tessera::testing
