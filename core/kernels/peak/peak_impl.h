// The generic FMA peak loop: kChains independent accumulator chains, enough to cover the FMA
// latency times the number of FMA pipes, so throughput (not latency) bounds the loop.
#pragma once

#include <cstddef>

namespace tessera::kernels {

// Runs `iterations` x kChains vector fmas and returns their sum so the work cannot be
// discarded; *flops receives the FLOPs performed. x <- x * m + a converges to a / (1 - m) = 1,
// so no chain overflows or turns denormal.
template <class Vec, int kChains>
float fma_peak_loop(size_t iterations, double* flops) {
  using V = typename Vec::V;
  V acc[kChains];
#pragma GCC unroll 32
  for (int i = 0; i < kChains; ++i) acc[i] = Vec::broadcast(static_cast<float>(i));
  const V m = Vec::broadcast(0.999f);
  const V a = Vec::broadcast(0.001f);
  for (size_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 32
    for (int i = 0; i < kChains; ++i) acc[i] = Vec::fma(acc[i], m, a);
  }
  V sum = acc[0];
#pragma GCC unroll 32
  for (int i = 1; i < kChains; ++i) sum = Vec::add(sum, acc[i]);
  *flops = 2.0 * static_cast<double>(iterations) * kChains * Vec::kWidth;
  return Vec::reduce_add(sum);
}

}  // namespace tessera::kernels
