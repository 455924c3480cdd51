// Tests every Winograd transform pair of winograd_kernels() against the reference twins,
// and the whole F(4x4, 3x3) pipeline (packing, transforms, per-point sums) against a direct
// 3x3 convolution.
#include "core/kernels/winograd/winograd.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd_reference.h"

namespace tessera::kernels {
namespace {

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// A tile's 36 pixel pointers into `pixels` (36 x channels), some replaced by a zero row.
std::vector<const float*> tile_pointers(const std::vector<float>& pixels, const std::vector<float>& zeros,
                                        size_t channels, std::mt19937& rng) {
  std::vector<const float*> in(kWinogradPoints);
  for (int i = 0; i < kWinogradPoints; ++i) in[i] = rng() % 5 == 0 ? zeros.data() : pixels.data() + i * channels;
  return in;
}

TEST_CASE("every Winograd input transform matches the reference") {
  std::mt19937 rng(4101);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    for (size_t channels : {1, 3, 4, 15, 16, 17, 40, 64}) {
      INFO(k.name << " channels " << channels);
      const std::vector<float> pixels = random_floats(kWinogradPoints * channels, rng);
      const std::vector<float> zeros(channels, 0.0f);
      const std::vector<const float*> in = tile_pointers(pixels, zeros, channels, rng);
      const size_t stride = channels + 3;
      std::vector<float> got(kWinogradPoints * stride, -7.0f), want(got);
      k.input(channels, in.data(), got.data(), stride);
      reference_winograd_input(channels, in.data(), want.data(), stride);
      for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-5));
    }
  }
}

TEST_CASE("every Winograd output transform matches the reference, rows, columns, residual and clamp") {
  std::mt19937 rng(4102);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    for (size_t channels : {1, 5, 16, 33}) {
      for (const auto& [row_begin, row_end, cols] :
           {std::tuple<size_t, size_t, size_t>{0, 4, 4}, {1, 3, 2}, {0, 1, 1}}) {
        for (bool with_residual : {false, true}) {
          INFO(k.name << " channels " << channels << " rows " << row_begin << ".." << row_end << " cols " << cols);
          const size_t m_stride = channels + 1, pixel = channels + 2, row = 4 * pixel + 5;
          const std::vector<float> m = random_floats(kWinogradPoints * m_stride, rng);
          const std::vector<float> bias = random_floats(channels, rng);
          const std::vector<float> residual = random_floats(4 * row, rng);
          const MinMax clamp{-3.0f, 3.0f};
          std::vector<float> got(4 * row, -7.0f), want(got);
          const float* res = with_residual ? residual.data() : nullptr;
          k.output(channels, m.data(), m_stride, bias.data(), got.data(), row, pixel, res, row_begin, row_end, cols,
                   clamp);
          reference_winograd_output(channels, m.data(), m_stride, bias.data(), want.data(), row, pixel, res, row_begin,
                                    row_end, cols, clamp);
          // Untouched outputs keep their canary in both.
          for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-4));
        }
      }
    }
  }
}

TEST_CASE("packed Winograd weights, the transforms and per-point sums compute a 3x3 convolution") {
  std::mt19937 rng(4103);
  const size_t cin = 5, cout = 37;  // a ragged last panel
  const std::vector<float> w = random_floats(cout * cin * 9, rng);
  const std::vector<float> x = random_floats(kWinogradPoints * cin, rng);  // one 6x6 tile, NHWC
  const std::vector<float> bias = random_floats(cout, rng);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    INFO(k.name);
    const int nr = best_gemm_kernel(k.isa).nr;
    const size_t point_floats = packed_winograd_weights_floats(nr, cin, cout) / kWinogradPoints;
    std::vector<float> packed(packed_winograd_weights_floats(nr, cin, cout));
    pack_winograd_weights(nr, cout, cin, w.data(), nullptr, packed.data());
    std::vector<const float*> in(kWinogradPoints);
    for (int i = 0; i < kWinogradPoints; ++i) in[i] = x.data() + i * cin;
    std::vector<float> v(kWinogradPoints * cin), m(kWinogradPoints * cout);
    k.input(cin, in.data(), v.data(), cin);
    for (int xi = 0; xi < kWinogradPoints; ++xi) {
      for (size_t oc = 0; oc < cout; ++oc) {
        const float* panel = packed.data() + xi * point_floats + packed_gemm_panel_offset(nr, cin, 1, oc / nr) + nr;
        double sum = 0;
        for (size_t ic = 0; ic < cin; ++ic) sum += v[xi * cin + ic] * panel[ic * nr + oc % nr];
        m[xi * cout + oc] = static_cast<float>(sum);
      }
    }
    std::vector<float> y(16 * cout);
    k.output(cout, m.data(), cout, bias.data(), y.data(), 4 * cout, cout, nullptr, 0, 4, 4, MinMax{});
    for (size_t r = 0; r < 4; ++r) {
      for (size_t c = 0; c < 4; ++c) {
        for (size_t oc = 0; oc < cout; ++oc) {
          double want = bias[oc];
          for (size_t ic = 0; ic < cin; ++ic) {
            for (size_t kh = 0; kh < 3; ++kh) {
              for (size_t kw = 0; kw < 3; ++kw)
                want += x[((r + kh) * 6 + c + kw) * cin + ic] * w[((oc * cin + ic) * 3 + kh) * 3 + kw];
            }
          }
          REQUIRE(y[(r * 4 + c) * cout + oc] == Approx(want).margin(1e-4));
        }
      }
    }
  }
}

TEST_CASE("Winograd weights packed with a per-channel scale are those of the scaled weights, bit for bit") {
  std::mt19937 rng(4111);
  const size_t cin = 3, cout = 19;
  const int nr = 16;
  const std::vector<float> w = random_floats(cout * cin * 9, rng);
  const std::vector<float> scale = random_floats(cout, rng);
  std::vector<float> scaled(w.size());
  for (size_t i = 0; i < w.size(); ++i) scaled[i] = w[i] * scale[i / (cin * 9)];
  std::vector<float> packed(packed_winograd_weights_floats(nr, cin, cout));
  std::vector<float> want(packed.size());
  pack_winograd_weights(nr, cout, cin, w.data(), scale.data(), packed.data());
  pack_winograd_weights(nr, cout, cin, scaled.data(), nullptr, want.data());
  REQUIRE(std::memcmp(packed.data(), want.data(), sizeof(float) * packed.size()) == 0);
}

}  // namespace
}  // namespace tessera::kernels
