// Weights mapped from their file stay resident only until they are packed: the kernels give
// back the pages they packed, a run reads small constants from copies, and the outputs are bitwise
// those of the same model loaded from bytes. Weights in heap memory (loaded from bytes, and
// always in WebAssembly) are freed once a model of fixed dims is compiled: a run reads none
// of them.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/engine/compiled_model.h"
#include "core/model/load.h"
#include "core/ops/packed_weights.h"
#include "tessera/pipeline.h"
#include "tests/support/cli_run.h"
#include "tests/support/engine_check.h"
#include "tests/support/reference_run.h"

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

// Whether any mapping of this process holds `address` (from /proc/self/maps).
bool mapped_address(const void* address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto at = reinterpret_cast<uintptr_t>(address);
  while (std::getline(maps, line)) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && begin <= at && at < end) return true;
  }
  return false;
}

TEST_CASE("large blocks take pages of their own, given back to the OS when freed") {
  const size_t huge = size_t{2} << 20;
  for (const size_t bytes : {size_t{256} << 10, 3 * huge + 100}) {
    INFO(bytes << " bytes");
    const std::byte* last = nullptr;
    {
      AlignedBuffer block = AlignedBuffer::allocate(bytes);
      REQUIRE(block.data() != nullptr);
      CHECK(!block.mapped());  // not a file: release_pages keeps its bytes
      CHECK(reinterpret_cast<uintptr_t>(block.data()) % (bytes >= huge ? huge : kPage) == 0);
      std::memset(block.data(), 0x5a, bytes);
      block.release_pages(block.data(), bytes);
      CHECK(static_cast<uint8_t>(block.data()[bytes - 1]) == 0x5a);
      last = block.data() + bytes - 1;
      CHECK(mapped_address(last));
    }
    CHECK(!mapped_address(last));
  }
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

TEST_CASE("a piecewise weights file holds its initializers' stretches, each aligned as in the file") {
  // Bytes 70-90 and 80-100 overlap; 200-208 stands alone; 300-300 holds nothing.
  std::optional<WeightsFile> file = WeightsFile::segmented({{80, 20}, {200, 8}, {70, 20}, {300, 0}}, 400);
  REQUIRE(file.has_value());
  CHECK(file->piecewise());
  CHECK(file->size() == 400);
  REQUIRE(file->segments() == 2);  // [64, 100) and [192, 208): starts aligned down to 64 bytes
  CHECK(file->whole() == nullptr);
  CHECK(file->at(63) == nullptr);
  CHECK(file->at(100) == nullptr);
  REQUIRE(file->at(64) != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(file->at(64)) % AlignedBuffer::kAlignment == 0);
  CHECK(file->at(99) == file->at(64) + 35);
  CHECK(reinterpret_cast<uintptr_t>(file->at(200)) % AlignedBuffer::kAlignment == 8);

  // Written as a caller streams a file in: span by span, skipping what is not held.
  std::vector<uint8_t> bytes(400);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  std::vector<std::pair<int64_t, int64_t>> held;
  for (int64_t offset = 0; offset < 400;) {
    const auto [data, n] = file->span(offset);
    REQUIRE(n > 0);
    if (data != nullptr) {
      std::memcpy(data, bytes.data() + offset, static_cast<size_t>(n));
      held.emplace_back(offset, n);
    }
    offset += n;
  }
  CHECK(held == std::vector<std::pair<int64_t, int64_t>>{{64, 36}, {192, 16}});
  CHECK(static_cast<uint8_t>(*file->at(85)) == 85);
  CHECK(static_cast<uint8_t>(*file->at(207)) == 207);

  CHECK(file->segment_of(file->at(90)) == 0);
  CHECK(file->segment_of(file->at(200)) == 1);
  CHECK(file->segment_of(bytes.data()) == -1);
  const std::byte* second = file->at(200);
  file->free_segment(0);
  CHECK(file->at(80) == nullptr);
  CHECK(file->at(200) == second);
  CHECK(file->span(80).first == nullptr);

  WeightsFile whole(AlignedBuffer::allocate(64));
  CHECK(!whole.piecewise());
  CHECK(whole.whole() != nullptr);
}

TEST_CASE("packed weights are no longer found by the address of a source that was freed") {
  // A stretch of the file freed, the heap may hand its addresses to a later source: that
  // source must be packed anew, not given what was packed from the freed bytes.
  ConstantStore store;
  AlignedBuffer stretch = AlignedBuffer::allocate(256);
  AlignedBuffer other = AlignedBuffer::allocate(64);
  int packs = 0;
  auto pack = [&] {
    ++packs;
    return AlignedBuffer::allocate(16);
  };
  const PackKey inside = ops::pack_key("gemm_b", {stretch.data() + 128, nullptr}, {4, 8});
  const PackKey outside = ops::pack_key("gemm_b", {other.data(), nullptr}, {4, 8});
  const auto first = store.packed(inside, pack);
  const auto kept = store.packed(outside, pack);
  CHECK(store.packed(inside, pack) == first);  // found while its source lives
  CHECK(packs == 2);

  store.forget_packed_from(stretch.data(), stretch.size());
  const auto again = store.packed(inside, pack);
  CHECK(again != first);
  CHECK(packs == 3);
  CHECK(store.packed(outside, pack) == kept);  // a source outside the freed bytes
  CHECK(packs == 3);
}

// A model with constants its kernels read in place (a gathered table, a constant A of a
// MatMul, an elementwise operand, constant outputs) beside packed weights (a convolution, a
// depthwise one, a MatMul's B).
TestModel in_place_constants_model() {
  ModelBuilder b(11);
  const std::string image = b.input({1, 8, 12, 12});
  std::string h = b.node("Conv", {image, b.weight({16, 8, 3, 3}), b.weight({16})}, {{"pads", {1, 1, 1, 1}}});
  h = b.node("Conv", {b.node("Relu", {h}), b.weight({16, 1, 3, 3}), b.weight({16})},
             {{"group", 16}, {"pads", {1, 1, 1, 1}}});
  h = b.node("Max", {h, b.weight({1, 16, 12, 12})});
  const std::string rows = b.node("Reshape", {h, b.ints({16, 144})});
  const std::string mixed = b.node("MatMul", {b.weight({6, 16}), rows});
  const std::vector<int64_t> id_values{3, 0, 9, 3, 7};
  const std::string ids = b.input(Tensor::of("ids", {5}, DType::kInt64, id_values.data()));
  const std::string gathered = b.node("Gather", {b.weight({10, 144}), ids});
  const std::string projected = b.node("MatMul", {gathered, b.weight({144, 20})});
  const std::string folded = b.node("Neg", {b.weight({3, 4})});
  return b.build({mixed, projected, folded, b.weight({2, 3})});
}

// Loads `json` from a copy of `weights` this test keeps, so that what the model frees stays
// readable here: it is overwritten with NaNs (and -1 indices) before the model runs.
struct ReleasedModel {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const WeightsFile> weights;  // the whole file in one buffer
};
ReleasedModel load_and_poison(const std::string& json, const std::vector<uint8_t>& weights,
                              const CompileOptions& options) {
  AlignedBuffer copy = AlignedBuffer::allocate(weights.size());
  if (!weights.empty()) std::memcpy(copy.data(), weights.data(), weights.size());
  auto desc = model::load_model(json, std::move(copy));
  REQUIRE(desc.ok());
  ReleasedModel released{nullptr, desc->weights};
  auto model = CompiledModel::compile(std::move(*desc), options);
  INFO(model.status().message());
  REQUIRE(model.ok());
  released.model = *model;
  if (const AlignedBuffer* whole = released.weights->whole()) {
    std::memset(const_cast<std::byte*>(whole->data()), 0xff, whole->size());
  }
  return released;
}

TEST_CASE("a model of fixed dims loaded from bytes frees its weights once compiled; its runs read none of them") {
  std::vector<std::pair<std::string, TestModel>> models;
  models.emplace_back("in-place constants", in_place_constants_model());
  models.emplace_back("wide layers", wide_layers_model());
  for (const char* name : {"tiny_cnn", "tiny_mobilenet", "tiny_transformer", "tiny_mlp"}) {
    const ModelFiles files = read_model_files(std::string(TESSERA_ZOO_DIR) + "/" + name + ".json");
    auto kept = Model::load(files.json, files.weights, {});
    REQUIRE(kept.ok());
    models.emplace_back(name, TestModel{files.json, files.weights, *(*kept)->random_inputs({}, 3)});
  }
  for (const auto& [name, m] : models) {
    for (const char* isa : {"auto", "avx2", "scalar"}) {
      CompileOptions options;
      options.isa = isa;
      if (std::string(isa) != "auto" && !Model::load(m.json, m.weights, options).ok()) continue;  // not this CPU
      INFO(name << ", ISA " << isa);
      options.threads = 2;
      const ReleasedModel released = load_and_poison(m.json, m.weights, options);
      CHECK(released.weights.use_count() == 1);  // only this test holds them
      CHECK(released.model->memory().weight_bytes == 0);
      CompileOptions keep = options;
      keep.keep_weights = true;
      auto kept = Model::load(m.json, m.weights, keep);
      REQUIRE(kept.ok());
      CHECK((*kept)->memory().weight_bytes == static_cast<int64_t>(m.weights.size()));
      const std::vector<Tensor> expected = session_outputs(*kept, m.inputs);
      check_identical(session_outputs(released.model, m.inputs), expected);
      check_identical(session_outputs(released.model, m.inputs), expected);  // and again

      // Piecewise (Model::load): each stretch freed as soon as the last node reading it is bound.
      auto extents = model::initializer_extents(m.json, static_cast<int64_t>(m.weights.size()));
      REQUIRE(extents.ok());
      std::optional<WeightsFile> pieces = WeightsFile::segmented(*extents, static_cast<int64_t>(m.weights.size()));
      REQUIRE(pieces.has_value());
      for (int64_t offset = 0; offset < static_cast<int64_t>(m.weights.size());) {
        const auto [data, n] = pieces->span(offset);
        if (data != nullptr) std::memcpy(data, m.weights.data() + offset, static_cast<size_t>(n));
        offset += n;
      }
      auto desc = model::load_model(m.json, std::move(*pieces));
      REQUIRE(desc.ok());
      const std::shared_ptr<const WeightsFile> file = desc->weights;
      auto piecewise = CompiledModel::compile(std::move(*desc), options);
      REQUIRE(piecewise.ok());
      for (const auto& [offset, bytes] : *extents) CHECK((bytes == 0 || file->at(offset) == nullptr));
      check_identical(session_outputs(*piecewise, m.inputs), expected);
      check_identical(session_outputs(*Model::load(m.json, m.weights, options), m.inputs), expected);
    }
  }
}

TEST_CASE("a model loaded from its file reads its small constants from copies: a run touches none of the file") {
  // A touch of a mapped file brings back a whole page-cache folio (up to 2 MiB on recent
  // kernels), the weights around the constant with it.
  const TestModel m = in_place_constants_model();
  const std::string dir = work_dir("weights_memory");
  write_text(dir + "/in_place.json", m.json);
  write_bytes(dir + "/in_place.bin", m.weights);
  auto from_file = Model::load_file(dir + "/in_place.json", {});
  REQUIRE(from_file.ok());
  auto from_bytes = Model::load(m.json, m.weights, {});
  REQUIRE(from_bytes.ok());
  check_identical(session_outputs(*from_file, m.inputs), session_outputs(*from_bytes, m.inputs));
  check_identical(session_outputs(*from_file, m.inputs), session_outputs(*from_bytes, m.inputs));
  const int64_t ran = resident_bytes(nullptr, dir + "/in_place.bin");
  INFO("resident after two runs: " << ran << " of " << m.weights.size() << " bytes");
  CHECK(ran >= 0);
  CHECK(ran <= static_cast<int64_t>(kPage));  // the file's last, partial page may stay
}

}  // namespace
}  // namespace tessera::testing
