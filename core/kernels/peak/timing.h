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

// Times body() as one repetition of median_seconds.
template <class Body>
double median_seconds_of(double seconds, Body body) {
  body();  // warm the caches
  return median_seconds(seconds, [&] {
    const auto start = std::chrono::steady_clock::now();
    body();
    return seconds_since(start);
  });
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
