// The GEMM micro-kernel's rate over tile shapes: the curve the cost model interpolates.
#include <algorithm>
#include <cmath>

#include "core/calibrate/calibrate.h"
#include "core/kernels/peak/peak.h"

namespace tessera::calibration {

plan::GemmCurve measure_gemm_curve(Isa isa, const Budget& budget) {
  const kernels::GemmKernel& kernel = kernels::best_gemm_kernel(isa);
  plan::GemmCurve curve;
  curve.kernel = kernel.name;
  curve.mr = kernel.mr;
  curve.nr = kernel.nr;
  // From a single row (a matrix-vector tile) to blocks past the caches' reach.
  if (budget.quick) {
    curve.rows = {1, 4, 16, 64, 256};
    curve.columns = {16, 64, 256};
    curve.depths = {16, 256, 4096};
  } else {
    curve.rows = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    curve.columns = {8, 16, 32, 64, 128, 256, 512};
    curve.depths = {8, 32, 128, 512, 2048, 8192};
  }
  // Padded work over real work: columns to whole panels, rows as the kernel computes them.
  const auto padded_columns = [&](int64_t x) {
    return static_cast<double>((x + kernel.nr - 1) / kernel.nr * kernel.nr) / static_cast<double>(x);
  };
  const auto padded_rows = [&](int64_t x) {
    return static_cast<double>(kernels::gemm_rows_computed(static_cast<size_t>(x), static_cast<size_t>(kernel.mr))) /
           static_cast<double>(x);
  };
  // Two passes over the grid, each point's faster one kept: on a shared host a burst of
  // contention slows the points it meets (a run of them read 87-93 instead of 111-117 GFLOP/s
  // on the Zen 4 host), and it rarely meets a point in both passes, half a grid apart.
  const size_t points = curve.rows.size() * curve.columns.size() * curve.depths.size();
  curve.gflops.assign(points, 0.0);
  for (int pass = 0; pass < 2; ++pass) {
    size_t i = 0;
    for (int64_t rows : curve.rows) {
      for (int64_t columns : curve.columns) {
        for (int64_t depth : curve.depths) {
          const double real =
              kernels::measure_gemm_gflops(kernel, static_cast<size_t>(rows), static_cast<size_t>(columns),
                                           static_cast<size_t>(depth), budget.point() / 8);
          curve.gflops[i] = std::max(curve.gflops[i], real * padded_rows(rows) * padded_columns(columns));
          ++i;
        }
      }
    }
  }
  return curve;
}

}  // namespace tessera::calibration
