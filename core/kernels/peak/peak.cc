// Timing loops around the per-ISA FMA peak and the GEMM / dwconv kernels.
#include "core/kernels/peak/peak.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>

#include "core/base/aligned_buffer.h"
#include "core/kernels/gemm/gemm_driver.h"
#include "core/kernels/peak/peak_loops.h"
#include "core/kernels/peak/timing.h"

namespace tessera::kernels {

namespace {

using PeakLoop = float (*)(size_t iterations, double* flops);

PeakLoop peak_loop(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::kAvx512: return f32_fma_peak_avx512;
    case Isa::kAvx2Fma: return f32_fma_peak_avx2;
#endif
#if defined(__wasm_simd128__)
    case Isa::kWasmSimd128: return f32_fma_peak_wasm128;
#endif
    case Isa::kScalar: return f32_fma_peak_scalar;
    default: return nullptr;
  }
}

}  // namespace

double measure_peak_gflops(Isa isa, double seconds) {
  const PeakLoop loop = peak_loop(isa);
  if (loop == nullptr || !isa_supported(isa)) return 0.0;
  // Grow one repetition to ~1/50 of the budget, then keep the best one: short repetitions
  // make it likely that some run undisturbed on a shared (e.g. SMT sibling or VM) core.
  volatile float sink = 0.0f;
  double flops = 0.0;
  size_t iterations = 1024;
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + loop(iterations, &flops);
    if (seconds_since(start) >= seconds / 50 || iterations > std::numeric_limits<size_t>::max() / 4) break;
    iterations *= 2;
  }
  double best = 0.0;
  const auto budget_start = std::chrono::steady_clock::now();
  for (int rep = 0; rep < 5 || seconds_since(budget_start) < seconds; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + loop(iterations, &flops);
    best = std::max(best, flops / seconds_since(start) * 1e-9);
  }
  return best;
}

bool avx512_fma_split() {
  static const bool split = [] {
    if (!isa_supported(Isa::kAvx512)) return false;
    constexpr double kSeconds = 0.0005;  // ~2 ms in all: the two widths differ by 1x or 2x, not by a few %
    double wide = 0, narrow = 0;
    for (int round = 0; round < 2; ++round) {  // alternated: a disturbance hits both widths alike
      wide = std::max(wide, measure_peak_gflops(Isa::kAvx512, kSeconds));
      narrow = std::max(narrow, measure_peak_gflops(Isa::kAvx2Fma, kSeconds));
    }
    return wide < 1.5 * narrow;
  }();
  return split;
}

double measure_gemm_gflops(const GemmKernel& kernel, size_t m, size_t n, size_t kdim, double seconds) {
  if (!isa_supported(kernel.isa) || m == 0 || n == 0 || kdim == 0) return 0.0;
  // Rows of A that would share an L1 set are moved off it: models run such rows on another
  // kernel (gemm_kernel_for), so this is the rate of rows that do not.
  const size_t lda = kdim * sizeof(float) % kL1SetStrideBytes == 0 ? kdim + 16 : kdim;
  std::mt19937 rng(1);
  const AlignedBuffer a = random_buffer(m * lda, rng);
  const AlignedBuffer b = random_buffer(kdim * n, rng);
  AlignedBuffer packed = AlignedBuffer::allocate(packed_gemm_weights_floats(kernel.nr, kdim, 1, n) * sizeof(float));
  AlignedBuffer c = AlignedBuffer::allocate(m * n * sizeof(float));
  if (a.data() == nullptr || b.data() == nullptr || packed.data() == nullptr || c.data() == nullptr) {
    return 0.0;
  }
  pack_gemm_weights(kernel.nr, kdim, 1, n, b.as<float>(), n, 1, nullptr, packed.as<float>());
  const double t = median_seconds_of(seconds, [&] {
    gemm_f32(kernel, m, n, kdim, a.as<float>(), lda, packed.as<float>(), c.as<float>(), n, MinMax{});
  });
  return 2.0 * static_cast<double>(m) * n * kdim / t * 1e-9;
}

double measure_dwconv_seconds(const DwConvKernel& kernel, const DwConvGeometry& g, double seconds) {
  if (!isa_supported(kernel.isa) || g.channels == 0) return 0.0;
  std::mt19937 rng(1);
  const AlignedBuffer input = random_buffer(g.in_h * g.in_w * g.channels, rng);
  const AlignedBuffer weights = random_buffer(g.kernel_h * g.kernel_w * g.channels, rng);
  const AlignedBuffer bias = random_buffer(g.channels, rng);
  AlignedBuffer output = AlignedBuffer::allocate(g.out_h * g.out_w * g.channels * sizeof(float));
  if (input.data() == nullptr || weights.data() == nullptr || bias.data() == nullptr || output.data() == nullptr) {
    return 0.0;
  }
  return median_seconds_of(seconds, [&] {
    kernel.fn(g, input.as<float>(), weights.as<float>(), bias.as<float>(), output.as<float>(), 0, g.out_h, 0,
              g.channels, nullptr, MinMax{});
  });
}

}  // namespace tessera::kernels
