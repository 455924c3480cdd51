// JSON exports of the public API: the compiled model (inspect), predictions, plan and placement
// reports and the tile timeline (Chrome / Perfetto trace).
#include <nlohmann/json.hpp>

#include "tessera/engine.h"

namespace tessera {

std::string model_info_json(const ModelInfo& info) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodeInfo& n : info.nodes) {
    nodes.push_back({{"name", n.name},
                     {"op", n.op},
                     {"kernel", n.kernel},
                     {"fused", n.fused},
                     {"fused_nodes", n.fused_nodes},
                     {"shape", n.shape},
                     {"layout", n.layout},
                     {"grid", n.grid},
                     {"tiles", n.tiles},
                     {"in_edges", n.in_edges},
                     {"flops", n.flops}});
  }
  auto tensors = [](const std::vector<Tensor>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const Tensor& t : list) out.push_back({{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"dims", t.dims}});
    return out;
  };
  const nlohmann::json root = {{"name", info.name},
                               {"inputs", tensors(info.inputs)},
                               {"outputs", tensors(info.outputs)},
                               {"nodes", nodes},
                               {"flops", info.flops},
                               {"tiles", info.tiles},
                               {"data_edges", info.data_edges},
                               {"reuse_edges", info.reuse_edges},
                               {"critical_path_flops", info.critical_path_flops},
                               {"critical_path_tiles", info.critical_path_tiles},
                               {"arena_bytes", info.arena_bytes},
                               {"tensor_bytes", info.tensor_bytes},
                               {"weight_bytes", info.weight_bytes},
                               {"isa", info.isa},
                               {"planner", info.planner},
                               {"compile_ms", info.compile_ms}};
  return root.dump(2);
}

std::string model_signature_json(const Model& model) {
  auto values = [](const std::vector<ValueSpec>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const ValueSpec& v : list) {
      nlohmann::json dims = nlohmann::json::array();
      for (const Dim& d : v.dims) dims.push_back(d.is_symbol() ? nlohmann::json(d.symbol) : nlohmann::json(d.size));
      out.push_back({{"name", v.name}, {"dtype", dtype_name(v.dtype)}, {"dims", dims}});
    }
    return out;
  };
  return nlohmann::json{
      {"name", model.name()}, {"inputs", values(model.inputs())}, {"outputs", values(model.outputs())}}
      .dump();
}

std::string model_prediction_json(const ModelPrediction& p) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodePrediction& n : p.nodes) nodes.push_back({{"name", n.name}, {"op", n.op}, {"ms", n.ms}});
  const nlohmann::json root = {{"calibrated", p.calibrated}, {"profile", p.profile},
                               {"threads", p.threads},       {"scheduler", scheduler_name(p.scheduler)},
                               {"latency_ms", p.latency_ms}, {"critical_path_ms", p.critical_path_ms},
                               {"idle_ms", p.idle_ms},       {"nodes", nodes}};
  return root.dump();
}

std::string chrome_trace_json(const ModelInfo& info, const std::vector<TileEvent>& events) {
  nlohmann::json trace = nlohmann::json::array();
  uint32_t threads = 0;
  for (const TileEvent& e : events) {
    const NodeInfo& node = info.nodes[e.node];
    threads = std::max(threads, e.thread + 1);
    trace.push_back({{"name", node.name},
                     {"cat", node.op},
                     {"ph", "X"},
                     {"pid", 1},
                     {"tid", e.thread},
                     {"ts", static_cast<double>(e.start_ns) / 1000.0},
                     {"dur", static_cast<double>(e.end_ns - e.start_ns) / 1000.0},
                     {"args", {{"tile", e.tile}, {"op", node.op}, {"kernel", node.kernel}}}});
  }
  for (uint32_t t = 0; t < threads; ++t) {
    trace.push_back({{"name", "thread_name"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"tid", t},
                     {"args", {{"name", "executor " + std::to_string(t)}}}});
  }
  nlohmann::json root = {{"traceEvents", trace}, {"displayTimeUnit", "ms"}, {"otherData", {{"model", info.name}}}};
  return root.dump();
}

