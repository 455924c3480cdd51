// The tiling planner through the public API: searched plans give the default plan's bits and
// are never predicted slower; saved plans load back as the same tiling, are refused naming the
// node or field at fault when they do not fit the model, and tile only the input dims they
// were made for.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/calibrate/calibrate.h"
#include "core/plan/profile.h"
#include "tests/support/op_model.h"
#include "tests/support/reference_run.h"

namespace tessera::testing {
namespace {

using json = nlohmann::json;

// Builder models are all called "test"; a name of their own tells them apart in messages.
TestModel named(TestModel m, const std::string& name) {
  json doc = json::parse(m.json);
  doc["name"] = name;
  m.json = doc.dump();
  return m;
}

// Convolutions (one with a fused ReLU), a pool and a classifier with a softmax.
TestModel small_cnn() {
  ModelBuilder b(1);
  const auto x = b.input({1, 8, 24, 24});
  auto y = b.node("Relu", {b.node("Conv", {x, b.weight({16, 8, 3, 3}), b.weight({16})}, {{"pads", {1, 1, 1, 1}}})});
  y = b.node("Conv", {y, b.weight({16, 16, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  y = b.node("MaxPool", {y}, {{"kernel_shape", {2, 2}}, {"strides", {2, 2}}});
  y = b.node("Flatten", {b.node("GlobalAveragePool", {y})});
  y = b.node("Gemm", {y, b.weight({10, 16}), b.weight({10})}, {{"transB", 1}});
  return named(b.build({b.node("Softmax", {y}, {{"axis", -1}})}), "small_cnn");
}

// Two matmuls of a batch of rows: [48, 64] -> 96 -> 32.
TestModel mlp() {
  ModelBuilder b(2);
  const auto h = b.node("Tanh", {b.node("MatMul", {b.input({48, 64}), b.weight({64, 96})})});
  return named(b.build({b.node("MatMul", {h, b.weight({96, 32})})}), "mlp");
}

// The MLP with a symbolic batch of rows.
TestModel symbolic_mlp() {
  TestModel m = mlp();
  json doc = json::parse(m.json);
  doc["inputs"][0]["shape"] = {"rows", 64};
  doc["outputs"][0]["shape"] = {"rows", 32};
  m.json = doc.dump();
  return m;
}

TestModel zoo_model(const std::string& name) {
  ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
  return {std::move(files.json), std::move(files.weights), {}};
}

std::vector<TestModel> planned_models() {
  std::vector<TestModel> models = {small_cnn(), mlp()};
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    models.push_back(zoo_model(name));
  }
  return models;
}

std::shared_ptr<const Model> load(const TestModel& m, const CompileOptions& options) {
  auto model = Model::load(m.json, m.weights, options);
  INFO(model.status().message());
  REQUIRE(model.ok());
  return model.value();
}

// The outputs of one run on seeded inputs for `dims` ({}: the declared ones).
std::vector<Tensor> run(const std::shared_ptr<const Model>& model, int threads, Scheduler scheduler,
                        const InputDims& dims = {}) {
  auto inputs = model->random_inputs(dims, 7);
  REQUIRE(inputs.ok());
  Session session(model, Executor::create(threads));
  auto outputs = session.run(*inputs, {.scheduler = scheduler});
  INFO(outputs.status().message());
  REQUIRE(outputs.ok());
  return std::move(outputs).value();
}

PlanReport plan_of(const Model& model, const InputDims& dims = {}) {
  auto report = model.plan(dims);
  INFO(report.status().message());
  REQUIRE(report.ok());
  return std::move(report).value();
}

ModelInfo info_of(const Model& model, const InputDims& dims = {}) {
  auto info = model.info(dims);
  INFO(info.status().message());
  REQUIRE(info.ok());
  return std::move(info).value();
}

std::string plan_text(const Model& model, const InputDims& dims = {}) {
  auto text = model.plan_json(dims);
  INFO(text.status().message());
  REQUIRE(text.ok());
  return std::move(text).value();
}

std::vector<std::vector<int64_t>> grids(const PlanReport& report) {
  std::vector<std::vector<int64_t>> out;
  for (const NodePlan& n : report.nodes) out.push_back(n.grid);
  return out;
}

const NodePlan* find_node(const PlanReport& report, const std::string& name) {
  for (const NodePlan& n : report.nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

// Every compiled node is in the report, in order, tiled as the report says.
void check_report_describes(const PlanReport& report, const ModelInfo& info) {
  auto next = report.nodes.begin();
  for (const NodeInfo& node : info.nodes) {
    INFO("node " << node.name);
    next = std::find_if(next, report.nodes.end(), [&](const NodePlan& n) { return n.name == node.name; });
    REQUIRE(next != report.nodes.end());
    CHECK(next->op == node.op);
    CHECK(next->grid == node.grid);
  }
}

std::string node_names(const PlanReport& report) {
  std::string names;
  for (const NodePlan& n : report.nodes) names += " " + n.name;
  return names;
}

std::string node_names(const ModelInfo& info) {
  std::string names;
  for (const NodeInfo& n : info.nodes) names += " " + n.name;
  return names;
}

TEST_CASE("auto searches with a calibrated profile and keeps the heuristic without one") {
  auto guessed = load(small_cnn(), {.threads = 2});  // no profile saved here: the guesses
  PlanReport report = plan_of(*guessed);
  CHECK(report.planner == "default");
  CHECK(!report.searched);

  plan::Profile profile =
      plan::uncalibrated_profile(std::string(isa_name(detected_isa())), calibration::build_flavor());
  profile.calibrated = true;
  auto calibrated = load(small_cnn(), {.threads = 2, .profile = plan::profile_to_json(profile)});
  report = plan_of(*calibrated);
  CHECK(report.planner == "search");
  CHECK(report.searched);
  CHECK(report.calibrated);

  // A profile of another build does for neither: `search` refuses it, `auto` keeps the heuristic.
  profile.build = "elsewhere";
  const std::string foreign = plan::profile_to_json(profile);
  CHECK(plan_of(*load(small_cnn(), {.threads = 2, .profile = foreign})).planner == "default");
  auto refused =
      Model::load(small_cnn().json, small_cnn().weights, {.threads = 2, .planner = "search", .profile = foreign});
  CHECK_FALSE(refused.ok());
}

// A node whose output aliases its input (a relayout that moves no bytes, such as
// GlobalAveragePool's [1, C, 1, 1] from NHWC to row-major) runs no tiles: it is not planned.
TEST_CASE("the plan report lists exactly the compiled nodes") {
  auto model = load(small_cnn(), {.threads = 2, .planner = "search"});
  CHECK(node_names(plan_of(*model)) == node_names(info_of(*model)));
}

TEST_CASE("searched plans compute the default plan's bits and are never predicted slower") {
  int replaced = 0;  // plans where the search beat the default: the bits were tested on new tilings
  for (const TestModel& m : planned_models()) {
    for (int threads : {1, 2, 3}) {
      for (Scheduler scheduler : {Scheduler::kDynamic, Scheduler::kBarrier}) {
        auto searched = load(m, {.threads = threads, .planner = "search", .plan_scheduler = scheduler});
        auto heuristic = load(m, {.threads = threads});
        INFO(searched->name() << ", " << threads << " threads, " << scheduler_name(scheduler));
        const PlanReport report = plan_of(*searched);
        CHECK(report.planner == "search");
        CHECK(report.searched);
        CHECK_FALSE(report.calibrated);
        CHECK(report.threads == threads);
        CHECK(report.configurations >= report.nodes.size());
        CHECK(report.default_predicted_ms > 0);
        CHECK(report.predicted_ms <= report.default_predicted_ms);
        const ModelInfo info = info_of(*searched);
        CHECK(info.planner == "search");
        check_report_describes(report, info);
        // The default grids it reports are what the default planner compiles.
        for (const NodeInfo& node : info_of(*heuristic).nodes) {
          INFO("node " << node.name);
          const NodePlan* planned = find_node(report, node.name);
          REQUIRE(planned);
          CHECK(planned->default_grid == node.grid);
        }
        // The arena is as the report says; reuse is weighed on several threads only.
        CHECK((report.no_reuse_predicted_ms > 0) == (threads > 1));
        if (!report.reuse_memory) CHECK(info.arena_bytes == info.tensor_bytes);
        if (report.kept_default) {
          for (const NodePlan& n : report.nodes) CHECK(n.grid == n.default_grid);
        } else {
          CHECK(report.predicted_ms < report.default_predicted_ms);
          ++replaced;
        }
        CHECK(bitwise_equal(run(searched, threads, scheduler), run(heuristic, threads, scheduler)));
      }
    }
  }
  CHECK(replaced > 0);
}

// Saved with many small tiles, so that the plan differs from what the loading model's own
// default (larger tiles) would choose.
std::shared_ptr<const Model> fine_searched(const TestModel& m) {
  return load(m, {.threads = 3, .tile_flops = 2e4, .planner = "search"});
}

TEST_CASE("a saved plan loads back as the same tiling and computes the same bits") {
  for (const TestModel& m : {small_cnn(), mlp(), zoo_model("tiny_cnn")}) {
    auto searched = fine_searched(m);
    INFO(searched->name());
    const std::string text = plan_text(*searched);
    const json file = json::parse(text);
    CHECK(file["format"] == "tessera-plan");
    CHECK(file["version"] == 1);
    CHECK(file["model"] == searched->name());
    CHECK(file["threads"] == 3);
    CHECK(file["planner"] == "search");
    const ModelInfo info = info_of(*searched);
    REQUIRE(file["inputs"].size() == info.inputs.size());
    CHECK(file["inputs"][0]["name"] == info.inputs[0].name);
    CHECK(file["inputs"][0]["dims"] == info.inputs[0].dims);

    auto loaded = load(m, {.threads = 2, .plan = text});
    const PlanReport report = plan_of(*loaded);
    CHECK(report.planner == "file");
    CHECK_FALSE(report.searched);
    CHECK(info_of(*loaded).planner == "file");
    check_report_describes(report, info_of(*loaded));
    CHECK(grids(report) == grids(plan_of(*searched)));
    CHECK(std::any_of(report.nodes.begin(), report.nodes.end(),
                      [](const NodePlan& n) { return n.grid != n.default_grid; }));  // the file was used
    CHECK(bitwise_equal(run(loaded, 2, Scheduler::kDynamic), run(searched, 3, Scheduler::kDynamic)));
    CHECK(json::parse(plan_text(*loaded))["nodes"] == file["nodes"]);
  }
}

TEST_CASE("a saved plan's arena reuse loads back; reuse_memory = false wins; an older plan file means reuse") {
  const TestModel m = small_cnn();
  auto searched = fine_searched(m);
  json file = json::parse(plan_text(*searched));
  CHECK(file["reuse_memory"] == plan_of(*searched).reuse_memory);
  file["reuse_memory"] = false;
  auto fresh = load(m, {.threads = 2, .plan = file.dump()});
  CHECK_FALSE(plan_of(*fresh).reuse_memory);
  const ModelInfo fresh_info = info_of(*fresh);
  CHECK(fresh_info.arena_bytes == fresh_info.tensor_bytes);
  CHECK(fresh_info.reuse_edges == 0);
  CHECK(json::parse(plan_text(*fresh))["reuse_memory"] == false);
  file["reuse_memory"] = true;
  auto shared = load(m, {.threads = 2, .plan = file.dump()});
  CHECK(plan_of(*shared).reuse_memory);
  CHECK(info_of(*shared).arena_bytes < info_of(*shared).tensor_bytes);
  CHECK(bitwise_equal(run(fresh, 2, Scheduler::kDynamic), run(shared, 2, Scheduler::kDynamic)));
  // Asked for no reuse, a plan made with it does not bring it back.
  auto asked_off = load(m, {.threads = 2, .reuse_memory = false, .plan = file.dump()});
  CHECK_FALSE(plan_of(*asked_off).reuse_memory);
  CHECK(info_of(*asked_off).arena_bytes == info_of(*asked_off).tensor_bytes);
  // Older plan files say nothing: reuse.
  file.erase("reuse_memory");
  CHECK(plan_of(*load(m, {.threads = 2, .plan = file.dump()})).reuse_memory);
}

TEST_CASE("a saved plan's algorithms are the model's: a convolution Winograd would run goes by GEMM") {
  const TestModel m = small_cnn();
  const json plan = json::parse(plan_text(*load(m, {.threads = 2})));
  json by_gemm = plan;
  std::string conv;  // the second convolution: 16 -> 16 channels, Winograd by its own choice
  for (json& node : by_gemm["nodes"]) {
    if (node.value("algorithm", "") != "winograd") continue;
    node["algorithm"] = "gemm";
    conv = node["name"];
  }
  REQUIRE_FALSE(conv.empty());
  auto own = load(m, {.threads = 2});
  auto gemm = load(m, {.threads = 2, .plan = by_gemm.dump()});
  CHECK(find_node(plan_of(*own), conv)->algorithm == "winograd");
  CHECK(find_node(plan_of(*gemm), conv)->algorithm == "gemm");
  for (const NodeInfo& n : info_of(*gemm).nodes) {
    if (n.name == conv) CHECK(n.kernel.find("winograd") == std::string::npos);
  }
  CHECK(json::parse(plan_text(*gemm))["nodes"] == by_gemm["nodes"]);  // saved again as it came
  CHECK(relative_error(run(gemm, 2, Scheduler::kDynamic), run(own, 2, Scheduler::kDynamic)) <= 1e-4);
}

// A saved plan text, changed.
std::string edited(const json& plan, const std::function<void(json&)>& edit) {
  json copy = plan;
  edit(copy);
  return copy.dump();
}

TEST_CASE("saved plans that do not fit the model are refused naming the node or field") {
  const TestModel m = small_cnn();
  const std::string good = plan_text(*fine_searched(m));
  const json plan = json::parse(good);
  const json& nodes = plan["nodes"];
  size_t k = 0;  // the first convolution's entry: [1, 16, 24, 24], channels aligned, width whole
  while (k < nodes.size() && nodes[k]["op"] != "Conv") ++k;
  REQUIRE(k < nodes.size());
  const std::string conv = nodes[k]["name"];
  const std::string at = "(Conv \"" + conv + "\"): ";
  const std::string input = plan["inputs"][0]["name"];
  auto node = [&](json& p) -> json& { return p["nodes"][k]; };
  const std::string entry = "plan entry " + std::to_string(k) + " is node ";
  const std::string last = nodes.back()["name"];
  // The plan with the convolution's cuts of dimension `dim` replaced.
  auto recut = [&](int dim, const json& cuts) { return edited(plan, [&](json& p) { node(p)["cuts"][dim] = cuts; }); };

  // The second convolution (16 -> 16 channels) may run by Winograd, the first (8 -> 16) not.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {edited(plan, [&](json& p) { node(p)["algorithm"] = "winograd"; }),
       "the plan runs node \"" + conv + "\" by algorithm \"winograd\", which it does not have here"},
      {edited(plan, [&](json& p) { node(p)["algorithm"] = "fft"; }),
       "the plan runs node \"" + conv + "\" by algorithm \"fft\", which it does not have here"},
      {edited(plan, [&](json& p) { node(p)["algorithm"] = 1; }),
       "plan file: nodes[" + std::to_string(k) + "] (" + conv + "): \"algorithm\" must be a string"},
      {edited(plan, [](json& p) { p["reuse_memory"] = "no"; }), "plan file: \"reuse_memory\" must be true or false"},
      {edited(plan, [](json& p) { p["model"] = "resnet"; }),
       "the plan was made for model \"resnet\", not \"small_cnn\""},
      {edited(plan, [](json& p) { p["inputs"][0]["dims"][0] = 2; }),
       "the plan was made for inputs " + input + "=[2,8,24,24], not " + input + "=[1,8,24,24]"},
      {edited(plan, [&](json& p) { node(p)["name"] = "renamed"; }),
       entry + "\"renamed\" (Conv), the model has \"" + conv + "\" (Conv) there"},
      {edited(plan, [&](json& p) { node(p)["op"] = "MatMul"; }),
       entry + "\"" + conv + "\" (MatMul), the model has \"" + conv + "\" (Conv) there"},
      {edited(plan, [&](json& p) { node(p)["shape"][2] = 23; }),
       "the plan tiles node \"" + conv + "\" with output [1,16,23,24], the model's is [1,16,24,24]"},
      {recut(2, {0, 23}), at + "tiling of dimension 2 must run from 0 to its size"},
      {recut(2, {0, 12, 6, 24}), at + "tiling cuts must increase"},
      {recut(3, {0, 12, 24}), at + "dimension 3 cannot be split"},
      {recut(1, {0, 3, 16}), at + "cut 3 is not a multiple of"},
      {edited(plan, [&](json& p) { node(p)["cuts"].erase(3); }), at + "tiling has the wrong rank"},
      {edited(plan, [](json& p) { p["nodes"].erase(p["nodes"].size() - 1); }),
       "the plan has " + std::to_string(nodes.size() - 1) + " nodes and no entry for node \"" + last + "\""},
      {edited(plan,
              [](json& p) {
                json extra = p["nodes"].back();
                extra["name"] = "extra";
                p["nodes"].push_back(extra);
              }),
       "the plan has 1 more nodes than the model, from \"extra\" on"},
      {edited(plan, [&](json& p) { node(p).erase("cuts"); }),
       "plan file: nodes[" + std::to_string(k) + "] (" + conv + "): \"cuts\" must be a list per dimension"},
      {recut(0, {"0", "1"}), "plan file: nodes[" + std::to_string(k) + "] (" + conv + "): cuts must be integers"},
      {edited(plan, [](json& p) { p["format"] = "onnx"; }), "plan file: \"format\" must be \"tessera-plan\""},
      {edited(plan, [](json& p) { p["version"] = 2; }), "plan file: \"version\" must be 1"},
      {edited(plan, [](json& p) { p["inputs"] = "x"; }), "plan file: \"inputs\" must be an array"},
      {"{\"format\": \"tessera-plan\", ", "plan file: not a JSON object"},
  };
  for (const auto& [text, message] : cases) {
    INFO(message);
    auto model = Model::load(m.json, m.weights, {.threads = 2, .plan = text});
    REQUIRE_FALSE(model.ok());
    INFO(model.status().message());
    CHECK(model.status().message().find(message) != std::string::npos);
  }
  auto unknown = Model::load(m.json, m.weights, {.planner = "genetic"});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message() == "unknown planner \"genetic\" (auto, default, search)");
  // Refusals leave nothing behind: the right plan still loads.
  CHECK(plan_of(*load(m, {.threads = 2, .plan = good})).planner == "file");
}

TEST_CASE("a saved plan tiles the input dims it was made for; other dims are planned by the planner") {
  const TestModel m = symbolic_mlp();
  const InputDims saved_dims = {{m.inputs[0].name, {48, 64}}}, other_dims = {{m.inputs[0].name, {20, 64}}};
  const std::string saved = plan_text(*fine_searched(m), saved_dims);
  auto reference = load(m, {.threads = 2});
  for (const std::string planner : {"default", "search"}) {
    INFO("planner " << planner);
    auto model = load(m, {.threads = 2, .planner = planner, .plan = saved});
    CHECK(model->memory().specializations == 0);  // symbolic: the plan waits for its dims
    CHECK(plan_of(*model, saved_dims).planner == "file");
    CHECK(plan_of(*model, other_dims).planner == planner);
    CHECK(json::parse(plan_text(*model, saved_dims))["nodes"] == json::parse(saved)["nodes"]);
    for (const InputDims& dims : {saved_dims, other_dims}) {
      CHECK(bitwise_equal(run(model, 2, Scheduler::kDynamic, dims), run(reference, 2, Scheduler::kDynamic, dims)));
    }
  }
  // Checked when its specialisation compiles: a plan that does not fit fails there, naming the
  // node, and only there.
  json wrong = json::parse(saved);
  const std::string first = wrong["nodes"][0]["name"];
  wrong["nodes"][0]["name"] = "renamed";
  auto model = load(m, {.threads = 2, .plan = wrong.dump()});
  CHECK(info_of(*model, other_dims).planner == "default");
  auto refused = model->info(saved_dims);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("\"renamed\"") != std::string::npos);
  CHECK(refused.status().message().find("\"" + first + "\"") != std::string::npos);
}

}  // namespace
}  // namespace tessera::testing
