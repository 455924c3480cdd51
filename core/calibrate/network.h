// Calibration networks: small models built in memory, compiled like any other and timed
// tile by tile on one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/cpu_features.h"
#include "core/engine/compiled_model.h"
#include "tessera/status.h"

namespace tessera::calibration {

// A model under construction: one float input "x", float initializers with random values,
// int64 initializers, and nodes named after their position.
class Network {
 public:
  explicit Network(std::vector<int64_t> input);
  std::string weight(std::vector<int64_t> shape);
  std::string ints(std::vector<int64_t> values);
  // Adds a node; returns its output's name.
  std::string node(const std::string& op, std::vector<std::string> inputs,
                   nlohmann::json attributes = nlohmann::json::object());
  // The model with `output` (of `shape`) its only output.
  Result<std::shared_ptr<const Model>> model(const std::string& output, std::vector<int64_t> shape,
                                             const CompileOptions& options) const;
  // The model compiled for `threads` threads with tiles of about `tile_flops`: its one
  // specialisation.
  Result<std::shared_ptr<const Specialization>> compile(const std::string& output, std::vector<int64_t> shape, Isa isa,
                                                        double tile_flops, int threads = 1) const;

 private:
  nlohmann::json doc_;
  std::vector<uint8_t> weights_;
  std::mt19937 rng_{7};
};

// Runs of `g` on one thread, traced, for about `seconds`: the mean seconds of every task (in
// task order), and the mean seconds per run the thread spent between its first tile's start
// and its last tile's end outside any tile (taking tiles, releasing their children).
struct TaskTimes {
  std::vector<double> task;
  double between = 0;
};
Result<TaskTimes> time_tasks(const tiles::TileGraph& g, double seconds);

// The median seconds of a whole run of `g` on `threads` threads (dynamic scheduler), runs
// back to back for about `seconds`.
Result<double> time_whole_runs(const tiles::TileGraph& g, int threads, double seconds);

}  // namespace tessera::calibration
