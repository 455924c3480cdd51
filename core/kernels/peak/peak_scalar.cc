// Portable peak: 12 scalar chains of mul + add (the compiler may pack them into SSE lanes).
#include "core/kernels/peak/peak_impl.h"
#include "core/kernels/peak/peak_loops.h"
#include "core/kernels/simd/vec_scalar.h"

namespace tessera::kernels {

float f32_fma_peak_scalar(size_t iterations, double* flops) { return fma_peak_loop<VecScalar, 12>(iterations, flops); }

}  // namespace tessera::kernels
