// Model-vs-oracle checks over ISAs, thread counts and schedulers.
#include "tests/support/engine_check.h"

#include <catch2/catch.hpp>

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

std::vector<Tensor> check_against_reference(const TestModel& model, const CheckOptions& options) {
  auto expected = reference_run(model.json, model.weights, model.inputs);
  REQUIRE(expected.ok());
  std::vector<std::string> isas = supported_isas();
  if (!options.all_isas) isas.resize(1);
  for (const std::string& isa : isas) {
    std::vector<Tensor> first;
    for (int threads : options.threads) {
      CompileOptions compile;
      compile.threads = threads;
      compile.isa = isa;
      auto compiled = Model::load(model.json, model.weights, compile);
      INFO("isa " << isa << ", " << threads << " threads");
      REQUIRE(compiled.ok());
      Session session(compiled.value(), Executor::create(threads));
      for (Scheduler scheduler : {Scheduler::kDynamic, Scheduler::kBarrier, Scheduler::kShuffle}) {
        INFO("scheduler " << scheduler_name(scheduler));
        RunOptions run;
        run.scheduler = scheduler;
        run.seed = static_cast<uint64_t>(threads) * 7 + 1;
        auto out = session.run(model.inputs, run);
        REQUIRE(out.ok());
        CHECK(relative_error(*out, *expected) <= options.tolerance);
        if (first.empty()) first = *out;
        CHECK(bitwise_equal(*out, first));
      }
    }
  }
  return std::move(expected).value();
}

}  // namespace tessera::testing
