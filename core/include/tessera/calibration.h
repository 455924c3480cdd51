// Machine calibration: the measured FP32 peak and what the GEMM micro-kernel reaches.
// These are the denominators of every "% of peak" Tessera reports.
#pragma once

#include <string>

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

}  // namespace tessera
