// The depthwise convolution kernel list (best first) and its weight packing.
#include "core/kernels/dwconv/dwconv.h"

#include "core/kernels/dwconv/dwconv_ukernels.h"

namespace tessera::kernels {

namespace {

constexpr DwConvKernel kDwConvKernels[] = {
#if defined(__x86_64__)
    {"f32_dwconv_8x16_avx512", Isa::kAvx512, f32_dwconv_8x16_avx512, 16},
    {"f32_dwconv_8x8_avx2", Isa::kAvx2Fma, f32_dwconv_8x8_avx2, 8},
#endif
#if defined(__wasm_simd128__)
    {"f32_dwconv_4x4_wasm128", Isa::kWasmSimd128, f32_dwconv_4x4_wasm128, 4},
#endif
    {"f32_dwconv_4x1_scalar", Isa::kScalar, f32_dwconv_4x1_scalar, 1},
};

}  // namespace

std::span<const DwConvKernel> dwconv_kernels() { return kDwConvKernels; }

const DwConvKernel& best_dwconv_kernel(Isa max_isa) { return best_runnable<DwConvKernel>(kDwConvKernels, max_isa); }

void pack_dwconv_weights(size_t channels, size_t kernel_taps, const float* w, const float* scale, float* packed) {
  for (size_t tap = 0; tap < kernel_taps; ++tap) {
    for (size_t c = 0; c < channels; ++c) {
      const float weight = w[c * kernel_taps + tap];
      packed[tap * channels + c] = scale != nullptr ? weight * scale[c] : weight;
    }
  }
}

}  // namespace tessera::kernels
