// AVX-512 FMA peak: 24 zmm chains cover 2 pipes x 4-cycle latency with room to spare.
#include "core/kernels/peak/peak_impl.h"
#include "core/kernels/peak/peak_loops.h"
#include "core/kernels/simd/vec_avx512.h"

namespace tessera::kernels {

float f32_fma_peak_avx512(size_t iterations, double* flops) { return fma_peak_loop<VecAvx512, 24>(iterations, flops); }

}  // namespace tessera::kernels
