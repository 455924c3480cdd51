// The GEMM micro-kernel's rate over tile shapes: the curve the cost model interpolates.
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
  const auto padded = [](int64_t x, int multiple) {
    return static_cast<double>((x + multiple - 1) / multiple * multiple) / static_cast<double>(x);
  };
  for (int64_t rows : curve.rows) {
    for (int64_t columns : curve.columns) {
      for (int64_t depth : curve.depths) {
        const double real =
            kernels::measure_gemm_gflops(kernel, static_cast<size_t>(rows), static_cast<size_t>(columns),
                                         static_cast<size_t>(depth), budget.point() / 4);
        curve.gflops.push_back(real * padded(rows, kernel.mr) * padded(columns, kernel.nr));
      }
    }
  }
  return curve;
}

}  // namespace tessera::calibration
