// Pooling kernels on one NHWC image (MaxPool, AveragePool, GlobalAveragePool): the dispatch
// list, one entry per ISA, and the scalar references they are tested against. Kernels are
// stateless and thread-safe; they never allocate and never fail.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"

namespace tessera::kernels {

// Output pixel (oh, ow) reads the taps (kh, kw) at input row ih = oh * stride_h - pad_top +
// kh * dilation_h and column iw = ow * stride_w - pad_left + kw * dilation_w. The caller
// chooses out_h / out_w (floor or ceil mode); a tap outside the input, in the padding or past
// it (ceil mode), is ignored by both pools:
//   MaxPool: the maximum over the in-image taps; NaN if any is NaN; -inf if there are none.
//   AveragePool: the sum over the in-image taps (kh-major, then kw) divided by
//     - count_include_pad == false: the number of in-image taps;
//     - count_include_pad == true: the number of taps inside the padded extent
//       [-pad_top, in_h + pad_bottom) x [-pad_left, in_w + pad_right): padding counts, the
//       positions a ceil-mode window reaches past the bottom/right padding do not (the rule
//       of onnxruntime and PyTorch);
//     and 0 when that number is 0.
// Dilation must be at least 1.
struct PoolGeometry {
  size_t in_h, in_w, channels;  // input row stride in_w * channels
  size_t out_h, out_w;          // output row stride out_w * channels
  size_t kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w;
  size_t pad_top, pad_left, pad_bottom, pad_right;
  bool count_include_pad;  // AveragePool only
};

// Writes output rows [oh_begin, oh_end) x channels [c_begin, c_end) of one image; x and y
// point at the image's first input and output element. An output element's value does not
// depend on the ranges it was computed in.
using PoolFn = void (*)(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
                        size_t c_end);

// y[c] = (sum over p < pixels of x[p * channels + c], in order of p) / pixels, for c in
// [c_begin, c_end); 0 when pixels is 0.
using GlobalAvgPoolFn = void (*)(size_t pixels, size_t channels, const float* x, float* y, size_t c_begin,
                                 size_t c_end);

struct PoolKernels {
  const char* name;  // e.g. "f32_pool_avx512"
  Isa isa;
  PoolFn max_pool;
  PoolFn average_pool;
  GlobalAvgPoolFn global_average_pool;
};

// Every compiled entry, best first (entries whose ISA this CPU lacks are included).
std::span<const PoolKernels> pool_kernels();
// The first entry whose ISA is supported and not above max_isa (the scalar entry at worst).
const PoolKernels& best_pool_kernels(Isa max_isa);

// Plain loops over every tap, in the same summation order: the fast kernels match them bit
// for bit.
void max_pool_reference(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
                        size_t c_end);
void average_pool_reference(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end,
                            size_t c_begin, size_t c_end);
void global_average_pool_reference(size_t pixels, size_t channels, const float* x, float* y, size_t c_begin,
                                   size_t c_end);

}  // namespace tessera::kernels
