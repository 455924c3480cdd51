// Depthwise 2-D convolution (channel multiplier 1) in NHWC: the kernel list, the weight
// packing, and the contract every dwconv kernel (dwconv_impl.h, one file per ISA) follows.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"
#include "core/kernels/activation.h"

namespace tessera::kernels {

struct DwConvGeometry {         // one image, NHWC, channel multiplier 1
  size_t in_h, in_w, channels;  // input row stride = in_w * channels
  size_t out_h, out_w;          // output row stride = out_w * channels
  size_t kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
};

// Computes output rows [oh_begin, oh_end) x channels [c_begin, c_end) of one image:
//   y = clamp(bias[c] + sum_{kh,kw inside the image} x[ih][iw][c] * w[kh*kernel_w+kw][c]
//             (+ residual)),
// with ih = oh * stride_h - pad_top + kh * dilation_h (likewise iw). packed_w is
// [kernel_h*kernel_w][channels]; residual (may be null) has the output's layout. Taps that fall
// in the padding are skipped, the rest accumulate in kh-major order, one fma each, so an
// element's value does not depend on the row or channel range requested: any split of the
// output gives bitwise identical results. Nothing outside the requested region is written.
using DwConvFn = void (*)(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias,
                          float* output, size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end,
                          const float* residual, const MinMax& clamp);

struct DwConvKernel {
  const char* name;  // e.g. "f32_dwconv_8x16_avx512": 8 output pixels x 16 channels per step
  Isa isa;
  DwConvFn fn;
  size_t lanes;  // channels per vector: a tile's channels run in whole vectors
};

// Every compiled dwconv kernel, best first (check isa_supported before calling one).
std::span<const DwConvKernel> dwconv_kernels();

// The first kernel of dwconv_kernels() whose ISA is supported and not above `max_isa`.
const DwConvKernel& best_dwconv_kernel(Isa max_isa);

// w is [C, 1, KH, KW] (ONNX); packed is [KH * KW][C], kernel_taps = KH * KW; each weight
// times its channel's `scale` (null: none).
void pack_dwconv_weights(size_t channels, size_t kernel_taps, const float* w, const float* scale, float* packed);

}  // namespace tessera::kernels
