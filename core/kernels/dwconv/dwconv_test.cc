// Tests every depthwise convolution kernel of dwconv_kernels() against the reference over
// random geometries, the bitwise invariance of its results under row/channel splits, and packing.
#include "core/kernels/dwconv/dwconv.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/dwconv/dwconv_reference.h"

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 7031;
constexpr float kCanary = 12345.0f;

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

size_t uniform(std::mt19937& rng, size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(rng); }

// Random input size and asymmetric pads (bottom/right only shape out_h/out_w).
DwConvGeometry random_geometry(std::mt19937& rng, size_t kernel, size_t stride, size_t dilation, size_t channels) {
  const size_t span = (kernel - 1) * dilation + 1;
  for (;;) {
    DwConvGeometry g{};
    g.in_h = uniform(rng, 1, 12);
    g.in_w = uniform(rng, 1, 40);
    g.channels = channels;
    g.kernel_h = g.kernel_w = kernel;
    g.stride_h = g.stride_w = stride;
    g.dilation_h = g.dilation_w = dilation;
    g.pad_top = uniform(rng, 0, span - 1);
    g.pad_left = uniform(rng, 0, span - 1);
    const size_t pad_bottom = uniform(rng, 0, span - 1), pad_right = uniform(rng, 0, span - 1);
    if (g.in_h + g.pad_top + pad_bottom < span || g.in_w + g.pad_left + pad_right < span) continue;
    g.out_h = (g.in_h + g.pad_top + pad_bottom - span) / stride + 1;
    g.out_w = (g.in_w + g.pad_left + pad_right - span) / stride + 1;
    return g;
  }
}

struct DwCase {
  DwConvGeometry g;
  std::vector<float> input, weights, bias, residual;
  DwCase(const DwConvGeometry& geometry, bool with_residual, std::mt19937& rng) : g(geometry) {
    input = random_floats(g.in_h * g.in_w * g.channels, rng);
    weights = random_floats(g.kernel_h * g.kernel_w * g.channels, rng);
    bias = random_floats(g.channels, rng);
    if (with_residual) residual = random_floats(output_size(), rng);
  }
  size_t output_size() const { return g.out_h * g.out_w * g.channels; }
  const float* residual_ptr() const { return residual.empty() ? nullptr : residual.data(); }
  std::vector<float> run(DwConvFn fn, size_t oh_begin, size_t oh_end, size_t c_begin, size_t c_end,
                         const MinMax& clamp) const {
    std::vector<float> out(output_size(), kCanary);
    fn(g, input.data(), weights.data(), bias.data(), out.data(), oh_begin, oh_end, c_begin, c_end, residual_ptr(),
       clamp);
    return out;
  }
  // The reference on absolute values: the sum of magnitudes bounding each output's rounding.
  std::vector<float> magnitudes() const {
    DwCase abs_case = *this;
    for (auto* v : {&abs_case.input, &abs_case.weights, &abs_case.bias, &abs_case.residual}) {
      for (float& x : *v) x = std::fabs(x);
    }
    return abs_case.run(reference_dwconv, 0, g.out_h, 0, g.channels, MinMax{});
  }
};

std::string describe(const DwConvGeometry& g) {
  std::ostringstream s;
  s << "in " << g.in_h << "x" << g.in_w << "x" << g.channels << " out " << g.out_h << "x" << g.out_w << " k"
    << g.kernel_h << " s" << g.stride_h << " d" << g.dilation_h << " pad_top " << g.pad_top << " pad_left "
    << g.pad_left;
  return s.str();
}

TEST_CASE("every dwconv kernel names the channels per vector it declares") {
  // "f32_dwconv_8x16_avx512": 16 lanes, what the cost model pads a tile's channels to.
  for (const DwConvKernel& kernel : dwconv_kernels()) {
    INFO(kernel.name);
    CHECK(std::string(kernel.name).find("x" + std::to_string(kernel.lanes) + "_") != std::string::npos);
  }
}

