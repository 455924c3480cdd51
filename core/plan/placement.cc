// The dynamic program over ideals: best[w][I] is the cheapest way to run the layers of ideal I
// on workers 0..w, the last stage being I minus a smaller ideal. Ideals come by size, so every
// smaller ideal is final before a larger one is reached.
#include "core/plan/placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/plan/layer_ideals.h"
#include "core/plan/stage_pricer.h"

namespace tessera::plan {

bool parse_objective(const std::string& text, Objective* objective) {
  if (text == "latency")
    *objective = Objective::kLatency;
  else if (text == "throughput")
    *objective = Objective::kThroughput;
  else
    return false;
  return true;
}

const char* objective_name(Objective objective) { return objective == Objective::kLatency ? "latency" : "throughput"; }

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Membership in the stage between two nested ideals.
auto in_difference(const LayerSet& upper, const LayerSet& lower) {
  return [&upper, &lower](uint32_t l) { return upper.contains(l) && !lower.contains(l); };
}

// A partial placement's value: the objective, then the other one, then fewer stages.
struct Value {
  double primary = kInfinity;
  double secondary = kInfinity;
  size_t stages = 0;

  bool better_than(const Value& other) const {
    auto differ = [](double a, double b) {
      return std::isinf(a) || std::isinf(b) ? a != b : std::fabs(a - b) > 1e-12 * std::max(std::fabs(a), std::fabs(b));
    };
    if (differ(primary, other.primary)) return primary < other.primary;
    if (differ(secondary, other.secondary)) return secondary < other.secondary;
    return stages < other.stages;
  }
};

Value extend(const Value& before, double stage_seconds, Objective objective) {
  if (objective == Objective::kLatency)
    return {before.primary + stage_seconds, std::max(before.secondary, stage_seconds), before.stages + 1};
  return {std::max(before.primary, stage_seconds), before.secondary + stage_seconds, before.stages + 1};
}

std::string size_text(int64_t bytes) {
  char text[32];
  if (bytes >= (1 << 20))
    std::snprintf(text, sizeof(text), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  else
    std::snprintf(text, sizeof(text), "%.1f KiB", static_cast<double>(bytes) / 1024);
  return text;
}

Status no_fit(const LayerGraph& graph, const PlacementOptions& options) {
  int64_t largest_budget = 0;
  for (const Worker& w : options.workers)
    largest_budget = w.memory_bytes == 0 ? INT64_MAX : std::max(largest_budget, w.memory_bytes);
  for (const Layer& layer : graph.layers) {
    const int64_t needs = options.weight_copies * layer.weight_bytes + layer.alive_bytes;
    if (needs > largest_budget)
      return Status::error("placement: layer '" + layer.name + "' alone needs " + size_text(needs) + " (weights " +
                           (options.weight_copies > 1 ? std::to_string(options.weight_copies) + " x " : "") +
                           size_text(layer.weight_bytes) + ", activations " + size_text(layer.alive_bytes) +
                           "), more than any worker's " + size_text(largest_budget));
  }
  int64_t weights = 0;
  for (const Layer& layer : graph.layers) weights += layer.weight_bytes;
  return Status::error("placement: no contiguous split over " + std::to_string(options.workers.size()) +
                       " workers fits their memory (the weights alone take " + size_text(weights) + ")");
}

}  // namespace

Result<Placement> place_layers(const LayerGraph& graph, const PlacementOptions& options) {
  TESSERA_RETURN_IF_ERROR(check_layer_graph(graph));
  if (options.workers.empty()) return Status::error("placement: no workers");
  for (const Worker& w : options.workers)
    if (w.threads < 1 || w.memory_bytes < 0)
      return Status::error("placement: a worker needs a thread and no negative memory");
  if (options.weight_copies < 1) return Status::error("placement: workers hold at least one copy of their weights");

  Placement placement;
  placement.coarsening = coarsen_layers(graph, options.max_ideals);
  const LayerGraph& coarse = placement.coarsening.graph;
  const size_t n = coarse.layers.size();
  const std::vector<LayerSet>& ideals = placement.coarsening.ideals;
  std::vector<size_t> sizes(ideals.size());
  for (size_t i = 0; i < ideals.size(); ++i) sizes[i] = ideals[i].size();

  // Per ideal, its layers' time on each worker and their weights: a stage's are differences.
  const size_t workers = options.workers.size();
  std::vector<std::vector<double>> compute(ideals.size(), std::vector<double>(workers, 0));
  std::vector<int64_t> weights(ideals.size(), 0);
  int64_t largest_budget = 0;
  for (const Worker& w : options.workers)
    largest_budget = w.memory_bytes == 0 ? INT64_MAX : std::max(largest_budget, w.memory_bytes);
  for (size_t i = 0; i < ideals.size(); ++i)
    for (uint32_t l = 0; l < n; ++l) {
      if (!ideals[i].contains(l)) continue;
      weights[i] += coarse.layers[l].weight_bytes;
      for (size_t w = 0; w < workers; ++w) compute[i][w] += layer_seconds(coarse.layers[l], options.workers[w].threads);
    }

  std::vector<std::vector<Value>> best(workers, std::vector<Value>(ideals.size()));
  // The ideal before the last stage (SIZE_MAX: worker w stays unused, see best[w - 1]).
  std::vector<std::vector<size_t>> before(workers, std::vector<size_t>(ideals.size(), SIZE_MAX));
  StagePricer pricer(coarse, options);
  Stage stage;
  for (size_t w = 0; w < workers; ++w) best[w][0] = Value{0, 0, 0};
  for (size_t i = 1; i < ideals.size(); ++i) {
    for (size_t j = i; j-- > 0;) {  // short last stages first: good bounds early
      if (sizes[j] >= sizes[i] || !ideals[j].subset_of(ideals[i])) continue;
      if (options.weight_copies * (weights[i] - weights[j]) > largest_budget) continue;
      // Transfers only add: a stage that cannot win on its compute alone is not priced.
      const auto start = [&](size_t w) { return w == 0 ? (j == 0 ? best[0][0] : Value{}) : best[w - 1][j]; };
      const auto seconds = [&](size_t w) { return options.stage_seconds + compute[i][w] - compute[j][w]; };
      bool may_win = false;
      for (size_t w = 0; w < workers && !may_win; ++w)
        may_win =
            !std::isinf(start(w).primary) && extend(start(w), seconds(w), options.objective).better_than(best[w][i]);
      if (!may_win) continue;
      pricer.price(ideals[i].minus(ideals[j]), in_difference(ideals[i], ideals[j]), &stage);
      for (size_t w = 0; w < workers; ++w) {
        const Worker& worker = options.workers[w];
        if (worker.memory_bytes != 0 && stage.memory_bytes > worker.memory_bytes) continue;
        if (std::isinf(start(w).primary)) continue;
        const Value value = extend(start(w), seconds(w) + stage.transfer_seconds, options.objective);
        if (value.better_than(best[w][i])) {
          best[w][i] = value;
          before[w][i] = j;
        }
      }
    }
    for (size_t w = 1; w < workers; ++w)  // as good on fewer workers: leave this one unused
      if (!best[w][i].better_than(best[w - 1][i])) {
        best[w][i] = best[w - 1][i];
        before[w][i] = SIZE_MAX;
      }
  }
  const size_t all = ideals.size() - 1;
  if (std::isinf(best[workers - 1][all].primary)) return no_fit(coarse, options);

  // Read the stages back, last worker first.
  size_t i = all;
  for (size_t w = workers; w-- > 0 && i != 0;) {
    const size_t j = before[w][i];
    if (j == SIZE_MAX) continue;
    const std::vector<uint32_t> coarse_layers = ideals[i].minus(ideals[j]);
    Stage s = pricer.stage(coarse_layers, in_difference(ideals[i], ideals[j]), static_cast<uint32_t>(w), options);
    for (uint32_t l : coarse_layers)
      s.layers.insert(s.layers.end(), coarse.layers[l].members.begin(), coarse.layers[l].members.end());
    placement.stages.push_back(std::move(s));
    i = j;
  }
  std::reverse(placement.stages.begin(), placement.stages.end());
  total_stages(&placement);
  return placement;
}

}  // namespace tessera::plan
