// The program, per layer v, worker d and tensor t (producer p, consumers c):
//   x[v][d] binary, sum over d of x[v][d] = 1          each layer on one worker
//   r[t][d] >= x[c][d] - x[p][d]                         d receives t (graph inputs: - 0)
//   s[t][d] >= x[p][d] - x[c][d], and >= x[p][d] for outputs: d sends t
//   u[d] >= x[v][d]                                      d is used: pays a stage's run
//   a[d] >= alive[v] x[v][d];  copies sum w[v] x[v][d] + a[d] <= memory[d]
//   load[d] = stage u[d] + sum sec[v][d] x[v][d] + sum (message + copy) r[t][d] + sum copy s[t][d]
// throughput: load[d] <= T, minimise T; latency: minimise the sum of load[d] (one input runs
// the stages in turn). The stage costs of placement.h, for any assignment.
#include "core/plan/placement_milp.h"

#include <algorithm>
#include <cmath>

#include "core/plan/stage_pricer.h"

namespace tessera::plan {

namespace {

struct Columns {
  size_t layers = 0, workers = 0, tensors = 0;
  int x(size_t v, size_t d) const { return static_cast<int>(v * workers + d); }
  int r(size_t t, size_t d) const { return static_cast<int>(layers * workers + t * workers + d); }
  int s(size_t t, size_t d) const { return static_cast<int>((layers + tensors) * workers + t * workers + d); }
  int u(size_t d) const { return static_cast<int>((layers + 2 * tensors) * workers + d); }
  int a(size_t d) const { return static_cast<int>((layers + 2 * tensors + 1) * workers + d); }
  int period() const { return static_cast<int>((layers + 2 * tensors + 2) * workers); }
  size_t count() const { return static_cast<size_t>(period()) + 1; }
};

void add_row(Milp& milp, std::vector<int> columns, std::vector<double> coefficients, char sense, double rhs) {
  milp.rows.push_back({std::move(columns), std::move(coefficients), sense, rhs});
}

Milp build(const LayerGraph& g, const PlacementOptions& options, const Columns& c) {
  const TransferCosts& transfer = options.transfer;
  const auto copy = [&](int64_t bytes) {
    return transfer.bytes_per_second > 0 ? static_cast<double>(bytes) / transfer.bytes_per_second : 0.0;
  };
  Milp milp;
  milp.columns.resize(c.count());
  for (size_t v = 0; v < c.layers; ++v)
    for (size_t d = 0; d < c.workers; ++d) milp.columns[c.x(v, d)].integer = true;
  for (size_t d = 0; d < c.workers; ++d) milp.columns[c.a(d)].upper = 1e300;
  milp.columns[c.period()] = {0, 1e300, options.objective == Objective::kThroughput ? 1.0 : 0.0, false};

  for (size_t v = 0; v < c.layers; ++v) {
    std::vector<int> cols;
    for (size_t d = 0; d < c.workers; ++d) cols.push_back(c.x(v, d));
    add_row(milp, cols, std::vector<double>(c.workers, 1.0), 'E', 1);
  }
  for (size_t d = 0; d < c.workers; ++d) {
    std::vector<int> load{c.u(d), c.period()};
    std::vector<double> load_coefficients{options.stage_seconds, -1};
    std::vector<int> memory{c.a(d)};
    std::vector<double> memory_coefficients{1};
    const int threads = options.workers[d].threads;
    for (size_t v = 0; v < c.layers; ++v) {
      const Layer& layer = g.layers[v];
      add_row(milp, {c.u(d), c.x(v, d)}, {1, -1}, 'G', 0);
      add_row(milp, {c.a(d), c.x(v, d)}, {1, -static_cast<double>(layer.alive_bytes)}, 'G', 0);
      load.push_back(c.x(v, d));
      load_coefficients.push_back(layer_seconds(layer, threads));
      memory.push_back(c.x(v, d));
      memory_coefficients.push_back(static_cast<double>(options.weight_copies * layer.weight_bytes));
    }
    for (size_t t = 0; t < c.tensors; ++t) {
      const LayerTensor& tensor = g.tensors[t];
      const bool produced = tensor.producer != kNoLayer;
      for (uint32_t consumer : tensor.consumers) {
        if (produced)
          add_row(milp, {c.r(t, d), c.x(consumer, d), c.x(tensor.producer, d)}, {1, -1, 1}, 'G', 0);
        else
          add_row(milp, {c.r(t, d), c.x(consumer, d)}, {1, -1}, 'G', 0);
        if (produced) add_row(milp, {c.s(t, d), c.x(tensor.producer, d), c.x(consumer, d)}, {1, -1, 1}, 'G', 0);
      }
      if (produced && tensor.graph_output) add_row(milp, {c.s(t, d), c.x(tensor.producer, d)}, {1, -1}, 'G', 0);
      load.push_back(c.r(t, d));
      load_coefficients.push_back(transfer.message_seconds + copy(tensor.bytes));
      load.push_back(c.s(t, d));
      load_coefficients.push_back(copy(tensor.bytes));
    }
    if (options.objective == Objective::kThroughput) {
      add_row(milp, load, load_coefficients, 'L', 0);
    } else {
      for (size_t i = 0; i < load.size(); ++i)
        if (load[i] != c.period()) milp.columns[load[i]].objective += load_coefficients[i];
    }
    if (options.workers[d].memory_bytes > 0)
      add_row(milp, memory, memory_coefficients, 'L', static_cast<double>(options.workers[d].memory_bytes));
  }
  return milp;
}

// The stages of an assignment (layer -> worker), priced as placement.h prices any stage.
Placement stages_of(const LayerGraph& g, const PlacementOptions& options, const std::vector<size_t>& worker) {
  Placement placement;
  StagePricer pricer(g, options);
  for (size_t d = 0; d < options.workers.size(); ++d) {
    std::vector<uint32_t> layers;
    for (uint32_t v = 0; v < g.layers.size(); ++v)
      if (worker[v] == d) layers.push_back(v);
    if (layers.empty()) continue;
    Stage stage = pricer.stage(
        layers, [&](uint32_t l) { return worker[l] == d; }, static_cast<uint32_t>(d), options);
    stage.layers = std::move(layers);
    placement.stages.push_back(std::move(stage));
  }
  total_stages(&placement);
  return placement;
}

// The warm start: the contiguous placement's assignment (into `worker`) and what follows
// from it.
std::vector<double> warm_start(const LayerGraph& graph, const Columns& c, const Placement& contiguous,
                               std::vector<size_t>& worker) {
  for (const Stage& stage : contiguous.stages)
    for (uint32_t v : stage.layers) worker[v] = stage.worker;
  std::vector<double> start(c.count(), 0);
  for (size_t v = 0; v < c.layers; ++v) start[c.x(v, worker[v])] = 1;
  for (size_t t = 0; t < c.tensors; ++t) {
    const LayerTensor& tensor = graph.tensors[t];
    const bool produced = tensor.producer != kNoLayer;
    for (uint32_t consumer : tensor.consumers) {
      if (!produced || worker[consumer] != worker[tensor.producer]) {
        start[c.r(t, worker[consumer])] = 1;
        if (produced) start[c.s(t, worker[tensor.producer])] = 1;
      }
    }
    if (produced && tensor.graph_output) start[c.s(t, worker[tensor.producer])] = 1;
  }
  for (size_t v = 0; v < c.layers; ++v) {
    start[c.u(worker[v])] = 1;
    start[c.a(worker[v])] = std::max(start[c.a(worker[v])], static_cast<double>(graph.layers[v].alive_bytes));
  }
  start[c.period()] = contiguous.period;
  return start;
}

}  // namespace

Result<IpPlacement> place_layers_ip(const LayerGraph& graph, const PlacementOptions& options, const MilpSolver& solver,
                                    double seconds) {
  Result<Placement> contiguous = place_layers(graph, options);
  const Columns c{graph.layers.size(), options.workers.size(), graph.tensors.size()};
  const Milp milp = build(graph, options, c);
  std::vector<size_t> worker(graph.layers.size(), 0);
  std::vector<double> start;
  if (contiguous.ok()) start = warm_start(graph, c, *contiguous, worker);

  TESSERA_ASSIGN_OR_RETURN(MilpResult solved, solver(milp, start, seconds));
  IpPlacement out;
  out.columns = milp.columns.size();
  out.rows = milp.rows.size();
  out.optimal = solved.optimal;
  // What stands when the program finds nothing better: the dynamic program's placement, or
  // its error.
  const auto fall_back = [&]() -> Result<IpPlacement> {
    if (!contiguous.ok()) return contiguous.status();
    out.placement = std::move(*contiguous);
    return out;
  };
  if (solved.values.size() != c.count()) return fall_back();
  for (size_t v = 0; v < c.layers; ++v)
    for (size_t d = 0; d < c.workers; ++d)
      if (solved.values[c.x(v, d)] > 0.5) worker[v] = d;
  Placement found = stages_of(graph, options, worker);
  for (const Stage& stage : found.stages)  // the solver's tolerances must not buy an overfull worker
    if (options.workers[stage.worker].memory_bytes > 0 &&
        stage.memory_bytes > options.workers[stage.worker].memory_bytes)
      return fall_back();
  const auto objective = [&](const Placement& p) {
    return options.objective == Objective::kThroughput ? p.period : p.latency;
  };
  if (contiguous.ok() && objective(found) >= objective(*contiguous) * (1 - 1e-9)) return fall_back();
  if (contiguous.ok()) found.coarsening = std::move(contiguous->coarsening);
  out.placement = std::move(found);
  out.improved = true;
  return out;
}

}  // namespace tessera::plan
