// The executor's own costs, from synthetic tile graphs whose tiles do nothing (or spin for a
// fixed time): what the simulator adds to every tile, edge and hand-over between threads.
#include <chrono>
#include <memory>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/calibrate/calibrate.h"
#include "core/kernels/peak/timing.h"
#include "core/runtime/executor.h"

namespace tessera::calibration {

namespace {

// A tile that spins for a fixed time (0: returns at once).
class SpinKernel final : public ops::TileKernel {
 public:
  explicit SpinKernel(double seconds) : seconds_(seconds) {}
  void run(const ops::Region&, const ops::ExecContext&) const override {
    if (seconds_ <= 0) return;
    const auto start = std::chrono::steady_clock::now();
    while (kernels::seconds_since(start) < seconds_) {
    }
  }
  std::string kernel_name() const override { return "calibration_spin"; }

 private:
  double seconds_;
};

// Layers of widths[layer] tasks of tile_seconds[layer] each; with all_to_all every task of a
// layer depends on every task of the one before, else the graph has no edges.
tiles::TileGraph layered(const std::vector<int>& widths, const std::vector<double>& tile_seconds, bool all_to_all) {
  tiles::TileGraph g;
  const int layers = static_cast<int>(widths.size());
  std::vector<uint32_t> first(layers + 1, 0);
  for (int layer = 0; layer < layers; ++layer) first[layer + 1] = first[layer] + static_cast<uint32_t>(widths[layer]);
  for (int layer = 0; layer < layers; ++layer) {
    const int width = widths[layer];
    tiles::CompiledNode node;
    node.name = "layer" + std::to_string(layer);
    node.op = "Spin";
    node.kernel = std::make_unique<SpinKernel>(tile_seconds[layer]);
    node.first_task = static_cast<uint32_t>(g.tasks.size());
    node.task_count = static_cast<uint32_t>(width);
    for (int t = 0; t < width; ++t) {
      tiles::Task task;
      task.node = static_cast<uint32_t>(layer);
      task.region.rank = 1;
      task.region.end[0] = 1;
      task.parents = all_to_all && layer > 0 ? static_cast<uint32_t>(widths[layer - 1]) : 0;
      g.tasks.push_back(task);
    }
    g.nodes.push_back(std::move(node));
  }
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    tiles::Task& task = g.tasks[t];
    task.children_begin = static_cast<uint32_t>(g.children.size());
    const int layer = static_cast<int>(task.node);
    if (all_to_all && layer + 1 < layers) {
      for (uint32_t c = first[layer + 1]; c < first[layer + 2]; ++c) g.children.push_back(c);
    }
    task.children_end = static_cast<uint32_t>(g.children.size());
  }
  g.data_edges = g.children.size();
  return g;
}

// Seconds of one run of `graph` on `executor`: the fastest tenth of the runs, since on a
// shared machine another process taking a core for a while only ever adds time.
double time_runs(runtime::Executor& executor, const tiles::TileGraph& graph, double seconds) {
  std::vector<AlignedBuffer> scratch_buffers;
  std::vector<float*> scratch;
  for (int t = 0; t < executor.threads(); ++t) {
    scratch_buffers.push_back(AlignedBuffer::allocate(64));
    scratch.push_back(scratch_buffers.back().as<float>());
  }
  AlignedBuffer arena = AlignedBuffer::allocate(64);
  executor.run(graph, arena.data(), scratch, {}, nullptr);  // start the threads
  return kernels::quantile_seconds(seconds, 0.1, [&] {
    const auto start = std::chrono::steady_clock::now();
    executor.run(graph, arena.data(), scratch, {}, nullptr);
    return kernels::seconds_since(start);
  });
}

}  // namespace

plan::ExecutorCosts measure_executor(int threads, const Budget& budget) {
  plan::ExecutorCosts costs;
  std::vector<double> spins;
  runtime::Executor idle(1);
  for (int i = 0; i < 21; ++i) spins.push_back(idle.idle_spin_seconds());
  std::nth_element(spins.begin(), spins.begin() + 10, spins.end());
  costs.spin = spins[10];
  const double seconds = budget.point();
  {
    runtime::Executor one(1);
    constexpr int kTasks = 4096;
    costs.task = time_runs(one, layered({kTasks}, {0}, false), seconds) / kTasks;
    constexpr int kWidth = 64;  // two layers, every task of the second waits for all of the first
    const double t = time_runs(one, layered({kWidth, kWidth}, {0, 0}, true), seconds);
    costs.edge = std::max(0.0, (t - 2 * kWidth * costs.task) / (kWidth * kWidth));
  }
  if (threads > 1) {
    // Two threads through layers of two 20 us tiles: each layer hands one tile to the other
    // thread, which was spinning for work, so what a layer takes beyond 20 us is that
    // hand-over (and the tiles' own costs).
    runtime::Executor two(2);
    constexpr int kLayers = 100;
    constexpr double kTile = 20e-6;
    const double t =
        time_runs(two, layered(std::vector<int>(kLayers, 2), std::vector<double>(kLayers, kTile), true), seconds * 2);
    costs.steal = std::max(0.0, t / kLayers - kTile - costs.task - 2 * costs.edge);
    // Then a 1 ms tile alone, long enough for the idle thread to stop spinning and sleep,
    // before two short ones: the second of those waits for that thread to wake.
    constexpr int kPairs = 10;
    constexpr double kLong = 1e-3;
    std::vector<int> widths;
    std::vector<double> times;
    for (int i = 0; i < kPairs; ++i) {
      widths.insert(widths.end(), {1, 2});
      times.insert(times.end(), {kLong, kTile});
    }
    const double woken = time_runs(two, layered(widths, times, true), seconds * 4);
    const double per_pair = woken / kPairs - kLong - kTile - 3 * costs.task - 4 * costs.edge;
    costs.wake = std::max(0.0, per_pair - costs.steal);
  }
  return costs;
}

}  // namespace tessera::calibration
