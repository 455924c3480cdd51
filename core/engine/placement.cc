// Model::place: the specialisation's compiled nodes as a layer graph (each node's predicted
// time on 1..T threads, its weights, the activations alive at it, the tensors between nodes),
// split by the placement planner and re-verified by its checker.
#include <algorithm>
#include <chrono>

#include "core/engine/compiled_model.h"
#include "core/graph/passes.h"
#include "core/plan/cost_model.h"
#include "core/plan/placement.h"
#include "core/plan/placement_check.h"
#include "core/plan/placement_milp.h"

namespace tessera {

namespace {

// Each compiled node's span on `threads` threads when nodes run one at a time (the barrier
// policy): the simulator's time from its first tile's start to its last tile's end, which
// adds up along a stage. `busy` threads share the memory bandwidth meanwhile (all of them when
// every worker works at once, as in a stream).
std::vector<double> node_spans(const tiles::TileGraph& tg, const plan::Profile& profile, int threads, int busy) {
  const std::vector<double> seconds = plan::predict_task_seconds(tg, profile, busy);
  const plan::SimResult sim = plan::simulate(plan::sim_tasks(tg, seconds, profile, busy),
                                             {threads, plan::SimScheduler::kBarrier, plan::sim_costs(tg, profile)});
  std::vector<double> spans(tg.nodes.size(), 0);
  for (size_t n = 0; n < tg.nodes.size(); ++n) {
    const tiles::CompiledNode& node = tg.nodes[n];
    if (node.task_count == 0) continue;
    double start = sim.events[node.first_task].start, end = 0;
    for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t) {
      start = std::min(start, sim.events[t].start);
      end = std::max(end, sim.events[t].end);
    }
    spans[n] = end - start;
  }
  return spans;
}

// Layers timed on 1..max_threads threads; with `all_busy`, every thread of all the workers
// shares the bandwidth, else only those of the layer's own worker.
plan::LayerGraph layer_graph_of(const graph::Graph& g, const tiles::TileGraph& tg, const plan::Profile& profile,
                                int max_threads, bool all_busy) {
  plan::LayerGraph layers;
  std::vector<uint32_t> layer_of(g.nodes.size(), plan::kNoLayer);
  for (size_t n = 0, c = 0; n < g.nodes.size(); ++n)
    if (tiles::owns_tiles(g, n)) layer_of[n] = static_cast<uint32_t>(c++);
  for (const tiles::CompiledNode& node : tg.nodes) {
    plan::Layer layer;
    layer.name = node.name;
    layer.weight_bytes = node.weight_bytes;
    layers.layers.push_back(std::move(layer));
  }
  for (int t = 1; t <= max_threads; ++t) {
    const std::vector<double> spans = node_spans(tg, profile, t, all_busy ? max_threads : t);
    for (size_t n = 0; n < spans.size(); ++n) layers.layers[n].seconds.push_back(spans[n]);
  }

  // One tensor per storage a node reads (views read their base's bytes).
  std::vector<int> tensor_of(g.tensors.size(), -1);
  auto tensor_for = [&](int storage) -> plan::LayerTensor& {
    if (tensor_of[storage] < 0) {
      const graph::Tensor& t = g.tensors[storage];
      tensor_of[storage] = static_cast<int>(layers.tensors.size());
      layers.tensors.push_back({t.name, t.producer < 0 ? plan::kNoLayer : layer_of[t.producer], {}, t.bytes(), false});
    }
    return layers.tensors[tensor_of[storage]];
  };
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (layer_of[n] == plan::kNoLayer) continue;
    for (int input : g.nodes[n].inputs) {
      if (input < 0 || g.tensors[input].is_constant()) continue;
      plan::LayerTensor& tensor = tensor_for(g.storage_of(input));
      if (tensor.consumers.empty() || tensor.consumers.back() != layer_of[n]) tensor.consumers.push_back(layer_of[n]);
    }
  }
  for (int output : g.outputs)
    if (!g.tensors[output].is_constant()) tensor_for(g.storage_of(output)).graph_output = true;

