// Calibration networks: building, compiling and timing them.
#include "core/calibrate/network.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "core/base/aligned_buffer.h"
#include "core/kernels/peak/timing.h"
#include "core/runtime/executor.h"

namespace tessera::calibration {

using json = nlohmann::json;

Network::Network(std::vector<int64_t> input) {
  doc_ = {{"format", "tessera"},           {"version", 1},
          {"name", "calibration"},         {"inputs", {{{"name", "x"}, {"dtype", "float32"}, {"shape", input}}}},
          {"initializers", json::array()}, {"nodes", json::array()}};
}

std::string Network::weight(std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  const std::string name = "w" + std::to_string(doc_["initializers"].size());
  doc_["initializers"].push_back(
      {{"name", name}, {"dtype", "float32"}, {"shape", shape}, {"offset", weights_.size()}, {"length", count * 4}});
  std::uniform_real_distribution<float> dist(-0.2f, 0.2f);
  for (int64_t i = 0; i < count; ++i) {
    const float v = dist(rng_);
    const auto* bytes = reinterpret_cast<const uint8_t*>(&v);
    weights_.insert(weights_.end(), bytes, bytes + 4);
  }
  return name;
}

std::string Network::ints(std::vector<int64_t> values) {
  const std::string name = "i" + std::to_string(doc_["initializers"].size());
  doc_["initializers"].push_back({{"name", name},
                                  {"dtype", "int64"},
                                  {"shape", {values.size()}},
                                  {"offset", weights_.size()},
                                  {"length", values.size() * 8}});
  for (int64_t v : values) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&v);
    weights_.insert(weights_.end(), bytes, bytes + 8);
  }
  return name;
}

std::string Network::node(const std::string& op, std::vector<std::string> inputs, json attributes) {
  const std::string out = "n" + std::to_string(doc_["nodes"].size());
  doc_["nodes"].push_back(
      {{"op", op}, {"name", out}, {"inputs", inputs}, {"outputs", {out}}, {"attributes", attributes}});
  return out;
}

Result<std::shared_ptr<const Model>> Network::model(const std::string& output, std::vector<int64_t> shape,
                                                    const CompileOptions& options) const {
  json doc = doc_;
  doc["outputs"] = {{{"name", output}, {"dtype", "float32"}, {"shape", shape}}};
  AlignedBuffer weights = AlignedBuffer::allocate(weights_.size());
  if (!weights_.empty()) std::memcpy(weights.data(), weights_.data(), weights_.size());
  return CompiledModel::compile(doc.dump(), WeightsFile(std::move(weights)), options);
}

Result<std::shared_ptr<const Specialization>> Network::compile(const std::string& output, std::vector<int64_t> shape,
                                                               Isa isa, double tile_flops, int threads) const {
  CompileOptions options;
  options.isa = std::string(isa_name(isa));
  options.tile_flops = tile_flops;
  options.threads = threads;
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Model> compiled, model(output, std::move(shape), options));
  return static_cast<const CompiledModel&>(*compiled).specialize({});
}

namespace {

// What a run of `g` on `threads` threads writes: its arena (zeroed) and each thread's scratch.
struct RunBuffers {
  AlignedBuffer arena;
  std::vector<AlignedBuffer> scratch;
  std::vector<float*> scratch_of;

  static Result<RunBuffers> make(const tiles::TileGraph& g, int threads) {
    RunBuffers b;
    b.arena = AlignedBuffer::allocate(static_cast<size_t>(std::max<int64_t>(g.arena_bytes, 64)));
    if (b.arena.data() == nullptr) return Status::error("calibrate: out of memory");
    std::memset(b.arena.data(), 0, b.arena.size());
    for (int t = 0; t < threads; ++t) {
      b.scratch.push_back(AlignedBuffer::allocate(static_cast<size_t>(g.scratch_floats + 16) * sizeof(float)));
      if (b.scratch.back().data() == nullptr) return Status::error("calibrate: out of memory");
      b.scratch_of.push_back(b.scratch.back().as<float>());
    }
    return b;
  }
};

}  // namespace

// Mean seconds of every task of `g` over runs on one thread, for about `seconds`: the mean,
// not the median, because a browser's coarse clock makes most short tiles read 0 or one
// clock step, and only their average comes out right.
Result<TaskTimes> time_tasks(const tiles::TileGraph& g, double seconds) {
  TESSERA_ASSIGN_OR_RETURN(RunBuffers buffers, RunBuffers::make(g, 1));
  std::byte* const arena = buffers.arena.data();
  const std::vector<float*>& scratch_of = buffers.scratch_of;
  runtime::Executor executor(1);
  std::vector<runtime::TileEvent> events;
  std::vector<double> sums(g.tasks.size(), 0.0);
  double between = 0;
  int runs = 0;
  const runtime::RunConfig traced{runtime::Scheduler::kDynamic, 0, true};
  executor.run(g, arena, scratch_of, traced, &events);  // warm the caches
  const auto start = std::chrono::steady_clock::now();
  for (; runs < 5 || kernels::seconds_since(start) < seconds; ++runs) {
    executor.run(g, arena, scratch_of, traced, &events);
    if (events.empty()) continue;
    int64_t first = events.front().start_ns, last = events.front().end_ns, inside = 0;
    for (const runtime::TileEvent& e : events) {
      sums[e.task] += 1e-9 * static_cast<double>(e.end_ns - e.start_ns);
      first = std::min(first, e.start_ns);
      last = std::max(last, e.end_ns);
      inside += e.end_ns - e.start_ns;
    }
    between += 1e-9 * static_cast<double>(last - first - inside);
  }
  TaskTimes out;
  for (double sum : sums) out.task.push_back(sum / runs);
  out.between = between / runs;
  return out;
}

Result<double> time_whole_runs(const tiles::TileGraph& g, int threads, double seconds) {
  TESSERA_ASSIGN_OR_RETURN(RunBuffers buffers, RunBuffers::make(g, threads));
  std::byte* const arena = buffers.arena.data();
  runtime::Executor executor(threads);
  const runtime::RunConfig config{runtime::Scheduler::kDynamic, 0, false};
  executor.run(g, arena, buffers.scratch_of, config, nullptr);  // start the threads, warm the caches
  return kernels::median_seconds_of(seconds, [&] { executor.run(g, arena, buffers.scratch_of, config, nullptr); });
}

}  // namespace tessera::calibration
