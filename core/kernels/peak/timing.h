// Timing loops shared by the microbenchmarks that calibrate the cost model.
#pragma once

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "core/base/aligned_buffer.h"

namespace tessera::kernels {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Calls run() (one timed repetition, returning its seconds) at least 5 times and until
// `seconds` have passed; returns the repetition time at `quantile` (0.5: the median).
template <class Run>
double quantile_seconds(double seconds, double quantile, Run run) {
  std::vector<double> times;
  const auto start = std::chrono::steady_clock::now();
  while (times.size() < 5 || (seconds_since(start) < seconds && times.size() < 100000)) {
    times.push_back(run());
  }
  const auto at = times.begin() + static_cast<std::ptrdiff_t>(quantile * static_cast<double>(times.size() - 1));
  std::nth_element(times.begin(), at, times.end());
  return *at;
}

template <class Run>
double median_seconds(double seconds, Run run) {
  return quantile_seconds(seconds, 0.5, run);
}

// The median seconds of one body() call. Each timed repetition makes as many calls as take
// at least 1 ms: browsers coarsen their clocks to 5 us (100 us without cross-origin
// isolation), so a single short call would measure 0.
template <class Body>
double median_seconds_of(double seconds, Body body) {
  body();  // warm the caches
  int calls = 1;
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) body();
    if (seconds_since(start) >= 1e-3 || calls >= (1 << 20)) break;
    calls *= 2;
  }
  return median_seconds(seconds,
                        [&] {
                          const auto start = std::chrono::steady_clock::now();
                          for (int i = 0; i < calls; ++i) body();
                          return seconds_since(start);
                        }) /
         calls;
}

// `floats` floats uniform in [-1, 1); empty when the allocation fails.
inline AlignedBuffer random_buffer(size_t floats, std::mt19937& rng) {
  AlignedBuffer buffer = AlignedBuffer::allocate(floats * sizeof(float));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  if (buffer.data() != nullptr) {
    for (size_t i = 0; i < floats; ++i) buffer.as<float>()[i] = dist(rng);
  }
  return buffer;
}

}  // namespace tessera::kernels
