// Every pooling entry against the reference bit for bit (padding, stride 2, dilation 2,
// ceil-mode windows, asymmetric pads, count_include_pad both ways, random geometries), the
// ONNX rules on hand-computed cases, and bitwise independence from the output split.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/pool/pool.h"

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 0x9001;
constexpr float kSentinel = 1234.5f;

std::vector<const PoolKernels*> supported_kernels() {
  std::vector<const PoolKernels*> kernels;
  for (const PoolKernels& k : pool_kernels()) {
    if (isa_supported(k.isa)) kernels.push_back(&k);
  }
  return kernels;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool both_nan = std::isnan(a[i]) && std::isnan(b[i]);
    if (!both_nan && std::bit_cast<uint32_t>(a[i]) != std::bit_cast<uint32_t>(b[i])) return false;
  }
  return true;
}

// Output size along one axis as the caller computes it; in ceil mode the last window must
// start inside the input or the leading padding (the PyTorch / onnxruntime rule).
size_t output_size(size_t in, size_t kernel, size_t stride, size_t dilation, size_t pad_before, size_t pad_after,
                   bool ceil_mode) {
  const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(in + pad_before + pad_after) -
                              static_cast<std::ptrdiff_t>(dilation * (kernel - 1) + 1);
  if (span < 0) return 0;
  size_t out = static_cast<size_t>(span) / stride + 1;
  if (ceil_mode) {
    out = (static_cast<size_t>(span) + stride - 1) / stride + 1;
    if ((out - 1) * stride >= in + pad_before) --out;
  }
  return out;
}

struct Shape {
  size_t in_h, in_w, kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w;
  size_t pad_top, pad_left, pad_bottom, pad_right;
  bool ceil_mode;
};

PoolGeometry geometry(const Shape& s, size_t channels, bool count_include_pad) {
  return {s.in_h,
          s.in_w,
          channels,
          output_size(s.in_h, s.kernel_h, s.stride_h, s.dilation_h, s.pad_top, s.pad_bottom, s.ceil_mode),
          output_size(s.in_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_left, s.pad_right, s.ceil_mode),
          s.kernel_h,
          s.kernel_w,
          s.stride_h,
          s.stride_w,
          s.dilation_h,
          s.dilation_w,
          s.pad_top,
          s.pad_left,
          s.pad_bottom,
          s.pad_right,
          count_include_pad};
}

std::string describe(const PoolGeometry& g) {
  std::ostringstream s;
  s << "in " << g.in_h << "x" << g.in_w << "x" << g.channels << " out " << g.out_h << "x" << g.out_w << " kernel "
    << g.kernel_h << "x" << g.kernel_w << " stride " << g.stride_h << "x" << g.stride_w << " dilation " << g.dilation_h
    << "x" << g.dilation_w << " pads t" << g.pad_top << " l" << g.pad_left << " b" << g.pad_bottom << " r"
    << g.pad_right << " include_pad " << g.count_include_pad << " seed " << kSeed;
  return s.str();
}

// Fixed shapes covering each feature, then random ones.
std::vector<Shape> test_shapes(std::mt19937& rng) {
  std::vector<Shape> shapes = {
      {5, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false},  // "same" 3x3
      {8, 8, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, false},  // 2x2 stride 2
      {9, 7, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, false},  // ResNet stem pool
      {9, 9, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, false},  // dilation 2
      {6, 6, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, true},   // ceil mode: last window past the input
      {7, 8, 3, 2, 2, 2, 1, 1, 1, 1, 1, 0, true},   // ceil mode with padding
      {6, 5, 3, 3, 1, 2, 1, 1, 0, 1, 2, 0, false},  // asymmetric pads
      {3, 2, 4, 5, 1, 1, 1, 1, 2, 3, 2, 3, false},  // window larger than the input
      {7, 7, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, false},  // 1x1 stride 2
      {7, 7, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0, false},  // global window
      {10, 9, 3, 2, 3, 2, 2, 3, 2, 1, 1, 2, true},  // everything at once
  };
  std::uniform_int_distribution<size_t> small(1, 3);
  while (shapes.size() < 80) {
    Shape s{};
    s.in_h = 1 + rng() % 9;
    s.in_w = 1 + rng() % 9;
    s.kernel_h = 1 + rng() % 4;
    s.kernel_w = 1 + rng() % 4;
    s.stride_h = small(rng);
    s.stride_w = small(rng);
    s.dilation_h = 1 + rng() % 2;
    s.dilation_w = 1 + rng() % 2;
    s.pad_top = rng() % s.kernel_h;
    s.pad_bottom = rng() % s.kernel_h;
    s.pad_left = rng() % s.kernel_w;
    s.pad_right = rng() % s.kernel_w;
    s.ceil_mode = rng() % 2;
    const PoolGeometry g = geometry(s, 1, false);
    if (g.out_h > 0 && g.out_w > 0) shapes.push_back(s);
  }
  return shapes;
}

