// Model::predict: the cost model over a specialisation, with the profile of this machine.
#include <fstream>
#include <sstream>

#include "core/calibrate/calibrate.h"
#include "core/engine/compiled_model.h"
#include "core/plan/cost_model.h"
#include "tessera/calibration.h"

namespace tessera {

Result<plan::Profile> find_profile(const std::string& given, Isa isa) {
  const std::string isa_text(isa_name(isa));
  const std::string build = calibration::build_flavor();
  std::string text = given;
  std::string source = "the given profile";
  if (text.empty()) {
    const std::string path = default_profile_path(isa_text);
    std::ifstream file(path);
    if (path.empty() || !file) return plan::uncalibrated_profile(isa_text, build);
    std::stringstream contents;
    contents << file.rdbuf();
    text = contents.str();
    source = path;
  }
  Result<plan::Profile> profile = plan::profile_from_json(text);
  if (!profile.ok()) return profile.status().with_context(source);
  TESSERA_RETURN_IF_ERROR(plan::check_profile_matches(*profile, isa_text, build).with_context(source));
  return profile;
}

Result<ModelPrediction> CompiledModel::predict(const InputDims& dims, const PredictOptions& options) const {
  if (options.threads < 1 || options.threads > 4096) return Status::error("predict: threads must be from 1 to 4096");
  if (options.scheduler == Scheduler::kShuffle)
    return Status::error("predict: the scheduler must be dynamic or barrier");
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  TESSERA_ASSIGN_OR_RETURN(plan::Profile profile, find_profile(options.profile, isa_));
  const plan::SimScheduler scheduler =
      options.scheduler == Scheduler::kBarrier ? plan::SimScheduler::kBarrier : plan::SimScheduler::kDynamic;
  const plan::Prediction p = plan::predict(s->tile_graph, profile, options.threads, scheduler);

  ModelPrediction out;
  out.calibrated = p.calibrated;
  out.profile =
      p.calibrated ? profile.isa + " " + profile.build + ", " + profile.cpu + ", " + profile.date : "uncalibrated";
  out.threads = options.threads;
  out.scheduler = options.scheduler;
  out.latency_ms = p.latency * 1e3;
  out.critical_path_ms = p.critical_path * 1e3;
  for (double idle : p.idle) out.idle_ms.push_back(idle * 1e3);
  for (size_t n = 0; n < s->tile_graph.nodes.size(); ++n) {
    const tiles::CompiledNode& node = s->tile_graph.nodes[n];
    out.nodes.push_back({node.name, node.op, p.node_seconds[n] * 1e3});
  }
  return out;
}

}  // namespace tessera
