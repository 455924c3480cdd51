// Pipelines (placed stages on thread groups of their own) on the tiny zoo: outputs bitwise
// identical to one Session's, for splits forced by memory budgets over 2 and 3 workers, one
// input at a time and streamed; bad inputs refused by name, after which the pipeline still runs.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tessera/pipeline.h"
#include "tests/support/engine_check.h"
#include "tests/support/op_model.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

// Its weights kept: stages bind them again.
std::shared_ptr<const Model> load(const std::string& name) {
  const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
  CompileOptions keep;
  keep.keep_weights = true;
  auto model = Model::load(files.json, files.weights, keep);
  REQUIRE(model.ok());
  return *model;
}

// A pipeline over `workers` workers, each with the least memory (in 5 % steps of what the
// whole model needs in one) that still fits the model: the most stages memory can force.
std::unique_ptr<Pipeline> split(const std::shared_ptr<const Model>& model, int workers) {
  PlaceOptions one;
  one.workers = 1;
  one.threads = 1;
  auto alone = model->place({}, one);
  REQUIRE(alone.ok());
  const double whole = static_cast<double>(alone->stages[0].memory_bytes);
  PlaceOptions options;
  options.workers = options.threads = workers;
  for (int percent = 95; percent > 0; percent -= 5) {
    PlaceOptions smaller = options;
    smaller.worker_memory = static_cast<int64_t>(whole * percent / 100);
    if (!model->place({}, smaller).ok()) break;
    options = smaller;
  }
  auto pipeline = Pipeline::create(model, {}, options);
  INFO(pipeline.status().message());
  REQUIRE(pipeline.ok());
  CHECK((*pipeline)->placement().stages.size() >= 2);
  return std::move(*pipeline);
}

}  // namespace

TEST_CASE("pipelines give one session's outputs bit for bit") {
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer"}) {
    INFO(name);
    const std::shared_ptr<const Model> model = load(name);
    const std::vector<Tensor> inputs = *model->random_inputs({}, 7);
    const std::vector<Tensor> expected = session_outputs(model, inputs);
    for (int workers : {2, 3}) {
      INFO(workers << " workers");
      std::unique_ptr<Pipeline> pipeline = split(model, workers);
      auto outputs = pipeline->run(inputs);
      REQUIRE(outputs.ok());
      check_identical(*outputs, expected);
      check_identical(*pipeline->run(inputs), expected);  // arenas reused
    }
  }
}

TEST_CASE("a streamed pipeline delivers every input's outputs in order") {
  const std::shared_ptr<const Model> model = load("tiny_mobilenet");
  std::vector<std::vector<Tensor>> inputs, expected;
  for (uint64_t seed = 1; seed <= 7; ++seed) {
    inputs.push_back(*model->random_inputs({}, seed));
    expected.push_back(session_outputs(model, inputs.back()));
  }
  std::unique_ptr<Pipeline> pipeline = split(model, 3);
  for (size_t queue : {1, 3}) {
    std::vector<size_t> order;
    const Status status = pipeline->run_stream(
        inputs.size(), [&](size_t k) { return inputs[k]; },
        [&](size_t k, std::vector<Tensor> outputs) {
          order.push_back(k);
          check_identical(outputs, expected[k]);
        },
        queue);
    REQUIRE(status.ok());
    CHECK(order == std::vector<size_t>{0, 1, 2, 3, 4, 5, 6});
  }
}

TEST_CASE("layers larger than a worker are split into column pieces, and the outputs stay the same") {
  const TestModel test = wide_layers_model();
  CompileOptions keep;  // splitting reads the weights
  keep.keep_weights = true;
  auto model = Model::load(test.json, test.weights, keep);
  REQUIRE(model.ok());
  const std::vector<Tensor> expected = session_outputs(*model, test.inputs);

  // 1 MiB per worker: pieces of at most 512 KiB; the 700x200 and 700x333 weights split, the
  // 333x333 ones (443 KiB) fit.
  PlaceOptions options;
  options.workers = options.threads = 4;
  options.worker_memory = 1 << 20;
  // Loaded without keeping its weights, the model cannot be split or staged: said, not read
  // from freed memory.
  auto released = Model::load(test.json, test.weights, {});
  REQUIRE(released.ok());
  CHECK(Pipeline::create(*released, {}, options).status().message() ==
        "place: splitting 2 layers too large for a worker reads the model's weights, which were freed once compiled: "
        "load it with CompileOptions::keep_weights");
  PlaceOptions roomy = options;
  roomy.worker_memory = 0;
  CHECK(Pipeline::create(*released, {}, roomy).status().message() ==
        "model \"test\": its weights were freed once compiled; to run it over stages, load it with "
        "CompileOptions::keep_weights");
  auto pipeline = Pipeline::create(*model, {}, options);
  INFO(pipeline.status().message());
  REQUIRE(pipeline.ok());
  CHECK((*pipeline)->placement().split_nodes == 2);
  CHECK((*pipeline)->placement().stages.size() >= 2);
  size_t pieces = 0;
  for (const StagePlan& stage : (*pipeline)->placement().stages) {
    CHECK(stage.memory_bytes <= options.worker_memory);
    for (const std::string& node : stage.nodes) pieces += node.find('/') != std::string::npos;
  }
  CHECK(pieces >= 4);
  check_identical(*(*pipeline)->run(test.inputs), expected);
}

TEST_CASE("a pipeline refuses bad inputs by name and keeps working") {
  const std::shared_ptr<const Model> model = load("tiny_cnn");
  std::unique_ptr<Pipeline> pipeline = split(model, 2);
  const std::vector<Tensor> good = *model->random_inputs({}, 3);

  std::vector<Tensor> wrong_dims = good;
  wrong_dims[0].dims[0] += 1;
  auto refused = pipeline->run(wrong_dims);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(), Catch::Contains("input \"image\": dims"));

  std::vector<Tensor> short_bytes = good;
  short_bytes[0].bytes.resize(short_bytes[0].bytes.size() / 2);
  CHECK_THAT(pipeline->run(short_bytes).status().message(), Catch::Contains("input \"image\": has "));

  std::vector<Tensor> unknown = good;
  unknown.push_back(Tensor("extra", {1}, std::vector<float>{1}));
  CHECK_THAT(pipeline->run(unknown).status().message(),
             Catch::Contains("input \"extra\": the model has no such input"));
  CHECK_THAT(pipeline->run({}).status().message(), Catch::Contains("input \"image\": missing"));

  const Status stream = pipeline->run_stream(
      3, [&](size_t k) { return k == 1 ? wrong_dims : good; }, [](size_t, std::vector<Tensor>) {});
  REQUIRE_FALSE(stream.ok());
  CHECK_THAT(stream.message(), Catch::Contains("stream input 1"));

  check_identical(*pipeline->run(good), session_outputs(model, good));
}

}  // namespace tessera::testing