// Random values with repeats, signed zeros and, when asked, an occasional NaN.
std::vector<float> random_image(std::mt19937& rng, size_t n, bool with_nan) {
  std::vector<float> x(n);
  std::uniform_real_distribution<float> dist(-5.0f, 5.0f);
  for (float& v : x) {
    const uint32_t pick = rng() % 64;
    v = pick == 0               ? 0.0f
        : pick == 1             ? -0.0f
        : pick == 2 && with_nan ? std::numeric_limits<float>::quiet_NaN()
                                : dist(rng);
  }
  return x;
}

const size_t kChannelCounts[] = {1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 47, 48, 49, 64, 67};

TEST_CASE("every pooling kernel matches the reference bit for bit") {
  for (const PoolKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (const Shape& shape : test_shapes(rng)) {
      for (size_t channels : kChannelCounts) {
        for (bool include_pad : {false, true}) {
          const PoolGeometry g = geometry(shape, channels, include_pad);
          const std::vector<float> x = random_image(rng, g.in_h * g.in_w * channels, channels % 3 == 0);
          const size_t out = g.out_h * g.out_w * channels;
          INFO(k->name << " " << describe(g));
          for (int which = 0; which < 2; ++which) {
            std::vector<float> got(out, kSentinel), want(out, kSentinel);
            if (which == 0) {
              k->max_pool(g, x.data(), got.data(), 0, g.out_h, 0, channels);
              max_pool_reference(g, x.data(), want.data(), 0, g.out_h, 0, channels);
            } else {
              k->average_pool(g, x.data(), got.data(), 0, g.out_h, 0, channels);
              average_pool_reference(g, x.data(), want.data(), 0, g.out_h, 0, channels);
            }
            INFO((which == 0 ? "MaxPool" : "AveragePool"));
            CHECK(same_bits(got, want));
          }
        }
      }
    }
  }
}

TEST_CASE("pooling results do not depend on how output rows and channels are split into calls") {
  for (const PoolKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (const Shape& shape : test_shapes(rng)) {
      const size_t channels = kChannelCounts[rng() % std::size(kChannelCounts)];
      const PoolGeometry g = geometry(shape, channels, rng() % 2);
      const std::vector<float> x = random_image(rng, g.in_h * g.in_w * channels, false);
      INFO(k->name << " " << describe(g));
      for (PoolFn pool : {k->max_pool, k->average_pool}) {
        std::vector<float> whole(g.out_h * g.out_w * channels), pieces(whole.size(), kSentinel);
        pool(g, x.data(), whole.data(), 0, g.out_h, 0, channels);
        for (size_t oh = 0; oh < g.out_h;) {
          const size_t rows = std::min<size_t>(g.out_h - oh, 1 + rng() % 3);
          for (size_t c = 0; c < channels;) {
            const size_t count = std::min<size_t>(channels - c, 1 + rng() % 20);
            pool(g, x.data(), pieces.data(), oh, oh + rows, c, c + count);
            c += count;
          }
          oh += rows;
        }
        CHECK(same_bits(whole, pieces));
        // A sub-range call writes exactly its elements.
        if (g.out_h > 1 && channels > 2) {
          std::vector<float> part(whole.size(), kSentinel);
          pool(g, x.data(), part.data(), 1, g.out_h, 1, channels - 1);
          bool exact = true;
          for (size_t oh = 0; oh < g.out_h; ++oh) {
            for (size_t i = 0; i < g.out_w * channels; ++i) {
              const size_t c = i % channels, at = oh * g.out_w * channels + i;
              const bool inside = oh >= 1 && c >= 1 && c < channels - 1;
              exact = exact && (inside ? std::bit_cast<uint32_t>(part[at]) == std::bit_cast<uint32_t>(whole[at])
                                       : part[at] == kSentinel);
            }
          }
          CHECK(exact);
        }
      }
    }
  }
}

