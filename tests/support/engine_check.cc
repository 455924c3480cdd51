// Model checks over ISAs, thread counts, schedulers and arena plans.
#include "tests/support/engine_check.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/base/cpu_features.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {

std::vector<std::string> supported_isas() {
  std::vector<std::string> isas;
  for (Isa isa : {Isa::kAvx512, Isa::kAvx2Fma, Isa::kScalar}) {
    if (isa_supported(isa)) isas.emplace_back(isa_name(isa));
  }
  return isas;
}

ModelInfo compiled_info(const TestModel& model, const CompileOptions& options) {
  auto compiled = Model::load(model.json, model.weights, options);
  INFO(compiled.status().message());
  REQUIRE(compiled.ok());
  auto info = compiled.value()->info();
  INFO(info.status().message());
  REQUIRE(info.ok());
  return info.value();
}

CompileOptions with_algorithms(const std::string& json, const std::vector<uint8_t>& weights, CompileOptions options,
                               const std::map<std::string, std::string>& algorithms) {
  if (algorithms.empty()) return options;
  auto model = Model::load(json, weights, options);
  INFO((model.ok() ? std::string() : model.status().message()));
  REQUIRE(model.ok());
  auto text = model.value()->plan_json();
  REQUIRE(text.ok());
  nlohmann::json plan = nlohmann::json::parse(*text);
  size_t set = 0;
  for (nlohmann::json& node : plan["nodes"]) {
    const auto it = algorithms.find(node["name"].get<std::string>());
    if (it == algorithms.end()) continue;
    node["algorithm"] = it->second;
    // One tile: the plan's cuts follow the granularity of the algorithm it was made with.
    nlohmann::json whole = nlohmann::json::array();
    for (const nlohmann::json& d : node["shape"]) whole.push_back({0, d});
    node["cuts"] = whole;
    ++set;
  }
  REQUIRE(set == algorithms.size());
  options.plan = plan.dump();
  return options;
}

std::vector<Tensor> session_outputs(const std::shared_ptr<const Model>& model, const std::vector<Tensor>& inputs) {
  Session session(model, Executor::create(1));
  auto outputs = session.run(inputs, {});
  INFO(outputs.status().message());
  REQUIRE(outputs.ok());
  return *outputs;
}

void check_identical(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(want[i].name);
    CHECK(got[i].name == want[i].name);
    CHECK(got[i].dims == want[i].dims);
    CHECK(got[i].dtype == want[i].dtype);
    CHECK(got[i].bytes == want[i].bytes);
  }
}

std::vector<Tensor> check_model(const std::string& json, const std::vector<uint8_t>& weights,
                                const std::vector<Tensor>& inputs, const CheckOptions& options) {
  std::vector<std::string> isas = supported_isas();
  if (!options.all_isas) isas.resize(1);
  std::vector<Tensor> result;
  for (const std::string& isa : isas) {
    std::vector<Tensor> first;
    for (bool reuse : {true, false}) {
      if (!reuse && !options.both_arena_plans) continue;
      for (int threads : options.threads) {
        CompileOptions compile;
        compile.threads = threads;
        compile.isa = isa;
        compile.reuse_memory = reuse;
        if (options.tile_flops > 0) compile.tile_flops = options.tile_flops;
        compile = with_algorithms(json, weights, compile, options.algorithms);
        auto model = Model::load(json, weights, compile);
        INFO("isa " << isa << ", " << threads << " threads, arena reuse " << reuse);
        INFO((model.ok() ? std::string() : model.status().message()));
        REQUIRE(model.ok());
        Session session(model.value(), Executor::create(threads));
        for (int repeat = 0; repeat < options.repeats; ++repeat) {
          for (Scheduler scheduler : {Scheduler::kDynamic, Scheduler::kBarrier, Scheduler::kShuffle}) {
            INFO("scheduler " << scheduler_name(scheduler) << ", repeat " << repeat);
            RunOptions run;
            run.scheduler = scheduler;
            run.seed = static_cast<uint64_t>(threads * 7 + repeat);
            auto out = session.run(inputs, run);
            REQUIRE(out.ok());
            if (first.empty()) first = *out;
            REQUIRE(bitwise_equal(*out, first));
          }
        }
      }
    }
    if (options.tolerance >= 0) {
      auto expected = reference_run(json, weights, inputs);
      REQUIRE(expected.ok());
      INFO("isa " << isa);
      CHECK(relative_error(first, *expected) <= options.tolerance);
    }
    if (result.empty()) result = first;
  }
  return result;
}

}  // namespace tessera::testing
