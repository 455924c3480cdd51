// AVX2 FMA peak: 12 ymm chains (of 16 registers) cover 2 pipes x 4-cycle latency.
#include "core/kernels/peak/peak_impl.h"
#include "core/kernels/peak/peak_loops.h"
#include "core/kernels/simd/vec_avx2.h"

namespace tessera::kernels {

float f32_fma_peak_avx2(size_t iterations, double* flops) { return fma_peak_loop<VecAvx2, 12>(iterations, flops); }

}  // namespace tessera::kernels
