// The Winograd transform list (best first) and the weight transform and packing.
#include "core/kernels/winograd/winograd.h"

#include <algorithm>
#include <iterator>

#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd_matrices.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

namespace {

constexpr WinogradKernels kWinogradKernels[] = {
#if defined(__x86_64__)
    {"f32_winograd_f4x4_3x3_avx512", Isa::kAvx512, kWinogradF4, f32_winograd_f4_input_avx512,
     f32_winograd_f4_output_avx512},
    {"f32_winograd_f2x2_3x3_avx512", Isa::kAvx512, kWinogradF2, f32_winograd_f2_input_avx512,
     f32_winograd_f2_output_avx512},
    {"f32_winograd_f4x4_3x3_avx2", Isa::kAvx2Fma, kWinogradF4, f32_winograd_f4_input_avx2, f32_winograd_f4_output_avx2},
    {"f32_winograd_f2x2_3x3_avx2", Isa::kAvx2Fma, kWinogradF2, f32_winograd_f2_input_avx2, f32_winograd_f2_output_avx2},
#endif
#if defined(__wasm_simd128__)
    {"f32_winograd_f4x4_3x3_wasm128", Isa::kWasmSimd128, kWinogradF4, f32_winograd_f4_input_wasm128,
     f32_winograd_f4_output_wasm128},
    {"f32_winograd_f2x2_3x3_wasm128", Isa::kWasmSimd128, kWinogradF2, f32_winograd_f2_input_wasm128,
     f32_winograd_f2_output_wasm128},
#endif
    {"f32_winograd_f4x4_3x3_scalar", Isa::kScalar, kWinogradF4, f32_winograd_f4_input_scalar,
     f32_winograd_f4_output_scalar},
    {"f32_winograd_f2x2_3x3_scalar", Isa::kScalar, kWinogradF2, f32_winograd_f2_input_scalar,
     f32_winograd_f2_output_scalar},
};

}  // namespace

std::span<const WinogradKernels> winograd_kernels() { return kWinogradKernels; }

const WinogradKernels& best_winograd_kernels(Isa max_isa, WinogradTile tile) {
  const WinogradKernels* scalar = nullptr;  // runs everywhere
  for (const WinogradKernels& kernels : kWinogradKernels) {
    if (kernels.tile != tile) continue;
    if (isa_supported(kernels.isa) && static_cast<int>(kernels.isa) <= static_cast<int>(max_isa)) return kernels;
    if (kernels.isa == Isa::kScalar) scalar = &kernels;
  }
  return *scalar;
}

size_t packed_winograd_weights_floats(WinogradTile tile, int nr, size_t cin, size_t cout) {
  return static_cast<size_t>(tile.points()) * packed_gemm_weights_floats(nr, cin, 1, cout);
}

size_t winograd_row_floats(size_t channels) {
  size_t row = (channels + 15) / 16 * 16;
  if (sizeof(float) * row % kL1SetStrideBytes == 0) row += 16;
  return row;
}

void pack_winograd_weights(WinogradTile tile, int nr, size_t cout, size_t cin, const float* w, const float* scale,
                           float* packed) {
  const int n = tile.input();
  const size_t point_floats = packed_gemm_weights_floats(nr, cin, 1, cout);
  std::fill_n(packed, tile.points() * point_floats, 0.0f);  // zero biases and padded columns
  for (size_t oc = 0; oc < cout; ++oc) {
    const size_t panel = packed_gemm_panel_offset(nr, cin, 1, oc / nr) + nr + oc % nr;
    for (size_t ic = 0; ic < cin; ++ic) {
      const float* filter = w + (oc * cin + ic) * 9;
      float g[9];  // as the convolution computes with it
      for (int k = 0; k < 9; ++k) g[k] = scale != nullptr ? filter[k] * scale[oc] : filter[k];
      double gt[kWinogradF4.input()][3];  // G g
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < 3; ++j) {
          gt[i][j] = 0;
          for (int k = 0; k < 3; ++k) gt[i][j] += winograd::g(tile, i, k) * g[k * 3 + j];
        }
      }
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          double u = 0;  // (G g G^T)[i][j]
          for (int k = 0; k < 3; ++k) u += gt[i][k] * winograd::g(tile, j, k);
          packed[(i * n + j) * point_floats + panel + ic * nr] = static_cast<float>(u);
        }
      }
    }
  }
}

}  // namespace tessera::kernels
