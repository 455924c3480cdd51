// tessera-zoo tests: byte-identical regeneration, structural validity (weights layout, the
// engine's loader, FLOPs), op coverage of the tiny models, and numerical sanity under the
// engine's reference kernels (tests/support/reference_run.h).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <span>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "models/zoo/zoo.h"
#include "tests/support/reference_run.h"

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

// Runs a written model through the reference kernels on seeded uniform [-1, 1) inputs.
tessera::Result<std::vector<tessera::Tensor>> run_reference(const std::string& json_path,
                                                            const tessera::testing::TensorObserver& observe = {}) {
  const tessera::testing::ModelFiles files = tessera::testing::read_model_files(json_path);
  const auto json = nlohmann::json::parse(files.json);
  std::vector<tessera::Tensor> specs;
  for (const auto& input : json["inputs"]) {
    specs.push_back({input["name"].get<std::string>(), input["shape"].get<std::vector<int64_t>>(), {}});
  }
  return tessera::testing::reference_run(files.json, files.weights, tessera::random_inputs(specs, 7), observe);
}

// Statistics over the finite values; non-finite ones are only counted.
struct Stats {
  int64_t non_finite = 0;
  double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
  double rms = 0, std = 0;
};

Stats summarize(std::span<const float> values) {
  Stats s;
  double sum = 0, sum_sq = 0;
  int64_t finite = 0;
  for (float v : values) {
    if (!std::isfinite(v)) {
      ++s.non_finite;
      continue;
    }
    ++finite;
    sum += v;
    sum_sq += static_cast<double>(v) * v;
    s.min = std::min(s.min, static_cast<double>(v));
    s.max = std::max(s.max, static_cast<double>(v));
  }
  if (finite > 0) {
    const double mean = sum / static_cast<double>(finite);
    s.rms = std::sqrt(sum_sq / static_cast<double>(finite));
    s.std = std::sqrt(std::max(0.0, sum_sq / static_cast<double>(finite) - mean * mean));
  }
  return s;
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

TEST_CASE("the engine loads every generated model and counts the builder's FLOPs", "[zoo]") {
  TempDir dir("loader");
  const auto models = test_models();
  generate_all(models, 1, dir.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    auto model = tessera::Model::load_file(dir.file(stem + ".json"), {});
    INFO(stem << ": " << model.status().message());
    REQUIRE(model.ok());
    // Both count 2 per multiply-add of Conv, Gemm and MatMul; the engine's other ops add
    // their own elementwise work, so only these three are comparable.
    double engine_flops = 0;
    for (const auto info = model.value()->info().value(); const tessera::NodeInfo& node : info.nodes) {
      if (node.op == "Conv" || node.op == "Gemm" || node.op == "MatMul") engine_flops += node.flops;
    }
    CHECK(engine_flops == static_cast<double>(tessera::zoo::build_model(request, 1).flops()));
  }
}

TEST_CASE("the tiny models together use every op of model format v1", "[zoo]") {
  const std::set<std::string> expected = {"Conv",
                                          "Gemm",
                                          "MatMul",
                                          "Add",
                                          "Sub",
                                          "Mul",
                                          "Div",
                                          "Pow",
                                          "Relu",
                                          "LeakyRelu",
                                          "Sigmoid",
                                          "Tanh",
                                          "HardSigmoid",
                                          "HardSwish",
                                          "Erf",
                                          "Gelu",
                                          "Sqrt",
                                          "Clip",
                                          "Softmax",
                                          "LayerNormalization",
                                          "BatchNormalization",
                                          "MaxPool",
                                          "AveragePool",
                                          "GlobalAveragePool",
                                          "ReduceMean",
                                          "Concat",
                                          "Reshape",
                                          "Flatten",
                                          "Transpose",
                                          "Squeeze",
                                          "Unsqueeze",
                                          "Identity"};
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

TEST_CASE("the reference kernels give finite, non-trivial outputs for tiny models and MobileNetV2", "[zoo]") {
  TempDir dir("numerics");
  const auto models = test_models();
  generate_all(models, 1, dir.str());
  for (const ModelRequest& request : models) {
    const std::string stem = tessera::zoo::file_stem(request);
    auto outputs = run_reference(dir.file(stem + ".json"));
    INFO(stem << ": " << outputs.status().message());
    REQUIRE(outputs.ok());
    for (const tessera::Tensor& output : *outputs) {
      const Stats stats = summarize(output.floats());
      INFO(output.name << " min " << stats.min << " max " << stats.max << " rms " << stats.rms);
      CHECK(stats.non_finite == 0);
      CHECK(stats.max > stats.min);
      CHECK(stats.rms >= 1e-2);
      CHECK(stats.rms <= 1e2);
      CHECK(stats.std > 1e-3 * stats.rms);
    }
    if (stem == "tiny_cnn") {
      const std::span<const float> probs = outputs->at(0).floats();
      REQUIRE(probs.size() == 20);
      for (int row = 0; row < 2; ++row) {
        double sum = 0;
        for (int c = 0; c < 10; ++c) sum += probs[row * 10 + c];
        CHECK(sum == Approx(1.0).epsilon(1e-5));
      }
    }
  }
}

namespace {

// The mean over rows (last axis) of each row's largest value: for softmax output, 1/len means
// uniform attention and 1 means one-hot.
double mean_row_max(const std::vector<int64_t>& dims, std::span<const float> probs) {
  const auto len = static_cast<size_t>(dims.back());
  const size_t rows = probs.size() / len;
  double sum = 0;
  for (size_t r = 0; r < rows; ++r) sum += *std::max_element(probs.begin() + r * len, probs.begin() + (r + 1) * len);
  return sum / static_cast<double>(rows);
}

// For [batch, seq, hidden]: the share of energy in each sequence's mean token; 1 means every
// token carries the same vector (the "token collapse" of deep random transformers).
double token_shared_energy(const std::vector<int64_t>& dims, std::span<const float> x) {
  REQUIRE(dims.size() == 3);
  const int64_t seq = dims[1], hidden = dims[2];
  double shared = 0, total = 0;
  for (int64_t b = 0; b < dims[0]; ++b) {
    for (int64_t h = 0; h < hidden; ++h) {
      double mean = 0;
      for (int64_t t = 0; t < seq; ++t) mean += x[(b * seq + t) * hidden + h];
      mean /= static_cast<double>(seq);
      shared += mean * mean * static_cast<double>(seq);
    }
  }
  for (float v : x) total += static_cast<double>(v) * v;
  return shared / total;
}

// Runs `request` through the reference kernels and checks that every attention softmax is far
// from uniform and that tokens stay distinct after every LayerNormalization.
void check_attention_is_alive(const ModelRequest& request, const std::string& dir) {
  generate_all({request}, 1, dir);
  const std::string json_path = dir + "/" + tessera::zoo::file_stem(request) + ".json";
  std::map<std::string, std::string> op_of;  // node output tensor -> op
  const auto json = nlohmann::json::parse(read_bytes(json_path));
  for (const auto& node : json["nodes"]) {
    op_of[node["outputs"][0].get<std::string>()] = node["op"].get<std::string>();
  }
  int softmaxes = 0, norms = 0;
  auto observe = [&](const tessera::Tensor& value) {
    const std::string& tensor = value.name;
    const std::vector<int64_t>& dims = value.dims;
    const std::span<const float> values = value.floats();
    INFO(tensor);
    const std::string& op = op_of.at(tensor);
    if (op == "Softmax") {
      ++softmaxes;
      CHECK(mean_row_max(dims, values) > 3.0 / static_cast<double>(dims.back()));
    } else if (op == "LayerNormalization") {
      ++norms;
      CHECK(token_shared_energy(dims, values) < 0.5);
    }
  };
  auto outputs = run_reference(json_path, observe);
  INFO(outputs.status().message());
  REQUIRE(outputs.ok());
  CHECK(softmaxes > 0);
  CHECK(norms > 0);
}

}  // namespace

TEST_CASE("tiny_transformer attention is neither uniform nor collapsing tokens", "[zoo]") {
  TempDir dir("attention");
  check_attention_is_alive(requests("tiny_transformer").at(0), dir.str());
}

// Hidden (tag [.]): ~25 s in Release; run with `zoo_test "[slow]"`.
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
  CHECK(std::system((zoo + " tiny_mlp" + quiet).c_str()) != 0);                           // no -o
  CHECK(std::system((zoo + " vgg16 --batch 0 -o " + cli.str() + quiet).c_str()) != 0);    // bad batch
  CHECK(std::system((zoo + " tiny --seed x -o " + cli.str() + quiet).c_str()) != 0);      // bad seed
  CHECK(std::system((zoo + " tiny --frobnicate -o " + cli.str() + quiet).c_str()) != 0);  // unknown flag
}
#endif