  // Activations alive at each layer: a tensor from its producer (the caller's: from the start)
  // to its last reader (an output: to the end).
  const size_t count = layers.layers.size();
  std::vector<int64_t> delta(count + 1, 0);
  for (const plan::LayerTensor& t : layers.tensors) {
    const size_t from = t.producer == plan::kNoLayer ? 0 : t.producer;
    size_t to = t.graph_output ? count - 1 : from;
    for (uint32_t c : t.consumers) to = std::max<size_t>(to, c);
    delta[from] += t.bytes;
    delta[to + 1] -= t.bytes;
  }
  int64_t alive = 0;
  for (size_t l = 0; l < count; ++l) layers.layers[l].alive_bytes = alive += delta[l];
  return layers;
}

// The simplest of the three that is predicted best for the objective (0: does not fit).
std::string choose(const PlacementReport& r, plan::Objective objective) {
  const bool latency = objective == plan::Objective::kLatency;
  std::vector<std::pair<double, const char*>> options;
  if (r.single_ms > 0) options.emplace_back(r.single_ms, "single");
  if (!latency && r.replicas_period_ms > 0) options.emplace_back(r.replicas_period_ms, "replicas");
  options.emplace_back(latency ? r.latency_ms : r.period_ms, "stages");
  const auto* best = &options.front();
  for (const auto& option : options)
    if (option.first < best->first) best = &option;
  return best->second;
}

}  // namespace

Result<PlacementReport> CompiledModel::place(const InputDims& dims, const PlaceOptions& options) const {
  TESSERA_ASSIGN_OR_RETURN(Placed placed, place_graph(dims, options));
  return std::move(placed.report);
}