TEST_CASE("every dwconv kernel matches the reference over random geometries") {
  for (const DwConvKernel& kernel : dwconv_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    std::mt19937 rng(kSeed);
    int variant = 0;
    for (size_t k : {3, 5, 7}) {
      for (size_t stride : {1, 2}) {
        for (size_t dilation : {1, 2}) {
          for (size_t channels : {1, 7, 17, 33, 96}) {
            for (int repeat = 0; repeat < 3; ++repeat, ++variant) {
              const DwCase tc(random_geometry(rng, k, stride, dilation, channels), variant % 2 == 1, rng);
              const MinMax clamp = variant % 3 == 0   ? MinMax{}
                                   : variant % 3 == 1 ? MinMax{0.0f, std::numeric_limits<float>::infinity()}
                                                      : MinMax{-0.25f, 0.75f};
              // A sub-region: nothing outside it may be written.
              const size_t oh_begin = uniform(rng, 0, tc.g.out_h - 1);
              const size_t oh_end = uniform(rng, oh_begin + 1, tc.g.out_h);
              const size_t c_begin = uniform(rng, 0, channels - 1);
              const size_t c_end = uniform(rng, c_begin + 1, channels);
              INFO("kernel " << kernel.name << " seed " << kSeed << " " << describe(tc.g) << " rows [" << oh_begin
                             << "," << oh_end << ") channels [" << c_begin << "," << c_end << ") residual "
                             << !tc.residual.empty());
              const std::vector<float> got = tc.run(kernel.fn, oh_begin, oh_end, c_begin, c_end, clamp);
              const std::vector<float> want = tc.run(reference_dwconv, oh_begin, oh_end, c_begin, c_end, clamp);
              const std::vector<float> magnitude = tc.magnitudes();
              const double taps = static_cast<double>(k * k);
              for (size_t i = 0; i < got.size(); ++i) {
                if (want[i] == kCanary) {
                  if (got[i] != kCanary) FAIL("wrote outside the region at " << i);
                  continue;
                }
                if (std::fabs(got[i] - want[i]) > (taps + 4) * 1.2e-7 * magnitude[i]) {
                  FAIL("element " << i << ": got " << got[i] << " want " << want[i]);
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("dwconv results are bitwise identical whatever the row and channel split") {
  for (const DwConvKernel& kernel : dwconv_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    std::mt19937 rng(kSeed);
    for (size_t k : {3, 5, 7}) {
      for (size_t stride : {1, 2}) {
        for (size_t channels : {7, 33, 96}) {
          const DwCase tc(random_geometry(rng, k, stride, 2 - stride % 2, channels), true, rng);
          INFO("kernel " << kernel.name << " seed " << kSeed << " " << describe(tc.g));
          const MinMax clamp{-0.5f, 0.5f};
          const std::vector<float> whole = tc.run(kernel.fn, 0, tc.g.out_h, 0, channels, clamp);
          std::vector<float> split(whole.size(), kCanary);
          for (size_t oh = 0; oh < tc.g.out_h;) {
            const size_t rows = uniform(rng, 1, tc.g.out_h - oh);
            for (size_t c = 0; c < channels;) {
              const size_t width = uniform(rng, 1, channels - c);
              kernel.fn(tc.g, tc.input.data(), tc.weights.data(), tc.bias.data(), split.data(), oh, oh + rows, c,
                        c + width, tc.residual_ptr(), clamp);
              c += width;
            }
            oh += rows;
          }
          REQUIRE(std::memcmp(whole.data(), split.data(), whole.size() * sizeof(float)) == 0);
        }
      }
    }
  }
}

TEST_CASE("pack_dwconv_weights transposes [C,1,KH,KW] to [KH*KW][C], scaled per channel") {
  std::mt19937 rng(kSeed);
  const size_t channels = 17, taps = 9;
  const std::vector<float> w = random_floats(channels * taps, rng);
  const std::vector<float> scale = random_floats(channels, rng);
  for (const bool scaled : {false, true}) {
    std::vector<float> packed(channels * taps + 1, kCanary);
    pack_dwconv_weights(channels, taps, w.data(), scaled ? scale.data() : nullptr, packed.data());
    for (size_t tap = 0; tap < taps; ++tap) {
      for (size_t c = 0; c < channels; ++c) {
        REQUIRE(packed[tap * channels + c] == (scaled ? w[c * taps + tap] * scale[c] : w[c * taps + tap]));
      }
    }
    REQUIRE(packed.back() == kCanary);
  }
}

TEST_CASE("best_dwconv_kernel respects the ISA cap") {
  REQUIRE(isa_supported(best_dwconv_kernel(detected_isa()).isa));
  REQUIRE(best_dwconv_kernel(Isa::kScalar).isa == Isa::kScalar);
}

}  // namespace
}  // namespace tessera::kernels
