// Throughput of the row kernels in elements per nanosecond, one thread, for attention-sized
// softmax rows and BERT-sized layer-norm rows: `rows_benchmark`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "core/kernels/rows/rows.h"

namespace {

using tessera::isa_supported;
using namespace tessera::kernels;

template <class Run>
double elements_per_ns(size_t elements, Run run) {
  using Clock = std::chrono::steady_clock;
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    size_t reps = 0;
    const Clock::time_point start = Clock::now();
    double ns = 0;
    do {
      run();
      ++reps;
      ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    } while (ns < 4e7);
    best = std::max(best, static_cast<double>(reps * elements) / ns);
  }
  return best;
}

}  // namespace

int main() {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-6.0f, 6.0f);
  constexpr size_t kRows = 64;
  for (size_t n : {128, 384, 768}) {
    std::vector<float> x(kRows * n), y(kRows * n), scale(n, 1.1f), bias(n, 0.1f);
    for (float& v : x) v = dist(rng);
    for (const RowKernels& k : row_kernels()) {
      if (!isa_supported(k.isa)) continue;
      const double softmax = elements_per_ns(x.size(), [&] { k.softmax(kRows, n, x.data(), n, y.data(), n); });
      const double layer_norm = elements_per_ns(
          x.size(), [&] { k.layer_norm(kRows, n, x.data(), n, scale.data(), bias.data(), 1e-5f, y.data(), n); });
      std::printf("%-18s %zu rows x %-4zu softmax %.2f  layer_norm %.2f  (elements/ns)\n", k.name, kRows, n, softmax,
                  layer_norm);
    }
  }
  return 0;
}
