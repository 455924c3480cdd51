// The tiny zoo models (every op and fusion the engine has) under every schedule: bitwise
// identical outputs for 1 to 4 threads with the dynamic, barrier and shuffle schedulers,
// with and without arena reuse, and equal to the reference. Built with ThreadSanitizer by
// the test command, this is also the race check of the runtime on real tile graphs.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

TEST_CASE("tiny zoo models give identical bits for every thread count, scheduler and arena plan") {
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    INFO(name);
    const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
    auto model = Model::load(files.json, files.weights, {});
    REQUIRE(model.ok());
    CheckOptions options;
    options.threads = {1, 2, 3, 4};
    options.all_isas = false;
    options.both_arena_plans = true;
    options.tile_flops = 5e4;  // many tiles, many edges
    options.repeats = 3;
    check_model(files.json, files.weights, random_inputs(model.value()->info().value().inputs, 3), options);
  }
}

}  // namespace
}  // namespace tessera::testing
