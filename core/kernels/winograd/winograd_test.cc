// Tests every Winograd transform pair of winograd_kernels(), both tiles, against the reference
// twins, and the whole pipeline (packing, transforms, per-point sums) against a direct 3x3
// convolution.
#include "core/kernels/winograd/winograd.h"

#include <algorithm>
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

// A tile's pixel pointers into `pixels` (points x channels), some replaced by a zero row.
std::vector<const float*> tile_pointers(WinogradTile tile, const std::vector<float>& pixels,
                                        const std::vector<float>& zeros, size_t channels, std::mt19937& rng) {
  std::vector<const float*> in(tile.points());
  for (int i = 0; i < tile.points(); ++i) in[i] = rng() % 5 == 0 ? zeros.data() : pixels.data() + i * channels;
  return in;
}

TEST_CASE("the list has both tiles for every ISA") {
  for (const WinogradKernels& k : winograd_kernels()) {
    for (WinogradTile tile : {kWinogradF2, kWinogradF4}) {
      const bool listed = std::any_of(winograd_kernels().begin(), winograd_kernels().end(),
                                      [&](const WinogradKernels& o) { return o.isa == k.isa && o.tile == tile; });
      CHECK(listed);
    }
  }
  CHECK(best_winograd_kernels(Isa::kScalar, kWinogradF2).tile == kWinogradF2);
  CHECK(best_winograd_kernels(Isa::kScalar, kWinogradF4).isa == Isa::kScalar);
}

TEST_CASE("every Winograd input transform matches the reference") {
  std::mt19937 rng(4101);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    const int points = k.tile.points();
    for (size_t channels : {1, 3, 4, 15, 16, 17, 40, 64}) {
      INFO(k.name << " channels " << channels);
      const std::vector<float> pixels = random_floats(points * channels, rng);
      const std::vector<float> zeros(channels, 0.0f);
      const std::vector<const float*> in = tile_pointers(k.tile, pixels, zeros, channels, rng);
      const size_t stride = channels + 3;
      std::vector<float> got(points * stride, -7.0f), want(got);
      k.input(channels, in.data(), got.data(), stride);
      reference_winograd_input(k.tile, channels, in.data(), want.data(), stride);
      for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-5));
    }
  }
}

TEST_CASE("every Winograd output transform matches the reference, rows, columns, residual and clamp") {
  std::mt19937 rng(4102);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    const size_t side = static_cast<size_t>(k.tile.output);
    for (size_t channels : {1, 5, 16, 33}) {
      for (const auto& [row_begin, row_end, cols] : {std::tuple<size_t, size_t, size_t>{0, side, side},
                                                     {1, side - 1, side / 2},
                                                     {side / 2, side, 1},
                                                     {0, 1, 1}}) {
        for (bool with_residual : {false, true}) {
          INFO(k.name << " channels " << channels << " rows " << row_begin << ".." << row_end << " cols " << cols);
          const size_t m_stride = channels + 1, pixel = channels + 2, row = side * pixel + 5;
          const std::vector<float> m = random_floats(k.tile.points() * m_stride, rng);
          const std::vector<float> bias = random_floats(channels, rng);
          const std::vector<float> residual = random_floats(side * row, rng);
          const MinMax clamp{-3.0f, 3.0f};
          std::vector<float> got(side * row, -7.0f), want(got);
          const float* res = with_residual ? residual.data() : nullptr;
          k.output(channels, m.data(), m_stride, bias.data(), got.data(), row, pixel, res, row_begin, row_end, cols,
                   clamp);
          reference_winograd_output(k.tile, channels, m.data(), m_stride, bias.data(), want.data(), row, pixel, res,
                                    row_begin, row_end, cols, clamp);
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
  const std::vector<float> x = random_floats(kWinogradMaxPoints * cin, rng);  // one tile, NHWC
  const std::vector<float> bias = random_floats(cout, rng);
  for (const WinogradKernels& k : winograd_kernels()) {
    if (!isa_supported(k.isa)) continue;
    INFO(k.name);
    const int nr = best_gemm_kernel(k.isa).nr;
    const int points = k.tile.points(), n = k.tile.input(), side = k.tile.output;
    const size_t point_floats = packed_winograd_weights_floats(k.tile, nr, cin, cout) / points;
    std::vector<float> packed(packed_winograd_weights_floats(k.tile, nr, cin, cout));
    pack_winograd_weights(k.tile, nr, cout, cin, w.data(), nullptr, packed.data());
    std::vector<const float*> in(points);
    for (int i = 0; i < points; ++i) in[i] = x.data() + i * cin;
    std::vector<float> v(points * cin), m(points * cout);
    k.input(cin, in.data(), v.data(), cin);
    for (int xi = 0; xi < points; ++xi) {
      for (size_t oc = 0; oc < cout; ++oc) {
        const float* panel = packed.data() + xi * point_floats + packed_gemm_panel_offset(nr, cin, 1, oc / nr) + nr;
        double sum = 0;
        for (size_t ic = 0; ic < cin; ++ic) sum += v[xi * cin + ic] * panel[ic * nr + oc % nr];
        m[xi * cout + oc] = static_cast<float>(sum);
      }
    }
    std::vector<float> y(side * side * cout);
    k.output(cout, m.data(), cout, bias.data(), y.data(), side * cout, cout, nullptr, 0, side, side, MinMax{});
    for (int r = 0; r < side; ++r) {
      for (int c = 0; c < side; ++c) {
        for (size_t oc = 0; oc < cout; ++oc) {
          double want = bias[oc];
          for (size_t ic = 0; ic < cin; ++ic) {
            for (size_t kh = 0; kh < 3; ++kh) {
              for (size_t kw = 0; kw < 3; ++kw)
                want += x[((r + kh) * n + c + kw) * cin + ic] * w[((oc * cin + ic) * 3 + kh) * 3 + kw];
            }
          }
          REQUIRE(y[(r * side + c) * cout + oc] == Approx(want).margin(1e-4));
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
  for (WinogradTile tile : {kWinogradF2, kWinogradF4}) {
    std::vector<float> packed(packed_winograd_weights_floats(tile, nr, cin, cout));
    std::vector<float> want(packed.size());
    pack_winograd_weights(tile, nr, cout, cin, w.data(), scale.data(), packed.data());
    pack_winograd_weights(tile, nr, cout, cin, scaled.data(), nullptr, want.data());
    REQUIRE(std::memcmp(packed.data(), want.data(), sizeof(float) * packed.size()) == 0);
  }
}

}  // namespace
}  // namespace tessera::kernels
