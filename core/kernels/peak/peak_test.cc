// Checks that the microbenchmarks run and report plausible numbers (no timing assertions).
#include "core/kernels/peak/peak.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace tessera::kernels {
namespace {

TEST_CASE("peak, gemm and depthwise benchmarks return positive finite rates and times for the detected ISA") {
  const Isa isa = detected_isa();
  const double peak = measure_peak_gflops(isa, 0.02);
  REQUIRE(std::isfinite(peak));
  REQUIRE(peak > 0.0);
  REQUIRE(measure_peak_gflops(Isa::kScalar, 0.01) > 0.0);

  const double gemm = measure_gemm_gflops(best_gemm_kernel(isa), 37, 45, 29, 0.02);
  REQUIRE(std::isfinite(gemm));
  REQUIRE(gemm > 0.0);

  const DwConvGeometry g{9, 9, 19, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1};
  const double dwconv = measure_dwconv_seconds(best_dwconv_kernel(isa), g, 0.02);
  REQUIRE(std::isfinite(dwconv));
  REQUIRE(dwconv > 0.0);
}

}  // namespace
}  // namespace tessera::kernels
