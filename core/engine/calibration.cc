// Calibration microbenchmarks behind the public API.
#include "tessera/calibration.h"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/base/cpu_features.h"
#include "core/calibrate/calibrate.h"
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

Result<std::string> calibrate(const CalibrateOptions& options) {
  Isa isa = detected_isa();
  if (options.isa != "auto" && !parse_isa(options.isa, &isa)) {
    return Status::error("calibrate: unknown isa \"" + options.isa + "\" (auto, avx512, avx2, scalar)");
  }
  if (options.threads < 0) return Status::error("calibrate: threads must be 0 (all cores) or more");
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  const int threads = 1;  // a build without threads runs on one core whatever the machine has
#else
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int threads = options.threads > 0 ? options.threads : std::max(cores, 1);
#endif
  TESSERA_ASSIGN_OR_RETURN(plan::Profile profile, calibration::calibrate_machine(isa, threads, {options.quick}));
  return plan::profile_to_json(profile);
}

std::string default_profile_path(const std::string& isa) {
#if defined(__EMSCRIPTEN__)
  (void)isa;
  return "";
#else
  std::string dir;
  if (const char* d = std::getenv("TESSERA_PROFILE_DIR"); d != nullptr && *d != 0) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != 0) {
    dir = std::string(x) + "/tessera";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != 0) {
    dir = std::string(h) + "/.cache/tessera";
  } else {
    return "";
  }
  return dir + "/profile-" + calibration::build_flavor() + "-" + isa + ".json";
#endif
}

}  // namespace tessera
