// Stage models (a placed model cut into one model per stage, each with only its weights): run
// one after another as separate models, they give one session's outputs bit for bit; planning
// from the small initializers alone cuts the same models; layers split into column pieces
// take only their columns of the weights; a stage whose nodes are not contiguous gives a model
// per segment.
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/engine/stage_models.h"
#include "core/model/load.h"
#if defined(TESSERA_HAVE_CBC)
#include "native/milp/cbc_solver.h"
#endif
#include "tests/support/engine_check.h"
#include "tests/support/op_model.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

struct Source {
  std::string json;
  std::vector<uint8_t> weights;
};

// Its weights kept: splitting layers for placement reads them.
std::shared_ptr<const CompiledModel> compiled(const Source& source) {
  CompileOptions keep;
  keep.keep_weights = true;
  auto model = Model::load(source.json, source.weights, keep);
  REQUIRE(model.ok());
  return std::static_pointer_cast<const CompiledModel>(*model);
}

// A stage's weights file, gathered from the model's as its extents say.
std::vector<uint8_t> gather(const StageModel& stage, const std::vector<uint8_t>& weights) {
  std::vector<uint8_t> out(static_cast<size_t>(stage.weight_bytes), 0);
  for (const WeightExtent& e : stage.weights)
    for (int64_t r = 0; r < e.count; ++r)
      std::memcpy(out.data() + e.at + r * e.bytes, weights.data() + e.offset + r * e.stride,
                  static_cast<size_t>(e.bytes));
  return out;
}

// Each stage loaded as a model of its own and run on what the caller and earlier stages gave.
std::vector<Tensor> run_stages(const StagedModel& staged, const Source& source, const std::vector<Tensor>& inputs,
                               const std::vector<ValueSpec>& outputs) {
  std::map<std::string, Tensor> pool;
  for (const Tensor& t : inputs) pool[t.name] = t;
  for (const StageModel& stage : staged.stages) {
    INFO(stage.json);
    auto model = Model::load(stage.json, gather(stage, source.weights), {});
    INFO(model.status().message());
    REQUIRE(model.ok());
    std::vector<Tensor> given;
    for (const std::string& name : stage.inputs) given.push_back(pool.at(name));
    for (Tensor& t : session_outputs(*model, given)) pool[t.name] = std::move(t);
  }
  std::vector<Tensor> out;
  for (const ValueSpec& spec : outputs) out.push_back(pool.at(spec.name));
  return out;
}

// The same placement made from the planning extents alone.
StagedModel staged_for_planning(const Source& source, const PlaceOptions& options) {
  const int64_t size = static_cast<int64_t>(source.weights.size());
  auto extents = model::planning_extents(source.json, size);
  REQUIRE(extents.ok());
  const size_t read_bytes = extents->empty() ? 0 : static_cast<size_t>(extents->back().at + extents->back().bytes);
  AlignedBuffer read = AlignedBuffer::allocate(read_bytes);
  for (const model::PlanningExtent& e : *extents)
    std::memcpy(read.data() + e.at, source.weights.data() + e.offset, static_cast<size_t>(e.bytes));
  auto model = CompiledModel::compile_for_planning(source.json, size, read, {});
  INFO(model.status().message());
  REQUIRE(model.ok());
  auto staged = place_stage_models(**model, {}, options);
  INFO(staged.status().message());
  REQUIRE(staged.ok());
  return *staged;
}

void check_stages(const Source& source, const PlaceOptions& options, const std::vector<Tensor>& inputs) {
  const std::shared_ptr<const CompiledModel> model = compiled(source);
  auto staged = place_stage_models(*model, {}, options);
  INFO(staged.status().message());
  REQUIRE(staged.ok());
  CHECK(staged->stages.size() >= 2);
  CHECK(staged->stages.size() == staged->placement.stages.size());
  check_identical(run_stages(*staged, source, inputs, model->outputs()), session_outputs(model, inputs));
  const StagedModel planned = staged_for_planning(source, options);
  REQUIRE(planned.stages.size() == staged->stages.size());
  for (size_t s = 0; s < planned.stages.size(); ++s) CHECK(planned.stages[s].json == staged->stages[s].json);
}

}  // namespace

