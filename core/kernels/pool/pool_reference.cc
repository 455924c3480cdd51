// The pooling references: every tap of every window tested against the input and padded
// extents one by one; the oracle of pool_test.cc.
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/kernels/pool/pool.h"

namespace tessera::kernels {

namespace {

bool inside(std::ptrdiff_t position, std::ptrdiff_t begin, std::ptrdiff_t end) {
  return position >= begin && position < end;
}

// Calls visit(in_image, in_padded_extent, pointer or null) for each tap, kh-major.
template <class Visit>
void for_each_tap(const PoolGeometry& g, const float* x, size_t oh, size_t ow, size_t c, Visit visit) {
  const auto in_h = static_cast<std::ptrdiff_t>(g.in_h), in_w = static_cast<std::ptrdiff_t>(g.in_w);
  for (size_t kh = 0; kh < g.kernel_h; ++kh) {
    const auto ih =
        static_cast<std::ptrdiff_t>(oh * g.stride_h + kh * g.dilation_h) - static_cast<std::ptrdiff_t>(g.pad_top);
    for (size_t kw = 0; kw < g.kernel_w; ++kw) {
      const auto iw =
          static_cast<std::ptrdiff_t>(ow * g.stride_w + kw * g.dilation_w) - static_cast<std::ptrdiff_t>(g.pad_left);
      const bool in_image = inside(ih, 0, in_h) && inside(iw, 0, in_w);
      const bool in_padded =
          inside(ih, -static_cast<std::ptrdiff_t>(g.pad_top), in_h + static_cast<std::ptrdiff_t>(g.pad_bottom)) &&
          inside(iw, -static_cast<std::ptrdiff_t>(g.pad_left), in_w + static_cast<std::ptrdiff_t>(g.pad_right));
      visit(in_image, in_padded,
            in_image ? x + (ih * in_w + iw) * static_cast<std::ptrdiff_t>(g.channels) + c : nullptr);
    }
  }
}

}  // namespace

void max_pool_reference(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin,
                        size_t c_end) {
  for (size_t oh = oh_begin; oh < oh_end; ++oh) {
    for (size_t ow = 0; ow < g.out_w; ++ow) {
      for (size_t c = c_begin; c < c_end; ++c) {
        float max = -std::numeric_limits<float>::infinity();
        for_each_tap(g, x, oh, ow, c, [&](bool in_image, bool, const float* p) {
          if (!in_image) return;
          if (std::isnan(*p)) {
            max = *p;
          } else if (max < *p) {
            max = *p;
          }
        });
        y[(oh * g.out_w + ow) * g.channels + c] = max;
      }
    }
  }
}

void average_pool_reference(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end,
                            size_t c_begin, size_t c_end) {
  for (size_t oh = oh_begin; oh < oh_end; ++oh) {
    for (size_t ow = 0; ow < g.out_w; ++ow) {
      for (size_t c = c_begin; c < c_end; ++c) {
        float sum = 0.0f;
        size_t in_image_count = 0, padded_count = 0;
        for_each_tap(g, x, oh, ow, c, [&](bool in_image, bool in_padded, const float* p) {
          if (in_image) {
            sum += *p;
            ++in_image_count;
          }
          if (in_padded) ++padded_count;
        });
        const size_t count = g.count_include_pad ? padded_count : in_image_count;
        y[(oh * g.out_w + ow) * g.channels + c] = count == 0 ? 0.0f : sum / static_cast<float>(count);
      }
    }
  }
}

void global_average_pool_reference(size_t pixels, size_t channels, const float* x, float* y, size_t c_begin,
                                   size_t c_end) {
  for (size_t c = c_begin; c < c_end; ++c) {
    float sum = 0.0f;
    for (size_t p = 0; p < pixels; ++p) sum += x[p * channels + c];
    y[c] = pixels == 0 ? 0.0f : sum / static_cast<float>(pixels);
  }
}

}  // namespace tessera::kernels
