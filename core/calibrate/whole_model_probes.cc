// One-node models timed whole: the strided-copy rate of the real Transpose kernel, and what a
// run costs beyond its tiles.
#include "core/calibrate/calibrate.h"
#include "core/calibrate/network.h"
#include "core/kernels/peak/timing.h"

#include <chrono>

namespace tessera::calibration {

Result<double> measure_permute_ns(Isa isa, const Budget& budget) {
  // NCHW -> NHWC of 64 channels of 56 x 56: 800 KiB, L2-sized like the other kernel rates.
  Network net({1, 64, 56, 56});
  const std::string y = net.node("Transpose", {"x"}, {{"perm", {0, 2, 3, 1}}});
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec,
                           net.compile(y, {1, 56, 56, 64}, isa, CompileOptions().tile_flops));
  const tiles::TileGraph& g = spec->tile_graph;
  TESSERA_ASSIGN_OR_RETURN(TaskTimes times, time_tasks(g, budget.point()));
  double bytes = 0, total = 0;
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    if (g.tasks[t].cost.kind != ops::WorkKind::kPermute) continue;
    bytes += g.tasks[t].cost.bytes;
    total += times.task[t];
  }
  if (bytes == 0) return Status::error("calibrate: the permute probe compiled to no strided copy");
  return total / bytes * 1e9;
}

Result<double> measure_run_overhead(Isa isa, int threads, const Budget& budget) {
  Network net({1, 64});
  const std::string y = net.node("Relu", {"x"});
  CompileOptions options;
  options.isa = std::string(isa_name(isa));
  options.threads = threads;
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, net.model(y, {1, 64}, options));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, model->random_inputs({}, 1));
  Session session(model, Executor::create(threads));
  Status failed;
  const double seconds = kernels::quantile_seconds(budget.point(), 0.5, [&] {
    const auto start = std::chrono::steady_clock::now();
    if (auto out = session.run(inputs, {}); !out.ok()) failed = out.status();
    return kernels::seconds_since(start);
  });
  TESSERA_RETURN_IF_ERROR(failed);
  return seconds;
}

}  // namespace tessera::calibration
