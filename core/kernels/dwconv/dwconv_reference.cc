// Plain-loop depthwise convolution reference.
#include "core/kernels/dwconv/dwconv_reference.h"

namespace tessera::kernels {

void reference_dwconv(const DwConvGeometry& g, const float* input, const float* packed_w, const float* bias,
                      float* output, size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end,
                      const float* residual, const MinMax& clamp) {
  for (size_t oh = oh_begin; oh < oh_end; ++oh) {
    for (size_t ow = 0; ow < g.out_w; ++ow) {
      for (size_t c = c_begin; c < c_end; ++c) {
        double acc = bias[c];
        for (size_t kh = 0; kh < g.kernel_h; ++kh) {
          // Unsigned wrap-around makes rows above the image compare as >= in_h.
          const size_t ih = oh * g.stride_h + kh * g.dilation_h - g.pad_top;
          if (ih >= g.in_h) continue;
          for (size_t kw = 0; kw < g.kernel_w; ++kw) {
            const size_t iw = ow * g.stride_w + kw * g.dilation_w - g.pad_left;
            if (iw >= g.in_w) continue;
            acc += static_cast<double>(input[(ih * g.in_w + iw) * g.channels + c]) *
                   packed_w[(kh * g.kernel_w + kw) * g.channels + c];
          }
        }
        const size_t o = (oh * g.out_w + ow) * g.channels + c;
        if (residual != nullptr) acc += residual[o];
        float y = static_cast<float>(acc);
        if (y < clamp.min) y = clamp.min;  // comparisons with NaN are false: NaN propagates
        if (y > clamp.max) y = clamp.max;
        output[o] = y;
      }
    }
  }
}

}  // namespace tessera::kernels
