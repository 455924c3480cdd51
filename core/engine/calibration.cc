// Calibration microbenchmarks behind the public API.
#include "tessera/calibration.h"

#include <thread>
#include <vector>

#include "core/base/cpu_features.h"
#include "core/kernels/peak/peak.h"

namespace tessera {

PeakMeasurement measure_peak(int threads, double seconds) {
  PeakMeasurement m;
  const Isa isa = detected_isa();
  m.isa = std::string(isa_name(isa));
  m.threads = threads < 1 ? 1 : threads;
  m.one_core_gflops = kernels::measure_peak_gflops(isa, seconds);
  std::vector<double> each(m.threads, 0.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < m.threads; ++t) {
    pool.emplace_back([&, t] { each[t] = kernels::measure_peak_gflops(isa, seconds); });
  }
  for (std::thread& t : pool) t.join();
  for (double g : each) m.all_threads_gflops += g;
  return m;
}

GemmMeasurement measure_gemm(int m, int n, int k, double seconds) {
  const kernels::GemmKernel& kernel = kernels::best_gemm_kernel(detected_isa());
  return {kernel.name, kernels::measure_gemm_gflops(kernel, m, n, k, seconds)};
}

}  // namespace tessera
