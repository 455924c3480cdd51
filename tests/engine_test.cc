// The public API's contracts: input validation, errors that leave the engine usable,
// repeated runs, two models sharing one executor concurrently, traces.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

TestModel small_cnn(uint32_t seed) {
  ModelBuilder b(seed);
  const auto x = b.input({1, 3, 16, 16});
  auto y = b.node("Relu", {b.node("Conv", {x, b.weight({8, 3, 3, 3})}, {{"pads", {1, 1, 1, 1}}})});
  y = b.node("MaxPool", {y}, {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}});
  y = b.node("Flatten", {b.node("GlobalAveragePool", {y})});
  return b.build({b.node("Gemm", {y, b.weight({5, 8}), b.weight({5})}, {{"transB", 1}})});
}

TEST_CASE("run rejects wrong inputs with messages naming them, then keeps working") {
  const TestModel m = small_cnn(1);
  auto model = Model::load(m.json, m.weights, {});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(2));
  const std::string name = m.inputs[0].name;
  auto wrong_name = session.run(
      {{"nope", m.inputs[0].dims, std::vector<float>(m.inputs[0].floats().begin(), m.inputs[0].floats().end())}}, {});
  CHECK(wrong_name.status().message() == "input \"nope\": the model has no input of that name");
  auto wrong_dims = session.run(
      {{name, {1, 3, 16}, std::vector<float>(m.inputs[0].floats().begin(), m.inputs[0].floats().end())}}, {});
  CHECK(wrong_dims.status().message() == "input \"" + name + "\": expected rank 4 [1, 3, 16, 16], got dims [1, 3, 16]");
  auto short_data = session.run({{name, m.inputs[0].dims, {1.0f, 2.0f}}}, {});
  CHECK(short_data.status().message() == "input \"" + name + "\": has 2 values, dims [1, 3, 16, 16] need 768");
  auto missing = session.run({}, {});
  CHECK(missing.status().message() == "input \"" + name + "\": missing");
  auto good = session.run(m.inputs, {});
  REQUIRE(good.ok());
  CHECK(relative_error(*good, *reference_run(m.json, m.weights, m.inputs)) < 1e-4);
}

TEST_CASE("subnormal weights count as zero, in elementwise ops and in packed GEMM weights") {
  constexpr float kSubnormal = 1e-40f;
  ModelBuilder b(3);
  const auto x = b.input(Tensor("x", {1, 4}, {1, 0, 0, 0}));
  const auto scaled = b.node("Mul", {x, b.constant({1, 4}, {kSubnormal, 1, 2, 3})});
  // x picks the first row of the weights: the product is that row.
  const auto picked =
      b.node("MatMul", {x, b.constant({4, 3}, {kSubnormal, 1, -kSubnormal, 1, 1, 1, 1, 1, 1, 1, 1, 1})});
  const TestModel m = b.build({scaled, picked});
  auto model = Model::load(m.json, m.weights, {});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(2));
  auto out = session.run(m.inputs, {});
  REQUIRE(out.ok());
  const std::span<const float> s = (*out)[0].floats(), p = (*out)[1].floats();
  CHECK(std::vector<float>(s.begin(), s.end()) == std::vector<float>{0, 0, 0, 0});
  CHECK(std::vector<float>(p.begin(), p.end()) == std::vector<float>{0, 1, 0});
}

TEST_CASE("a failed load leaves the engine able to load and run other models") {
  const TestModel m = small_cnn(2);
  CHECK(!Model::load("{not json", {}, {}).ok());
  CHECK(!Model::load(m.json, {1, 2, 3}, {}).ok());  // weights too short
  CompileOptions bad;
  bad.isa = "quantum";
  CHECK(Model::load(m.json, m.weights, bad).status().message().find("unknown ISA") != std::string::npos);
  auto model = Model::load(m.json, m.weights, {});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(1));
  CHECK(session.run(m.inputs, {}).ok());
}

TEST_CASE("a session gives identical results over many runs") {
  const TestModel m = small_cnn(3);
  auto model = Model::load(m.json, m.weights, {.threads = 2});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(2));
  const auto first = session.run(m.inputs, {});
  REQUIRE(first.ok());
  for (int i = 0; i < 200; ++i) {
    RunOptions options;
    options.scheduler = static_cast<Scheduler>(i % 3);
    options.seed = static_cast<uint64_t>(i);
    const auto again = session.run(m.inputs, options);
    REQUIRE(again.ok());
    REQUIRE(bitwise_equal(*again, *first));
  }
}

