// Microbenchmarks that calibrate the cost model: the FMA peak of one core per ISA and the
// rates the GEMM, depthwise, elementwise, row, pool and Winograd kernels reach on given
// shapes. Single-threaded; each call allocates its own buffers and is safe to call from any
// one thread at a time.
#pragma once

#include <cstddef>

#include "core/base/cpu_features.h"
#include "core/kernels/dwconv/dwconv.h"
#include "core/kernels/elementwise/elementwise.h"
#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels {

// FP32 FMA throughput of one core with `isa` (2 FLOPs per lane per fma), in GFLOP/s: the best
// of several repetitions spread over about `seconds`. 0 when `isa` is not compiled in or
// not supported here.
double measure_peak_gflops(Isa isa, double seconds);

// True when this core's 512-bit FMAs give less than 1.5x the FLOPs of its 256-bit ones (Zen 4
// runs them as two 256-bit halves; Zen 5 and most Xeons do not), so kernels of 256-bit vectors
// lose nothing there to narrower vectors. Measured once per process (about 2 ms, the
// best of short repetitions of each); false without AVX-512.
bool avx512_fma_split();

// Median GFLOP/s (2 * m * n * kdim per run) of gemm_f32 with `kernel` on random data (rows of A
// never a multiple of 4 KiB apart: gemm.h), B packed once and the cache warm, over about
// `seconds`. 0 when the kernel's ISA is not supported or the buffers cannot be allocated.
double measure_gemm_gflops(const GemmKernel& kernel, size_t m, size_t n, size_t kdim, double seconds);

// Median seconds of one whole-image call of `kernel` on random data, the cache warm; 0 as
// above.
double measure_dwconv_seconds(const DwConvKernel& kernel, const DwConvGeometry& g, double seconds);

// Nanoseconds per element of the best kernels up to `isa` on data resident in the L2 cache
// (median over about `seconds`); 0 when `isa` is not supported here.
double measure_unary_ns(Isa isa, UnaryOp op, double seconds);    // y = op(x)
double measure_binary_ns(Isa isa, double seconds);               // y = a + b
double measure_softmax_ns(Isa isa, size_t row, double seconds);  // rows of `row` floats
double measure_layer_norm_ns(Isa isa, size_t row, double seconds);
// Nanoseconds per window tap of a 3x3 stride-2 MaxPool.
double measure_pool_tap_ns(Isa isa, double seconds);

// Nanoseconds per tile and channel of the Winograd transforms of `tile` up to `isa`, as a
// convolution runs them: the input transform of a row block of tiles over 64 channels of an
// NHWC image, the output transform of one GEMM panel's channels (with bias and clamp). Data
// in L1 and L2; zeros when `isa` is not supported here.
struct WinogradTransformRates {
  double input_ns = 0;
  double output_ns = 0;
};
WinogradTransformRates measure_winograd_transforms(Isa isa, WinogradTile tile, double seconds);

}  // namespace tessera::kernels