TEST_CASE("global average pool matches the reference bit for bit, whatever the channel split") {
  for (const PoolKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (size_t pixels : {1, 7, 49, 196}) {
      for (size_t channels : {1, 3, 8, 15, 16, 17, 33, 64, 67, 130, 2048}) {
        INFO(k->name << " pixels " << pixels << " channels " << channels << " seed " << kSeed);
        const std::vector<float> x = random_image(rng, pixels * channels, false);
        std::vector<float> got(channels, kSentinel), want(channels, kSentinel), pieces(channels, kSentinel);
        k->global_average_pool(pixels, channels, x.data(), got.data(), 0, channels);
        global_average_pool_reference(pixels, channels, x.data(), want.data(), 0, channels);
        CHECK(same_bits(got, want));
        for (size_t c = 0; c < channels;) {
          const size_t count = std::min<size_t>(channels - c, 1 + rng() % 40);
          k->global_average_pool(pixels, channels, x.data(), pieces.data(), c, c + count);
          c += count;
        }
        CHECK(same_bits(got, pieces));
      }
    }
  }
}

// A 4x4 one-channel image of ones pooled with the given shape.
std::vector<float> pool_ones(const PoolKernels& k, const Shape& shape, bool include_pad, bool max) {
  const PoolGeometry g = geometry(shape, 1, include_pad);
  const std::vector<float> x(g.in_h * g.in_w, 1.0f);
  std::vector<float> y(g.out_h * g.out_w, kSentinel);
  (max ? k.max_pool : k.average_pool)(g, x.data(), y.data(), 0, g.out_h, 0, 1);
  return y;
}

TEST_CASE("pooling follows the ONNX rules for padding, ceil mode and count_include_pad") {
  for (const PoolKernels* k : supported_kernels()) {
    INFO(k->name);
    // 3x3 "same" pooling of a 3x3 image: padding is excluded, or counted as zeros.
    const Shape same{3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false};
    CHECK(pool_ones(*k, same, false, false) == std::vector<float>(9, 1.0f));
    CHECK(pool_ones(*k, same, true, false) ==
          std::vector<float>{4 / 9.0f, 6 / 9.0f, 4 / 9.0f, 6 / 9.0f, 1.0f, 6 / 9.0f, 4 / 9.0f, 6 / 9.0f, 4 / 9.0f});
    // Ceil mode without padding: the last window reaches past the input; with
    // count_include_pad those positions are still not counted.
    const Shape ceil_no_pad{4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, true};
    CHECK(pool_ones(*k, ceil_no_pad, true, false) == std::vector<float>(4, 1.0f));
    // Ceil mode with padding 1: the last window covers input row 3, padding row 4 and row 5
    // past the padded extent, so it divides by 2 x 2 padded positions (input 1 x 1).
    const Shape ceil_pad{4, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, true};
    const std::vector<float> y = pool_ones(*k, ceil_pad, true, false);
    REQUIRE(y.size() == 9);
    CHECK(y[0] == 4 / 9.0f);
    CHECK(y[4] == 1.0f);
    CHECK(y[8] == 1 / 4.0f);
    CHECK(y[2] == 2 / 6.0f);
    CHECK(pool_ones(*k, ceil_pad, false, false) == std::vector<float>(9, 1.0f));
    // Padding is never the maximum, NaN is.
    const PoolGeometry g = geometry(same, 2, false);
    std::vector<float> x(9 * 2, -5.0f);
    x[4 * 2 + 1] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> out(9 * 2);
    k->max_pool(g, x.data(), out.data(), 0, 3, 0, 2);
    for (size_t p = 0; p < 9; ++p) {
      CHECK(out[p * 2] == -5.0f);
      CHECK(std::isnan(out[p * 2 + 1]));
    }
  }
}

}  // namespace
}  // namespace tessera::kernels
