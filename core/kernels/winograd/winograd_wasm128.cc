// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms, WebAssembly SIMD128: 4 channels per step.
#include "core/kernels/simd/vec_wasm128.h"
#include "core/kernels/winograd/winograd_impl.h"
#include "core/kernels/winograd/winograd_ukernels.h"

namespace tessera::kernels {

TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f4_input_wasm128, f32_winograd_f4_output_wasm128, VecWasm128, WinogradF4)
TESSERA_WINOGRAD_TRANSFORMS(f32_winograd_f2_input_wasm128, f32_winograd_f2_output_wasm128, VecWasm128, WinogradF2)

}  // namespace tessera::kernels
