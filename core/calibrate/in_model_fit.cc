// The in-model fit: calibration networks timed tile by tile against the rates' predictions.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/calibrate/calibrate.h"
#include "core/calibrate/line_fit.h"
#include "core/calibrate/network.h"
#include "core/plan/cost_model.h"

namespace tessera::calibration {

namespace {

// A network and its output, ready to compile.
struct Probe {
  Network net;
  std::string output;
  std::vector<int64_t> shape;
};

// A little of every kind of work, in shapes no benchmarked model has: a 3-channel stem,
// convolutions (3x3, 1x1, depthwise 3x3 stride 2 and 5x5 stride 1), a pool, unary and binary ops (one broadcast), a
// concatenation, a permute, a matmul and its rows; activations from 150 KiB to 3 MiB.
Probe mixed_network() {
  Network net({1, 3, 160, 160});
  std::string x = net.node("Conv", {"x", net.weight({20, 3, 3, 3}), net.weight({20})},
                           {{"pads", {1, 1, 1, 1}}, {"strides", {2, 2}}});
  x = net.node("Conv", {x, net.weight({40, 20, 3, 3}), net.weight({40})}, {{"pads", {1, 1, 1, 1}}});
  x = net.node("Relu", {x});
  x = net.node("Conv", {x, net.weight({120, 40, 1, 1})});
  x = net.node("Conv", {x, net.weight({120, 1, 3, 3})}, {{"group", 120}, {"pads", {1, 1, 1, 1}}, {"strides", {2, 2}}});
  x = net.node("Conv", {x, net.weight({120, 1, 5, 5})}, {{"group", 120}, {"pads", {2, 2, 2, 2}}});
  const std::string gate = net.node("Sigmoid", {net.node("GlobalAveragePool", {x})});
  x = net.node("Mul", {x, gate});
  x = net.node("Conv", {x, net.weight({48, 120, 1, 1})});
  x = net.node("Conv", {x, net.weight({48, 48, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  x = net.node("Concat", {x, net.node("Conv", {x, net.weight({16, 48, 1, 1})})}, {{"axis", 1}});
  x = net.node("Conv", {x, net.weight({40, 64, 1, 1})});
  const std::string pooled =
      net.node("MaxPool", {x}, {{"kernel_shape", {3, 3}}, {"strides", {2, 2}}, {"pads", {1, 1, 1, 1}}});
  x = net.node("Add", {pooled, net.node("Tanh", {pooled})});
  x = net.node("Reshape", {x, net.ints({1, 40, 400})});
  x = net.node("Transpose", {x}, {{"perm", {0, 2, 1}}});
  x = net.node("MatMul", {x, net.weight({40, 160})});
  x = net.node("LayerNormalization", {x, net.weight({160}), net.weight({160})}, {{"axis", -1}});
  x = net.node("Softmax", {x}, {{"axis", -1}});
  return {std::move(net), x, {1, 400, 160}};
}

// A residual bottleneck with weights of a few MiB: wide 1x1 and 3x3 GEMMs, a residual add.
Probe bottleneck_network() {
  Network net({1, 192, 36, 36});
  std::string x = net.node("Relu", {net.node("Conv", {"x", net.weight({48, 192, 1, 1})})});
  x = net.node("Relu", {net.node("Conv", {x, net.weight({48, 48, 3, 3})}, {{"pads", {1, 1, 1, 1}}})});
  x = net.node("Conv", {x, net.weight({192, 48, 1, 1})});
  x = net.node("Relu", {net.node("Add", {x, "x"})});
  x = net.node("Conv", {x, net.weight({384, 192, 3, 3})}, {{"pads", {1, 1, 1, 1}}, {"strides", {2, 2}}});
  return {std::move(net), x, {1, 384, 18, 18}};
}

// An attention block of 96 tokens, 6 heads of 64: projections, batched matmuls, softmax,
// a GELU feed-forward, residuals and layer norms.
Probe attention_network() {
  Network net({1, 96, 384});
  const auto heads = [&](const std::string& t, std::vector<int64_t> perm) {
    return net.node("Transpose", {net.node("Reshape", {t, net.ints({1, 96, 6, 64})})}, {{"perm", perm}});
  };
  const std::string q = heads(net.node("MatMul", {"x", net.weight({384, 384})}), {0, 2, 1, 3});
  const std::string k = heads(net.node("MatMul", {"x", net.weight({384, 384})}), {0, 2, 3, 1});
  const std::string v = heads(net.node("MatMul", {"x", net.weight({384, 384})}), {0, 2, 1, 3});
  const std::string p = net.node("Softmax", {net.node("MatMul", {q, k})}, {{"axis", -1}});
  std::string c = net.node("Transpose", {net.node("MatMul", {p, v})}, {{"perm", {0, 2, 1, 3}}});
  c = net.node("Reshape", {c, net.ints({1, 96, 384})});
  std::string y = net.node("Add", {net.node("MatMul", {c, net.weight({384, 384})}), "x"});
  y = net.node("LayerNormalization", {y, net.weight({384}), net.weight({384})}, {{"axis", -1}});
  std::string f = net.node("Gelu", {net.node("MatMul", {y, net.weight({384, 1536})})});
  f = net.node("Add", {net.node("MatMul", {f, net.weight({1536, 384})}), y});
  f = net.node("LayerNormalization", {f, net.weight({384}), net.weight({384})}, {{"axis", -1}});
  return {std::move(net), f, {1, 96, 384}};
}

// Blocks of a small classifier (PP-OCR cls's shapes: activations of 144-288 KiB): 1x1
// expansions, depthwise 3x3 and 5x5, squeeze-excitation and residual adds. Its tiles take a
// few microseconds, where a tile that reads what another core made pays most next to its
// work: without it, the remote-input fit read 0.3-5 us in three calibrations in a row.
Probe small_network() {
  Network net({1, 16, 24, 96});
  std::string x = "x";
  for (const int64_t k : {3, 5, 3}) {
    const int64_t pad = k / 2;
    std::string y = net.node("Relu", {net.node("Conv", {x, net.weight({32, 16, 1, 1})})});
    y = net.node("Conv", {y, net.weight({32, 1, k, k})}, {{"group", 32}, {"pads", {pad, pad, pad, pad}}});
    std::string gate = net.node("Conv", {net.node("GlobalAveragePool", {y}), net.weight({8, 32, 1, 1})});
    gate = net.node("HardSigmoid", {net.node("Conv", {net.node("Relu", {gate}), net.weight({32, 8, 1, 1})})});
    y = net.node("Mul", {y, gate});
    x = net.node("Add", {net.node("Conv", {y, net.weight({16, 32, 1, 1})}), x});
  }
  return {std::move(net), x, {1, 16, 24, 96}};
}

// The networks quick mode fits on, and the full mode's.
std::vector<Probe> calibration_networks(const Budget& budget) {
  std::vector<Probe> probes;
  probes.push_back(mixed_network());
  if (!budget.quick) {
    probes.push_back(bottleneck_network());
    probes.push_back(attention_network());
    probes.push_back(small_network());
  }
  return probes;
}

}  // namespace

Result<InModelFit> fit_in_model(const plan::Profile& profile, Isa isa, const Budget& budget) {
  const std::vector<Probe> probes = calibration_networks(budget);
  // Per kind, every tile, over three tilings of each network: small tiles to large.
  std::map<std::string, std::vector<FitSample>> samples;
  double between = 0, edges = 0, tasks = 0;
  const plan::KernelBlocks blocks(profile);
  plan::Profile rates = profile;  // the rates alone, what the fit scales
  rates.in_model.clear();
  for (const Probe& probe : probes) {
    for (double tile_flops : {2e5, 2e6, 2e7}) {
      TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec,
                               probe.net.compile(probe.output, probe.shape, isa, tile_flops));
      const tiles::TileGraph& g = spec->tile_graph;
      TESSERA_ASSIGN_OR_RETURN(TaskTimes measured, time_tasks(g, budget.point()));
      // As the run met them: on one thread, depth-first, some inputs still in cache.
      std::vector<double> predicted = plan::predict_task_seconds(g, rates, 1);
      const plan::SimResult run = plan::simulate(plan::sim_tasks(g, predicted, rates, 1),
                                                 {1, plan::SimScheduler::kDynamic, plan::sim_costs(g, rates)});
      for (size_t t = 0; t < g.tasks.size(); ++t) predicted[t] += run.locality[t];
      for (size_t t = 0; t < g.tasks.size(); ++t) {
        samples[plan::fit_class_name(g.tasks[t].cost)].push_back(
            {predicted[t], plan::gemm_tap_blocks(blocks, g.tasks[t].cost), measured.task[t]});
      }
      between += measured.between;
      edges += static_cast<double>(g.data_edges + g.reuse_edges);
      tasks += static_cast<double>(g.tasks.size());
    }
  }
  InModelFit fit;
  for (const auto& [kind, points] : samples) fit.kinds[kind] = fit_line(points);
  // Real tiles cost the executor more than the empty ones of measure_executor: their task
  // records, children and kernels are not all in cache.
  fit.task = std::max(profile.executor.task, (between - edges * profile.executor.edge) / std::max(1.0, tasks));
  return fit;
}

Result<double> fit_remote_input(const plan::Profile& profile, Isa isa, const Budget& budget) {
  if (profile.cores < 2) return 0.0;
  // Each network, with small tiles and large, compiled for one thread and for every core:
  // the speed-up measured between the two, and the tile graphs the simulator predicts it from.
  // Fitting the speed-up, not the latency on every core, leaves to the other rates what one
  // thread already mispredicts: this cost is only what a second core loses.
  struct Run {
    std::shared_ptr<const Specialization> one, all;
    double predicted_one = 0;  // seconds on one thread, no fixed cost per run
    double measured_speedup = 0;
  };
  std::vector<Run> runs;
  for (const Probe& probe : calibration_networks(budget)) {
    for (double tile_flops : {2e5, 2e6}) {
      Run run;
      TESSERA_ASSIGN_OR_RETURN(run.one, probe.net.compile(probe.output, probe.shape, isa, tile_flops, 1));
      TESSERA_ASSIGN_OR_RETURN(run.all, probe.net.compile(probe.output, probe.shape, isa, tile_flops, profile.cores));
      TESSERA_ASSIGN_OR_RETURN(double one, time_whole_runs(run.one->tile_graph, 1, budget.point()));
      TESSERA_ASSIGN_OR_RETURN(double all, time_whole_runs(run.all->tile_graph, profile.cores, budget.point()));
      run.predicted_one =
          plan::predict(run.one->tile_graph, profile, 1, plan::SimScheduler::kDynamic).latency - profile.executor.run;
      run.measured_speedup = one / all;
      runs.push_back(std::move(run));
    }
  }
  // The (lower) median relative error of the predicted speed-ups with `seconds` per remote input
  // (the executor runs here without the public API's fixed cost per run, which predictions
  // include). The median: a burst of contention on a shared host spoils a run or two.
  plan::Profile trial = profile;
  const auto error = [&](double seconds) {
    trial.executor.remote_input = seconds;
    std::vector<double> errors;
    for (const Run& run : runs) {
      const double all =
          plan::predict(run.all->tile_graph, trial, profile.cores, plan::SimScheduler::kDynamic).latency -
          profile.executor.run_all;
      const double error = run.predicted_one / all / run.measured_speedup - 1;
      if (std::isfinite(error)) errors.push_back(error);
    }
    if (errors.empty()) return 0.0;
    const auto median = errors.begin() + static_cast<std::ptrdiff_t>((errors.size() - 1) / 2);
    std::nth_element(errors.begin(), median, errors.end());
    return *median;
  };
  // Predicted speed-ups only fall as that cost grows: bisect for the one that leaves no
  // median error.
  if (error(0) <= 0) return 0.0;
  double low = 0, high = 1e-6;
  while (error(high) > 0 && high < 1e-3) high *= 2;
  for (int i = 0; i < 40; ++i) {
    const double mid = (low + high) / 2;
    (error(mid) > 0 ? low : high) = mid;
  }
  return high;
}

}  // namespace tessera::calibration
