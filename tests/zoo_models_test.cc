// The zoo's standard architectures (generated at test time): outputs finite and not
// trivial, bitwise identical for 1, 2, 4 and 8 threads under all three schedulers, and (for
// the batch-1 models that the plain reference kernels finish in seconds) equal to the
// reference within tolerance. One test case per model so CTest can run them in parallel.
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

void check_zoo_model(const std::string& name, bool compare_with_reference) {
  const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
  auto model = Model::load(files.json, files.weights, {});
  REQUIRE(model.ok());
  const std::vector<Tensor> inputs = random_inputs(model.value()->info().value().inputs, 12345);
  CheckOptions options;
  options.threads = {1, 2, 4, 8};
  options.all_isas = false;
  options.tolerance = compare_with_reference ? 1e-4 : -1;
  for (const Tensor& t : check_model(files.json, files.weights, inputs, options)) {
    float lo = INFINITY, hi = -INFINITY;
    for (float v : t.floats()) {
      REQUIRE(std::isfinite(v));
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    CHECK(hi > lo);
  }
}

TEST_CASE("zoo model mobilenetv2_b1") { check_zoo_model("mobilenetv2_b1", true); }
TEST_CASE("zoo model mobilenetv2_b8") { check_zoo_model("mobilenetv2_b8", false); }
TEST_CASE("zoo model resnet50_b1") { check_zoo_model("resnet50_b1", true); }
TEST_CASE("zoo model resnet50_b8") { check_zoo_model("resnet50_b8", false); }
TEST_CASE("zoo model vgg16_b1") { check_zoo_model("vgg16_b1", false); }
TEST_CASE("zoo model vgg16_b8") { check_zoo_model("vgg16_b8", false); }
TEST_CASE("zoo model inception_v3") { check_zoo_model("inception_v3", true); }
TEST_CASE("zoo model bert_base") { check_zoo_model("bert_base", true); }

}  // namespace
}  // namespace tessera::testing
