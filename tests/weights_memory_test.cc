// Weights mapped from their file stay resident only until they are packed: the kernels give
// back the pages they packed, a run reads back what it needs, and the outputs are bitwise
// those of the same model loaded from bytes.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/model/load.h"
#include "tessera/pipeline.h"
#include "tests/support/cli_run.h"
#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

// This process's resident bytes of the mapping that starts at `start`, or of the one whose
// file is `path` (from /proc/self/smaps); -1 when there is none.
int64_t resident_bytes(const void* start, const std::string& path = "") {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2) {  // a mapping's first line
      inside = path.empty()
                   ? begin == reinterpret_cast<uintptr_t>(start)
                   : line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0;
      continue;
    }
    if (inside && line.rfind("Rss:", 0) == 0) return std::stoll(line.substr(4)) * 1024;
  }
  return -1;
}

TEST_CASE("release_pages gives back the whole pages inside its range; the bytes read back unchanged") {
  const std::string path = work_dir("weights_memory") + "/pages.bin";
  std::vector<uint8_t> bytes(64 * kPage);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / kPage);
  write_bytes(path, bytes);
  auto mapped = model::map_file(path);
  REQUIRE(mapped.ok());
  REQUIRE(mapped->mapped());
  const std::byte* data = mapped->data();
  CHECK(std::memcmp(data, bytes.data(), bytes.size()) == 0);
  CHECK(resident_bytes(data) == static_cast<int64_t>(64 * kPage));

  // Pages 4..9: [3.5, 10.5) pages holds them whole, and parts of pages 3 and 10.
  mapped->release_pages(data + 7 * kPage / 2, 7 * kPage);
  CHECK(resident_bytes(data) == static_cast<int64_t>(58 * kPage));
  mapped->release_pages(data + 64 * kPage, 8 * kPage);  // past the end: nothing
  mapped->release_pages(data - 8 * kPage, 8 * kPage);   // before the start: nothing
  CHECK(resident_bytes(data) == static_cast<int64_t>(58 * kPage));
  CHECK(std::memcmp(data, bytes.data(), bytes.size()) == 0);
  CHECK(resident_bytes(data) == static_cast<int64_t>(64 * kPage));

  AlignedBuffer heap = AlignedBuffer::allocate(bytes.size());
  std::memcpy(heap.data(), bytes.data(), bytes.size());
  heap.release_pages(heap.data(), bytes.size());  // heap memory: kept
  CHECK(!heap.mapped());
  CHECK(std::memcmp(heap.data(), bytes.data(), bytes.size()) == 0);
}

// 8 MiB of Gemm weights (B transposed: given back as packed) and 4 MiB of MatMul weights (B as
// is: given back once the node is bound), with a bias read into the packed panels; written as
// NAME.json and NAME.bin in the test's directory, whose path is returned.
TestModel wide_layers(const std::string& name, std::string* json_path) {
  ModelBuilder b(5);
  const std::string x = b.input({4, 1024});
  std::string h = b.node("Gemm", {x, b.weight({2048, 1024}), b.weight({2048})}, {{"transB", 1}});
  const TestModel m = b.build({b.node("MatMul", {b.node("Relu", {h}), b.weight({2048, 512})})});
  const std::string dir = work_dir("weights_memory");
  *json_path = dir + "/" + name + ".json";
  write_text(*json_path, m.json);
  write_bytes(dir + "/" + name + ".bin", m.weights);
  return m;
}

TEST_CASE("a model loaded from its file keeps its packed weights, not the file's pages") {
  std::string path;
  const TestModel m = wide_layers("wide", &path);
  const std::string dir = work_dir("weights_memory");

  auto from_file = Model::load_file(path, {});
  REQUIRE(from_file.ok());
  REQUIRE((*from_file)->info().ok());  // compiles: packs both matrices
  const int64_t compiled = resident_bytes(nullptr, dir + "/wide.bin");
  INFO("resident after compiling: " << compiled << " of " << m.weights.size() << " bytes");
  CHECK(compiled >= 0);
  CHECK(compiled < static_cast<int64_t>(m.weights.size() / 32));

  auto from_bytes = Model::load(m.json, m.weights, {});
  REQUIRE(from_bytes.ok());
  check_identical(session_outputs(*from_file, m.inputs), session_outputs(*from_bytes, m.inputs));
  const int64_t ran = resident_bytes(nullptr, dir + "/wide.bin");
  INFO("resident after a run: " << ran << " bytes");
  CHECK(ran < static_cast<int64_t>(m.weights.size() / 32));
}

TEST_CASE("a pipeline's stages give back the file's pages they packed") {
  std::string path;
  const TestModel m = wide_layers("staged", &path);
  auto from_file = Model::load_file(path, {});
  REQUIRE(from_file.ok());
  PlaceOptions options;
  options.workers = options.threads = 2;
  options.worker_memory = 10 << 20;  // the Gemm and the MatMul on workers of their own
  auto pipeline = Pipeline::create(*from_file, {}, options);
  INFO(pipeline.status().message());
  REQUIRE(pipeline.ok());
  CHECK((*pipeline)->placement().stages.size() == 2);
  auto outputs = (*pipeline)->run(m.inputs);
  REQUIRE(outputs.ok());
  auto from_bytes = Model::load(m.json, m.weights, {});
  REQUIRE(from_bytes.ok());
  check_identical(*outputs, session_outputs(*from_bytes, m.inputs));
  const int64_t resident = resident_bytes(nullptr, work_dir("weights_memory") + "/staged.bin");
  INFO("resident after the stages ran: " << resident << " of " << m.weights.size() << " bytes");
  CHECK(resident < static_cast<int64_t>(m.weights.size() / 32));
}

}  // namespace
}  // namespace tessera::testing
