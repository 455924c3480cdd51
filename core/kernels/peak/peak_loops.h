// The per-ISA FMA peak loops (peak_<isa>.cc); only peak.cc names them.
#pragma once

#include <cstddef>

namespace tessera::kernels {

float f32_fma_peak_avx512(size_t iterations, double* flops);
float f32_fma_peak_avx2(size_t iterations, double* flops);
float f32_fma_peak_wasm128(size_t iterations, double* flops);
float f32_fma_peak_scalar(size_t iterations, double* flops);

}  // namespace tessera::kernels