std::string plan_report_json(const PlanReport& report) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodePlan& n : report.nodes) {
    nodes.push_back({{"name", n.name},
                     {"op", n.op},
                     {"grid", n.grid},
                     {"default_grid", n.default_grid},
                     {"algorithm", n.algorithm},
                     {"predicted_ms", n.predicted_ms},
                     {"default_ms", n.default_ms}});
  }
  const nlohmann::json root = {{"planner", report.planner},
                               {"searched", report.searched},
                               {"kept_default", report.kept_default},
                               {"calibrated", report.calibrated},
                               {"threads", report.threads},
                               {"search_path", report.search_path},
                               {"configurations", report.configurations},
                               {"nodes_eliminated", report.nodes_eliminated},
                               {"edges_eliminated", report.edges_eliminated},
                               {"core_nodes", report.core_nodes},
                               {"planning_ms", report.planning_ms},
                               {"predicted_ms", report.predicted_ms},
                               {"default_predicted_ms", report.default_predicted_ms},
                               {"exposure_ms", report.exposure_ms},
                               {"default_exposure_ms", report.default_exposure_ms},
                               {"reuse_memory", report.reuse_memory},
                               {"no_reuse_predicted_ms", report.no_reuse_predicted_ms},
                               {"nodes", nodes}};
  return root.dump(2);
}

std::string placement_report_json(const PlacementReport& report) {
  nlohmann::json stages = nlohmann::json::array();
  for (const StagePlan& s : report.stages) {
    stages.push_back({{"worker", s.worker},
                      {"threads", s.threads},
                      {"nodes", s.nodes},
                      {"compute_ms", s.compute_ms},
                      {"transfer_ms", s.transfer_ms},
                      {"weight_bytes", s.weight_bytes},
                      {"memory_bytes", s.memory_bytes},
                      {"bytes_in", s.bytes_in},
                      {"bytes_out", s.bytes_out}});
  }
  return nlohmann::json{{"calibrated", report.calibrated},
                        {"transfer_calibrated", report.transfer_calibrated},
                        {"objective", report.objective},
                        {"workers", report.workers},
                        {"threads_per_worker", report.threads_per_worker},
                        {"worker_memory", report.worker_memory},
                        {"latency_ms", report.latency_ms},
                        {"period_ms", report.period_ms},
                        {"single_ms", report.single_ms},
                        {"replicas_period_ms", report.replicas_period_ms},
                        {"choice", report.choice},
                        {"split_nodes", report.split_nodes},
                        {"ip_ran", report.ip_ran},
                        {"ip_optimal", report.ip_optimal},
                        {"contiguous", report.contiguous},
                        {"ip_columns", report.ip_columns},
                        {"ip_rows", report.ip_rows},
                        {"coarsening", report.coarsening},
                        {"layers", report.layers},
                        {"ideals", report.ideals},
                        {"planning_ms", report.planning_ms},
                        {"stages", stages}}
      .dump(2);
}

std::string staged_model_json(const StagedModel& staged) {
  nlohmann::json stages = nlohmann::json::array();
  for (const StageModel& s : staged.stages) {
    nlohmann::json weights = nlohmann::json::array();
    for (const WeightExtent& e : s.weights) weights.push_back({e.offset, e.bytes, e.stride, e.count, e.at});
    stages.push_back({{"worker", s.worker},
                      {"threads", s.threads},
                      {"json", s.json},
                      {"weights", weights},
                      {"weight_bytes", s.weight_bytes},
                      {"inputs", s.inputs},
                      {"outputs", s.outputs}});
  }
  return nlohmann::json{{"placement", nlohmann::json::parse(placement_report_json(staged.placement))},
                        {"stages", stages}}
      .dump();
}

}  // namespace tessera
