// The GEMM kernel list (best first) and the weight packing every GEMM kernel reads.
#include "core/kernels/gemm/gemm.h"

#include "core/base/check.h"
#include "core/kernels/gemm/gemm_ukernels.h"
#include "core/kernels/peak/peak.h"

namespace tessera::kernels {

namespace {

constexpr GemmKernel kGemmKernels[] = {
#if defined(__x86_64__)
    {"f32_gemm_14x32_avx512", Isa::kAvx512, 14, 32, f32_gemm_14x32_avx512},
    {"f32_gemm_7x32_avx512", Isa::kAvx512, 7, 32, f32_gemm_7x32_avx512},
    {"f32_gemm_14x16_avx512", Isa::kAvx512, 14, 16, f32_gemm_14x16_avx512},
    {"f32_gemm_7x16_avx512", Isa::kAvx512, 7, 16, f32_gemm_7x16_avx512},
    {"f32_gemm_7x24_avx512", Isa::kAvx512, 7, 24, f32_gemm_7x24_avx512, true},
    {"f32_gemm_6x16_avx2", Isa::kAvx2Fma, 6, 16, f32_gemm_6x16_avx2},
    {"f32_gemm_4x24_avx2", Isa::kAvx2Fma, 4, 24, f32_gemm_4x24_avx2},
#endif
#if defined(__wasm_simd128__)
    {"f32_gemm_4x8_wasm128", Isa::kWasmSimd128, 4, 8, f32_gemm_4x8_wasm128},
#endif
    {"f32_gemm_4x4_scalar", Isa::kScalar, 4, 4, f32_gemm_4x4_scalar},
};

bool suits_this_core(const GemmKernel& kernel) { return !kernel.half_width || avx512_fma_split(); }

}  // namespace

std::span<const GemmKernel> gemm_kernels() { return kGemmKernels; }

const GemmKernel& best_gemm_kernel(Isa max_isa) { return best_runnable<GemmKernel>(kGemmKernels, max_isa); }

int gemm_panel_width(Isa max_isa, size_t columns) {
  const GemmKernel& best = best_gemm_kernel(max_isa);
  const auto padded = [&](int nr) {
    const size_t width = static_cast<size_t>(nr);
    return static_cast<double>((columns + width - 1) / width * width);
  };
  int width = best.nr;
  for (const GemmKernel& kernel : kGemmKernels) {
    if (kernel.isa != best.isa) continue;
    const bool better = padded(kernel.nr) < padded(width) || (padded(kernel.nr) == padded(width) && kernel.nr > width);
    // Asked last: a half-width kernel's test measures the core, only worth it if it would win.
    if (better && suits_this_core(kernel)) width = kernel.nr;
  }
  return padded(best.nr) - padded(width) >= kNarrowPanelSaving * padded(best.nr) ? width : best.nr;
}

const GemmKernel& gemm_kernel_for(Isa max_isa, size_t columns, size_t row_stride_bytes) {
  const GemmKernel& best = best_gemm_kernel(max_isa);
  const int nr = gemm_panel_width(max_isa, columns);
  const bool aliased = row_stride_bytes % kL1SetStrideBytes == 0;
  const GemmKernel* chosen = nullptr;
  for (const GemmKernel& kernel : kGemmKernels) {
    if (kernel.isa != best.isa || kernel.nr != nr || !suits_this_core(kernel)) continue;
    if (chosen == nullptr) chosen = &kernel;  // the most rows come first
    if (aliased && chosen->mr > kL1Ways && kernel.mr <= kL1Ways) chosen = &kernel;
  }
  return *chosen;
}

size_t packed_gemm_weights_floats(int nr, size_t kc, size_t ks, size_t n) {
  const size_t panels = (n + static_cast<size_t>(nr) - 1) / static_cast<size_t>(nr);
  return packed_gemm_panel_offset(nr, kc, ks, panels);
}

void pack_gemm_weights(int nr, size_t kc, size_t ks, size_t n, const float* b, size_t b_k_stride, size_t b_n_stride,
                       const float* bias, float* packed) {
  TESSERA_CHECK(nr > 0 && nr <= 1024);
  const size_t width = static_cast<size_t>(nr);
  const size_t depth = kc * ks;
  for (size_t j0 = 0; j0 < n; j0 += width) {
    float* panel = packed + packed_gemm_panel_offset(nr, kc, ks, j0 / width);
    for (size_t j = 0; j < width; ++j) {
      panel[j] = (bias != nullptr && j0 + j < n) ? bias[j0 + j] : 0.0f;
    }
    for (size_t k = 0; k < depth; ++k) {
      float* out = panel + width * (1 + k);
      for (size_t j = 0; j < width; ++j) {
        out[j] = j0 + j < n ? b[k * b_k_stride + (j0 + j) * b_n_stride] : 0.0f;
      }
    }
  }
}

void pack_conv_weights(int nr, size_t cout, size_t cin, size_t kernel_taps, const float* w, const float* scale,
                       const float* bias, float* packed) {
  TESSERA_CHECK(nr > 0 && nr <= 1024);
  const size_t width = static_cast<size_t>(nr);
  for (size_t j0 = 0; j0 < cout; j0 += width) {
    float* panel = packed + packed_gemm_panel_offset(nr, cin, kernel_taps, j0 / width);
    for (size_t j = 0; j < width; ++j) {
      panel[j] = (bias != nullptr && j0 + j < cout) ? bias[j0 + j] : 0.0f;
    }
    for (size_t tap = 0; tap < kernel_taps; ++tap) {
      for (size_t ci = 0; ci < cin; ++ci) {
        float* out = panel + width * (1 + tap * cin + ci);
        for (size_t j = 0; j < width; ++j) {
          const size_t co = j0 + j;
          if (co >= cout) {
            out[j] = 0.0f;
          } else {
            const float weight = w[(co * cin + ci) * kernel_taps + tap];
            out[j] = scale != nullptr ? weight * scale[co] : weight;
          }
        }
      }
    }
  }
}

}  // namespace tessera::kernels
