// tessera-zoo tests: byte-identical regeneration, structural validity (weights layout and the
// core loader), op coverage of the tiny models, and numerical sanity under the test-only oracle.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "models/check/reference_interpreter.h"
#include "models/zoo/zoo.h"

namespace {

namespace fs = std::filesystem;
using tessera::zoo::ModelRequest;

// A fresh directory under the system temp dir, removed when the test ends.
class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(fs::temp_directory_path() / ("tessera_zoo_test_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string str() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<ModelRequest> requests(const std::string& target, int64_t batch = 1) {
  auto resolved = tessera::zoo::resolve_target(target, batch);
  REQUIRE(resolved.ok());
  return *resolved;
}

// The tiny models plus one full-size model small enough for every test run.
std::vector<ModelRequest> test_models() {
  std::vector<ModelRequest> all = requests("tiny");
  all.push_back(requests("mobilenetv2", 1).at(0));
  return all;
}

void generate_all(const std::vector<ModelRequest>& models, uint64_t seed, const std::string& dir) {
  for (const ModelRequest& request : models) {
    auto written = tessera::zoo::generate(request, seed, dir);
    INFO(tessera::zoo::file_stem(request));
    REQUIRE(written.ok());
  }
}

}  // namespace

TEST_CASE("the same seed writes byte-identical model files", "[zoo]") {
  TempDir first("first"), second("second");
  const auto models = test_models();
  generate_all(models, 1, first.str());
  generate_all(models, 1, second.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    INFO(stem);
    for (const char* ext : {".json", ".bin"}) {
      const std::string a = read_bytes(first.file(stem + ext));
      CHECK(!a.empty());
      CHECK(a == read_bytes(second.file(stem + ext)));
    }
  }
}

TEST_CASE("another seed changes the weights but not the graph", "[zoo]") {
  TempDir one("seed1"), two("seed2");
  const auto mlp = requests("tiny_mlp");
  generate_all(mlp, 1, one.str());
  generate_all(mlp, 2, two.str());
  CHECK(read_bytes(one.file("tiny_mlp.json")) == read_bytes(two.file("tiny_mlp.json")));
  CHECK(read_bytes(one.file("tiny_mlp.bin")) != read_bytes(two.file("tiny_mlp.bin")));
}

TEST_CASE("batch variants of a model share their weights", "[zoo]") {
  TempDir dir("batch");
  generate_all({requests("mobilenetv2", 1).at(0), requests("mobilenetv2", 2).at(0)}, 5, dir.str());
  CHECK(read_bytes(dir.file("mobilenetv2_b1.bin")) == read_bytes(dir.file("mobilenetv2_b2.bin")));
  const auto json = nlohmann::json::parse(read_bytes(dir.file("mobilenetv2_b2.json")));
  CHECK(json["inputs"][0]["shape"] == nlohmann::json({2, 3, 224, 224}));
  CHECK(json["outputs"][0]["shape"] == nlohmann::json({2, 1000}));
}

TEST_CASE("every initializer is 64-byte aligned, sized by its shape and inside the weights file", "[zoo]") {
  TempDir dir("layout");
  const auto models = test_models();
  generate_all(models, 1, dir.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    INFO(stem);
    const auto json = nlohmann::json::parse(read_bytes(dir.file(stem + ".json")));
    const auto bin_size = static_cast<int64_t>(fs::file_size(dir.file(stem + ".bin")));
    CHECK(json["weights"] == stem + ".bin");
    std::set<std::string> tensors, nodes;
    for (const auto& init : json["initializers"]) {
      INFO(init.dump());
      int64_t count = 1;
      for (int64_t d : init["shape"]) count *= d;
      const int64_t offset = init["offset"], length = init["length"];
      CHECK(offset % 64 == 0);
      CHECK(length == count * (init["dtype"] == "int64" ? 8 : 4));
      CHECK(offset + length <= bin_size);
      CHECK(tensors.insert(init["name"]).second);
    }
    for (const auto& node : json["nodes"]) {
      CHECK(nodes.insert(node["name"]).second);
      CHECK(tensors.insert(node["outputs"][0]).second);
    }
  }
}

TEST_CASE("the core loader accepts every generated model", "[zoo]") {
  TempDir dir("loader");
  const auto models = test_models();
  generate_all(models, 1, dir.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    auto model = tessera::zoo_check::load_model_file(dir.file(stem + ".json"));
    INFO(stem << ": " << model.status().message());
    CHECK(model.ok());
  }
}

TEST_CASE("the tiny models together use every op of model format v1", "[zoo]") {
  const std::set<std::string> expected = {
      "Conv", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Pow", "Relu", "LeakyRelu", "Sigmoid",
      "Tanh", "HardSigmoid", "HardSwish", "Erf", "Gelu", "Sqrt", "Clip", "Softmax", "LayerNormalization",
      "BatchNormalization", "MaxPool", "AveragePool", "GlobalAveragePool", "ReduceMean", "Concat",
      "Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Identity"};
  TempDir dir("ops");
  generate_all(requests("tiny"), 1, dir.str());
  std::set<std::string> used;
  for (const ModelRequest& request : requests("tiny")) {
    const auto json = nlohmann::json::parse(read_bytes(dir.file(tessera::zoo::file_stem(request) + ".json")));
    for (const auto& node : json["nodes"]) used.insert(node["op"].get<std::string>());
  }
  for (const std::string& op : expected) {
    INFO(op);
    CHECK(used.count(op) == 1);
  }
}

TEST_CASE("the reference interpreter gives finite, non-trivial outputs for tiny models and MobileNetV2", "[zoo]") {
  TempDir dir("numerics");
  const auto models = test_models();
  generate_all(models, 1, dir.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    auto model = tessera::zoo_check::load_model_file(dir.file(stem + ".json"));
    REQUIRE(model.ok());
    auto run = tessera::zoo_check::run_reference(*model, tessera::zoo_check::random_inputs(*model, 7));
    INFO(stem << ": " << run.status().message());
    REQUIRE(run.ok());
    // The builder's FLOP count (from shapes) and the oracle's (from execution) agree.
    CHECK(2 * run->macs == tessera::zoo::build_model(request, 1).flops());
    for (const auto& [name, tensor] : run->outputs) {
      const auto stats = tessera::zoo_check::summarize(tensor);
      INFO(name << " min " << stats.min << " max " << stats.max << " rms " << stats.rms);
      CHECK(tessera::zoo_check::is_healthy(stats));
      CHECK(stats.std > 1e-3 * stats.rms);
    }
    if (stem == "tiny_cnn") {
      const auto& probs = run->outputs.at("probs");
      for (int row = 0; row < 2; ++row) {
        double sum = 0;
        for (int c = 0; c < 10; ++c) sum += probs.data[row * 10 + c];
        CHECK(sum == Approx(1.0).epsilon(1e-5));
      }
    }
  }
}

namespace {

// Runs `request` through the oracle and checks that every attention softmax is far from
// uniform and that tokens stay distinct after every LayerNormalization.
void check_attention_is_alive(const ModelRequest& request, const std::string& dir) {
  generate_all({request}, 1, dir);
  auto model = tessera::zoo_check::load_model_file(dir + "/" + tessera::zoo::file_stem(request) + ".json");
  REQUIRE(model.ok());
  int softmaxes = 0, norms = 0;
  auto observer = [&](const tessera::model::NodeDesc& node, const tessera::zoo_check::RefTensor& out) {
    INFO(node.name);
    if (node.op == "Softmax") {
      ++softmaxes;
      CHECK(tessera::zoo_check::mean_row_max(out) > 3.0 / static_cast<double>(out.shape.back()));
    } else if (node.op == "LayerNormalization") {
      ++norms;
      CHECK(tessera::zoo_check::token_shared_energy(out) < 0.5);
    }
  };
  auto run = tessera::zoo_check::run_reference(*model, tessera::zoo_check::random_inputs(*model, 7), observer);
  REQUIRE(run.ok());
  CHECK(softmaxes > 0);
  CHECK(norms > 0);
}

}  // namespace

TEST_CASE("tiny_transformer attention is neither uniform nor collapsing tokens", "[zoo]") {
  TempDir dir("attention");
  check_attention_is_alive(requests("tiny_transformer").at(0), dir.str());
}

// Hidden (tag [.]): ~10 s in Release; run with `zoo_test "[slow]"`.
TEST_CASE("bert_base attention stays alive through all 12 layers", "[.][slow]") {
  TempDir dir("bert");
  check_attention_is_alive(requests("bert_base").at(0), dir.str());
}

#ifdef TESSERA_ZOO_BINARY
TEST_CASE("the CLI writes what the library writes and rejects bad arguments", "[zoo][cli]") {
  TempDir cli("cli"), lib("lib");
  const std::string zoo = TESSERA_ZOO_BINARY;
  const std::string quiet = " >/dev/null 2>&1";
  REQUIRE(std::system((zoo + " tiny -o " + cli.str() + quiet).c_str()) == 0);
  generate_all(requests("tiny"), 1, lib.str());
  for (const ModelRequest& request : requests("tiny")) {
    const std::string stem = tessera::zoo::file_stem(request);
    CHECK(read_bytes(cli.file(stem + ".bin")) == read_bytes(lib.file(stem + ".bin")));
    CHECK(read_bytes(cli.file(stem + ".json")) == read_bytes(lib.file(stem + ".json")));
  }
  CHECK(std::system((zoo + " --list" + quiet).c_str()) == 0);
  CHECK(std::system((zoo + " --help" + quiet).c_str()) == 0);
  CHECK(std::system((zoo + " resnet51 -o " + cli.str() + quiet).c_str()) != 0);
  CHECK(std::system((zoo + " tiny_mlp" + quiet).c_str()) != 0);                              // no -o
  CHECK(std::system((zoo + " vgg16 --batch 0 -o " + cli.str() + quiet).c_str()) != 0);     // bad batch
  CHECK(std::system((zoo + " tiny --seed x -o " + cli.str() + quiet).c_str()) != 0);       // bad seed
  CHECK(std::system((zoo + " tiny --frobnicate -o " + cli.str() + quiet).c_str()) != 0);   // unknown flag
}
#endif
