// Machine calibration: the measured FP32 peak and what the GEMM micro-kernel reaches (the
// denominators of every "% of peak" Tessera reports), and the profile the cost model
// predicts from (docs/cost-model.md).
#pragma once

#include <string>

#include "tessera/status.h"

namespace tessera {

struct PeakMeasurement {
  std::string isa;                // best instruction set detected here
  double one_core_gflops = 0;     // FMA throughput of one thread, GFLOP/s
  double all_threads_gflops = 0;  // sum over `threads` threads running the loop at once
  int threads = 1;
};

// Runs a register-only FMA loop (no memory traffic) on 1 thread, then on `threads` threads
// at once, for about `seconds` each.
PeakMeasurement measure_peak(int threads, double seconds);

struct GemmMeasurement {
  std::string kernel;  // micro-kernel name
  double gflops = 0;   // median, one thread, B packed, warm cache
};

// C[m x n] = A[m x k] * B through the best GEMM micro-kernel, single-threaded.
GemmMeasurement measure_gemm(int m, int n, int k, double seconds);

struct CalibrateOptions {
  std::string isa = "auto";  // kernels to measure: "auto" (the best here), "avx512", "avx2", "scalar"
  bool quick = false;        // under 10 s instead of under 2 min, with coarser GEMM curves
  int threads = 0;           // cores the shared bandwidth and hand-overs are measured on (0: all)
};

// Runs the calibration microbenchmarks of Tessera's kernels and runtime; returns the profile
// as JSON (versioned; names the CPU, ISA, build, cores and date).
Result<std::string> calibrate(const CalibrateOptions& options);

// Where `tessera calibrate` keeps the profile of this build for `isa`, and where predictions
// look for it: $TESSERA_PROFILE_DIR, else $XDG_CACHE_HOME/tessera, else ~/.cache/tessera;
// the file is profile-<build>-<isa>.json. Empty in a build without a file system.
std::string default_profile_path(const std::string& isa);

}  // namespace tessera
