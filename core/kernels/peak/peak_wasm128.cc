// WebAssembly SIMD128 peak: 12 chains of separate mul + add (SIMD128 has no fma).
#include "core/kernels/peak/peak_impl.h"
#include "core/kernels/peak/peak_loops.h"
#include "core/kernels/simd/vec_wasm128.h"

namespace tessera::kernels {

float f32_fma_peak_wasm128(size_t iterations, double* flops) {
  return fma_peak_loop<VecWasm128, 12>(iterations, flops);
}

}  // namespace tessera::kernels