TEST_CASE("models share one executor and run concurrently, one caller working as thread 0") {
  const TestModel a = small_cnn(4), b = small_cnn(5);
  // One thread: the callers take turns at the seat, and a caller whose job is done hands the
  // other's queued tiles over with it.
  for (int threads : {1, 3}) {
    INFO(threads << " threads");
    auto model_a = Model::load(a.json, a.weights, {.threads = threads});
    auto model_b = Model::load(b.json, b.weights, {.threads = threads});
    REQUIRE(model_a.ok());
    REQUIRE(model_b.ok());
    auto pool = Executor::create(threads);
    Session alone_a(model_a.value(), pool), alone_b(model_b.value(), pool);
    const auto expected_a = alone_a.run(a.inputs, {}).value();
    const auto expected_b = alone_b.run(b.inputs, {}).value();
    std::atomic<bool> all_equal{true};
    auto loop = [&](const TestModel& m, std::shared_ptr<const Model> model, const std::vector<Tensor>& expected) {
      Session session(model, pool);
      for (int i = 0; i < 100; ++i) {
        auto out = session.run(m.inputs, {});
        if (!out.ok() || !bitwise_equal(*out, expected)) all_equal = false;
      }
    };
    std::thread ta(loop, std::cref(a), model_a.value(), std::cref(expected_a));
    std::thread tb(loop, std::cref(b), model_b.value(), std::cref(expected_b));
    std::thread tc(loop, std::cref(a), model_a.value(), std::cref(expected_a));
    ta.join();
    tb.join();
    tc.join();
    CHECK(all_equal);
  }
}

TEST_CASE("a traced run records every tile once, on the executor's threads") {
  const TestModel m = small_cnn(6);
  auto model = Model::load(m.json, m.weights, {.threads = 2});
  REQUIRE(model.ok());
  Session session(model.value(), Executor::create(2));
  RunOptions options;
  options.trace = true;
  REQUIRE(session.run(m.inputs, options).ok());
  const ModelInfo info = model.value()->info().value();
  const auto& events = session.last_trace();
  REQUIRE(events.size() == info.tiles);
  for (size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i].tile == i);
    CHECK(events[i].thread < 2);
    CHECK(events[i].end_ns >= events[i].start_ns);
    CHECK(events[i].node < info.nodes.size());
  }
  const std::string json = chrome_trace_json(info, events);
  CHECK(json.find("\"ph\":\"X\"") != std::string::npos);
}

TEST_CASE("results do not depend on the tiling: any tile size gives the same bits") {
  const TestModel m = small_cnn(7);
  std::vector<Tensor> first;
  for (double tile_flops : {2e3, 5e4, 1e6, 1e9}) {
    CompileOptions options;
    options.tile_flops = tile_flops;
    auto model = Model::load(m.json, m.weights, options);
    REQUIRE(model.ok());
    Session session(model.value(), Executor::create(2));
    auto out = session.run(m.inputs, {});
    REQUIRE(out.ok());
    if (first.empty()) first = *out;
    CHECK(bitwise_equal(*out, first));
  }
}

TEST_CASE("outputs computed from constants only are folded and returned") {
  ModelBuilder b(8);
  const auto x = b.input({2, 6});
  const auto w = b.weight({3, 4});
  const auto image = b.weight({1, 2, 5, 5});
  const auto reshaped = b.node("Reshape", {w, b.ints({2, 6})});
  const auto convolved = b.node("Conv", {image, b.weight({3, 2, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  const auto sum = b.node("Add", {x, reshaped});
  check_against_reference(b.build({reshaped, convolved, sum}));
}

TEST_CASE("absurd window and work sizes are errors, not crashes or hangs") {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"strides", {int64_t{1} << 62, 1}}}, "\"strides\" must be from 1 to 2147483648"},
      {{{"pads", {int64_t{1} << 62, 0, int64_t{1} << 62, 0}}}, "\"pads\" must be from 0 to 2147483648"},
      {{{"dilations", {int64_t{1} << 30, 1}}}, "dilated kernel extent exceeds 2147483648"},
  };
  for (const auto& [attrs, message] : cases) {
    ModelBuilder b(1);
    const TestModel m = b.build({b.node("Conv", {b.input({1, 2, 8, 8}), b.weight({3, 2, 3, 3})}, attrs)});
    auto model = Model::load(m.json, m.weights, {});
    INFO(message);
    REQUIRE(!model.ok());
    CHECK(model.status().message().find(message) != std::string::npos);
  }
  ModelBuilder b(2);
  const auto pool = b.node("MaxPool", {b.input({1, 1, 4, 4})},
                           {{"kernel_shape", {1 << 20, 1 << 20}}, {"pads", {1 << 20, 1 << 20, 1 << 20, 1 << 20}}});
  auto model = Model::load(b.build({pool}).json, {}, {});
  REQUIRE(!model.ok());
  CHECK(model.status().message().find("pads must be smaller than the kernel extent") != std::string::npos);
  ModelBuilder c(3);  // each window mostly padding, but 2^40 taps per output value
  const int64_t k = int64_t{1} << 20;
  const auto big = c.node("MaxPool", {c.input({1, 1, 4, 4})},
                          {{"kernel_shape", {k, k}}, {"pads", {k - 1, k - 1, k - 1, k - 1}}, {"strides", {k, k}}});
  auto huge = Model::load(c.build({big}).json, {}, {});
  REQUIRE(!huge.ok());
  CHECK(huge.status().message().find("more than 2^40 operations") != std::string::npos);
}

}  // namespace
}  // namespace tessera::testing
