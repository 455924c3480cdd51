// The tiny zoo models (every op and fusion the engine has) under every schedule: bitwise
// identical outputs for 1 to 4 threads with the dynamic, barrier and shuffle schedulers,
// with and without arena reuse, and equal to the reference. Built with ThreadSanitizer by
// the test command, this is also the race check of the runtime on real tile graphs.
#include <catch2/catch.hpp>

#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

TEST_CASE("tiny zoo models give identical bits for every thread count, scheduler and arena plan") {
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    INFO(name);
    const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
    std::vector<Tensor> first, inputs;
    for (bool reuse : {true, false}) {
      for (int threads = 1; threads <= 4; ++threads) {
        CompileOptions options;
        options.threads = threads;
        options.reuse_memory = reuse;
        options.tile_flops = 5e4;  // many tiles, many edges
        auto model = Model::load(files.json, files.weights, options);
        REQUIRE(model.ok());
        if (inputs.empty()) inputs = random_inputs(model.value()->info().inputs, 3);
        Session session(model.value(), Executor::create(threads));
        for (int repeat = 0; repeat < 3; ++repeat) {
          for (Scheduler scheduler : {Scheduler::kDynamic, Scheduler::kBarrier, Scheduler::kShuffle}) {
            RunOptions run;
            run.scheduler = scheduler;
            run.seed = static_cast<uint64_t>(repeat);
            auto out = session.run(inputs, run);
            REQUIRE(out.ok());
            if (first.empty()) first = *out;
            REQUIRE(bitwise_equal(*out, first));
          }
        }
      }
    }
    auto expected = reference_run(files.json, files.weights, inputs);
    REQUIRE(expected.ok());
    CHECK(relative_error(first, *expected) < 1e-4);
  }
}

}  // namespace
}  // namespace tessera::testing