TEST_CASE("stage models run one after another give one session's outputs bit for bit") {
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    INFO(name);
    const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
    const Source source{files.json, files.weights};
    const std::shared_ptr<const CompiledModel> model = compiled(source);
    const std::vector<Tensor> inputs = *model->random_inputs({}, 5);
    PlaceOptions one;
    one.workers = one.threads = 1;
    const int64_t whole = model->place({}, one)->stages[0].memory_bytes;
    for (int workers : {2, 3}) {
      INFO(workers << " workers");
      // Each worker with a little more than its share of the memory: the planner must split.
      PlaceOptions options;
      options.workers = options.threads = workers;
      for (int percent = 95; percent > 0; percent -= 5) {
        PlaceOptions smaller = options;
        smaller.worker_memory = whole * percent / 100;
        if (!model->place({}, smaller).ok()) break;
        options = smaller;
      }
      check_stages(source, options, inputs);
    }
  }
}

TEST_CASE("stage models of layers split into column pieces hold only their columns") {
  const TestModel test = wide_layers_model();
  const Source source{test.json, test.weights};
  PlaceOptions options;
  options.workers = options.threads = 4;
  options.worker_memory = 1 << 20;
  check_stages(source, options, test.inputs);

  auto staged = place_stage_models(*compiled(source), {}, options);
  REQUIRE(staged.ok());
  CHECK(staged->placement.split_nodes == 2);
  int64_t strided = 0;
  for (const StageModel& stage : staged->stages) {
    CHECK(stage.weight_bytes <= options.worker_memory);
    for (const WeightExtent& e : stage.weights) strided += e.count > 1;
  }
  CHECK(strided >= 2);  // the MatMul's pieces are column slices: one run per row
}

TEST_CASE("planning extents cover only small initializers and are checked against the weights file") {
  ModelBuilder b(3);
  const std::string x = b.input({2, 300});
  const TestModel test = b.build({b.node("Gemm", {x, b.weight({300, 300}), b.weight({300})}, {{"transB", 1}})});
  auto extents = model::planning_extents(test.json, static_cast<int64_t>(test.weights.size()));
  REQUIRE(extents.ok());
  REQUIRE(extents->size() == 1);  // the bias; the 352 KiB matrix is left out
  CHECK(extents->front().bytes == 300 * 4);
  auto truncated = model::planning_extents(test.json, 1000);
  REQUIRE_FALSE(truncated.ok());
  CHECK_THAT(truncated.status().message(), Catch::Contains("past the end of the 1000-byte weights file"));
  auto wrong = CompiledModel::compile_for_planning(test.json, static_cast<int64_t>(test.weights.size()),
                                                   AlignedBuffer::allocate(8), {});
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.status().message(), Catch::Contains("planning weights: 8 bytes given"));
}

#if defined(TESSERA_HAVE_CBC)
TEST_CASE("a stage whose nodes are not contiguous is cut into a model per segment, run in turn bit for bit") {
  const TestModel test = interleaved_chain_model();
  const Source source{test.json, test.weights};
  const std::shared_ptr<const CompiledModel> model = compiled(source);
  PlaceOptions options;
  options.workers = options.threads = 2;
  options.worker_memory = kInterleavedChainWorkerBytes;
  options.ip_seconds = 10;
  options.milp_solver = milp::solve_with_cbc;
  auto staged = place_stage_models(*model, {}, options);
  INFO(staged.status().message());
  REQUIRE(staged.ok());
  CHECK_FALSE(staged->placement.contiguous);
  // One worker runs layers 0, then 3 and 4; the other, layers 1 and 2 in between.
  std::vector<int> workers;
  for (const StageModel& stage : staged->stages) workers.push_back(stage.worker);
  REQUIRE(workers.size() == 3);
  CHECK(workers[0] == workers[2]);
  CHECK(workers[0] != workers[1]);
  check_identical(run_stages(*staged, source, test.inputs, model->outputs()), session_outputs(model, test.inputs));
}
#endif

}  // namespace tessera::testing
