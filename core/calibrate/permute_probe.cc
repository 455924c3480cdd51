// The strided-copy rate, timed on the real Transpose kernel.
#include "core/calibrate/calibrate.h"
#include "core/calibrate/network.h"

namespace tessera::calibration {

Result<double> measure_permute_ns(Isa isa, const Budget& budget) {
  // NCHW -> NHWC of 64 channels of 56 x 56: 800 KiB, L2-sized like the other kernel rates.
  Network net({1, 64, 56, 56});
  const std::string y = net.node("Transpose", {"x"}, {{"perm", {0, 2, 3, 1}}});
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec,
                           net.compile(y, {1, 56, 56, 64}, isa, CompileOptions().tile_flops));
  const tiles::TileGraph& g = spec->tile_graph;
  TESSERA_ASSIGN_OR_RETURN(std::vector<double> seconds, time_tasks(g, budget.point()));
  double bytes = 0, total = 0;
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    if (g.tasks[t].cost.kind != ops::WorkKind::kPermute) continue;
    bytes += g.tasks[t].cost.bytes;
    total += seconds[t];
  }
  if (bytes == 0) return Status::error("calibrate: the permute probe compiled to no strided copy");
  return total / bytes * 1e9;
}

}  // namespace tessera::calibration
