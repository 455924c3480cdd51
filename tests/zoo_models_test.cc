// The zoo's standard architectures (generated at test time): outputs finite and not
// trivial, bitwise identical for 1, 2, 4 and 8 threads under all three schedulers, and (for
// the batch-1 models that the plain reference kernels finish in seconds) equal to the
// reference within tolerance. One test case per model so CTest can run them in parallel.
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

void check_zoo_model(const std::string& name, bool compare_with_reference) {
  const std::string path = std::string(TESSERA_ZOO_DIR) + "/" + name + ".json";
  const ModelFiles files = read_model_files(path);
  std::vector<Tensor> first, inputs;
  for (int threads : {1, 2, 4, 8}) {
    CompileOptions options;
    options.threads = threads;
    auto model = Model::load(files.json, files.weights, options);
    REQUIRE(model.ok());
    if (inputs.empty()) inputs = random_inputs(model.value()->info().inputs, 12345);
    Session session(model.value(), Executor::create(threads));
    for (Scheduler scheduler : {Scheduler::kDynamic, Scheduler::kBarrier, Scheduler::kShuffle}) {
      INFO(name << ": " << threads << " threads, " << scheduler_name(scheduler));
      RunOptions run;
      run.scheduler = scheduler;
      run.seed = static_cast<uint64_t>(threads);
      auto out = session.run(inputs, run);
      REQUIRE(out.ok());
      if (first.empty()) first = *out;
      REQUIRE(bitwise_equal(*out, first));
    }
  }
  for (const Tensor& t : first) {
    float lo = INFINITY, hi = -INFINITY;
    for (float v : t.data) {
      REQUIRE(std::isfinite(v));
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    CHECK(hi > lo);
  }
  if (compare_with_reference) {
    auto expected = reference_run(files.json, files.weights, inputs);
    REQUIRE(expected.ok());
    CHECK(relative_error(first, *expected) < 1e-4);
  }
}

TEST_CASE("zoo model mobilenetv2_b1") { check_zoo_model("mobilenetv2_b1", true); }
TEST_CASE("zoo model mobilenetv2_b8") { check_zoo_model("mobilenetv2_b8", false); }
TEST_CASE("zoo model resnet50_b1") { check_zoo_model("resnet50_b1", true); }
TEST_CASE("zoo model resnet50_b8") { check_zoo_model("resnet50_b8", false); }
TEST_CASE("zoo model vgg16_b1") { check_zoo_model("vgg16_b1", false); }
TEST_CASE("zoo model vgg16_b8") { check_zoo_model("vgg16_b8", false); }
TEST_CASE("zoo model bert_base") { check_zoo_model("bert_base", true); }

}  // namespace
}  // namespace tessera::testing