Result<Placed> CompiledModel::place_graph(const InputDims& dims, const PlaceOptions& options) const {
  if (options.workers < 1 || options.workers > 256) return Status::error("place: workers must be from 1 to 256");
  if (options.threads < 1 || options.threads > 4096) return Status::error("place: threads must be from 1 to 4096");
  if (options.worker_memory < 0) return Status::error("place: worker memory must not be negative");
  if (options.weight_copies < 1 || options.worker_reserve < 0)
    return Status::error("place: workers hold at least one copy of their weights and reserve no negative memory");
  // What a worker has for its stage's weights and activations.
  const int64_t stage_memory = options.worker_memory - options.worker_reserve;
  if (options.worker_memory > 0 && stage_memory <= 0)
    return Status::error("place: a worker's memory (" + std::to_string(options.worker_memory) +
                         " bytes) is no more than what it takes before loading a model (" +
                         std::to_string(options.worker_reserve) + " bytes)");
  plan::Objective objective;
  if (!plan::parse_objective(options.objective, &objective))
    return Status::error("place: the objective must be latency or throughput, not \"" + options.objective + "\"");
  if (options.ip_seconds > 0 && !options.milp_solver)
    return Status::error("place: an integer program needs a solver (PlaceOptions::milp_solver)");
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  TESSERA_ASSIGN_OR_RETURN(plan::Profile profile, find_profile(options.profile, isa_));
  if (s->tile_graph.nodes.empty()) return Status::error("place: the model computes nothing to place");
  const auto start = std::chrono::steady_clock::now();

  // A layer whose weights' copies take more than half a worker's memory is split into column
  // pieces.
  Placed placed;
  PlacedGraph& graph = placed.graph;
  graph.spec = s;
  if (options.worker_memory > 0) {
    const int64_t piece_bytes = stage_memory / (2 * options.weight_copies);
    if (const int wide = graph::count_wide_nodes(s->graph, piece_bytes); wide > 0 && release_weights_) {
      return Status::error("place: splitting " + std::to_string(wide) +
                           " layers too large for a worker reads the model's weights, which were freed once "
                           "compiled: load it with CompileOptions::keep_weights");
    }
    auto split = std::make_unique<graph::Graph>(s->graph.borrowing_copy());
    if (const int count = graph::split_wide_nodes(*split, piece_bytes); count > 0) {
      TESSERA_ASSIGN_OR_RETURN(graph.split_tiles, compile_stage(*split, std::max(1, options.threads / options.workers),
                                                                /*bind_kernels=*/false));
      graph.split = std::move(split);
      placed.report.split_nodes = static_cast<uint64_t>(count);
    }
  }

  PlacementReport& report = placed.report;
  report.calibrated = profile.calibrated;
  report.transfer_calibrated = profile.calibrated && profile.transfer.copy_gbps > 0;
  report.objective = plan::objective_name(objective);
  report.workers = options.workers;
  report.threads_per_worker = std::max(1, options.threads / options.workers);
  report.worker_memory = options.worker_memory;

  // A stream keeps every worker busy at once; one input at a time, only the stage running.
  const plan::LayerGraph layers =
      layer_graph_of(graph.graph(), graph.tiles(), profile, options.threads, objective == plan::Objective::kThroughput);
  plan::PlacementOptions plan_options;
  plan_options.objective = objective;
  plan_options.workers.assign(options.workers, {report.threads_per_worker, std::max<int64_t>(0, stage_memory)});
  plan_options.weight_copies = options.weight_copies;
  // Profiles made before transfers were measured: a hand-over like the executor's, copies at
  // the rate of the last memory level.
  const plan::TransferRates rates = profile.transfer.copy_gbps > 0
                                        ? profile.transfer
                                        : plan::TransferRates{profile.executor.wake, profile.memory.back().copy_gbps};
  plan_options.transfer = {rates.message, rates.copy_gbps * 1e9};
  auto run_seconds = [&](int threads) { return threads > 1 ? profile.executor.run_all : profile.executor.run; };
  plan_options.stage_seconds = run_seconds(report.threads_per_worker);
  plan::Placement placement;
  if (options.ip_seconds > 0) {
    TESSERA_ASSIGN_OR_RETURN(plan::IpPlacement ip,
                             plan::place_layers_ip(layers, plan_options, options.milp_solver, options.ip_seconds));
    report.ip_ran = true;
    report.ip_optimal = ip.optimal;
    report.contiguous = plan::is_contiguous(layers, ip.placement);
    report.ip_columns = ip.columns;
    report.ip_rows = ip.rows;
    placement = std::move(ip.placement);
  } else {
    TESSERA_ASSIGN_OR_RETURN(placement, plan::place_layers(layers, plan_options));
  }
  TESSERA_RETURN_IF_ERROR(plan::check_placement(layers, plan_options, placement, report.contiguous));

  // The alternatives: the whole model on one worker with every thread, or on one per worker.
  auto whole_model = [&](int threads) {
    plan::PlacementOptions one = plan_options;
    one.workers = {{threads, std::max<int64_t>(0, stage_memory)}};
    one.stage_seconds = run_seconds(threads);
    Result<plan::Placement> alone = plan::place_layers(layers, one);
    return alone.ok() ? alone->latency : 0.0;
  };
  report.single_ms = whole_model(options.threads) * 1e3;
  report.replicas_period_ms = whole_model(report.threads_per_worker) * 1e3 / options.workers;

  for (const plan::Stage& stage : placement.stages) {
    StagePlan out;
    out.worker = static_cast<int>(stage.worker);
    out.threads = plan_options.workers[stage.worker].threads;
    for (uint32_t l : stage.layers) out.nodes.push_back(layers.layers[l].name);
    out.compute_ms = stage.compute_seconds * 1e3;
    out.transfer_ms = stage.transfer_seconds * 1e3;
    out.weight_bytes = stage.weight_bytes;
    out.memory_bytes = stage.memory_bytes;
    out.bytes_in = stage.bytes_in;
    out.bytes_out = stage.bytes_out;
    report.stages.push_back(std::move(out));
  }
  report.latency_ms = placement.latency * 1e3;
  report.period_ms = placement.period * 1e3;
  report.choice = choose(report, objective);
  report.coarsening = placement.coarsening.ideals.empty()
                          ? "none: no contiguous split fits, the integer program placed the layers"
                          : plan::describe(placement.coarsening);
  report.layers = layers.layers.size();
  report.ideals = placement.coarsening.ideals.size();
  report.planning_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return placed;
}

}  // namespace tessera
