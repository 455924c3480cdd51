// Every row-kernel entry against the double-precision reference, for all tail lengths and
// strided rows, -inf/NaN rows in softmax, in-place calls, and bitwise independence of a
// row's result from its position, alignment and how rows are split into calls.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/kernels/rows/rows.h"

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 0x50f7a;
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<const RowKernels*> supported_kernels() {
  std::vector<const RowKernels*> kernels;
  for (const RowKernels& k : row_kernels()) {
    if (isa_supported(k.isa)) kernels.push_back(&k);
  }
  return kernels;
}

std::vector<size_t> row_lengths() {
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 49; ++n) sizes.push_back(n);
  for (size_t n : {64, 100, 255, 768, 1000, 4099}) sizes.push_back(n);
  return sizes;
}

std::vector<float> random_floats(std::mt19937& rng, size_t n, float low, float high) {
  std::vector<float> v(n);
  std::uniform_real_distribution<float> dist(low, high);
  for (float& x : v) x = dist(rng);
  return v;
}

// Largest |got - want| / (|want| + floor) over the rows' elements (NaN must match NaN).
double max_error(size_t rows, size_t n, const std::vector<float>& got, const std::vector<float>& want, size_t stride,
                 double floor) {
  double worst = 0;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t i = 0; i < n; ++i) {
      const float g = got[r * stride + i], w = want[r * stride + i];
      if (std::isnan(g) || std::isnan(w)) {
        if (std::isnan(g) != std::isnan(w)) return INFINITY;
        continue;
      }
      worst = std::max(worst, std::fabs(double{g} - w) / (std::fabs(double{w}) + floor));
    }
  }
  return worst;
}

TEST_CASE("every softmax kernel matches the reference for all tail lengths and strided rows") {
  for (const RowKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    double worst = 0;
    for (size_t n : row_lengths()) {
      constexpr size_t rows = 3;
      const size_t x_stride = n + 3, y_stride = n + 5;
      std::vector<float> x = random_floats(rng, rows * x_stride, -10.0f, 10.0f);
      // Sprinkle -inf entries: they must come out as exact zeros.
      for (size_t i = 0; i < n / 5; ++i) x[(rng() % rows) * x_stride + rng() % n] = -kInf;
      std::vector<float> got(rows * y_stride, 7.0f), want(rows * y_stride, 7.0f);
      k->softmax(rows, n, x.data(), x_stride, got.data(), y_stride);
      softmax_reference(rows, n, x.data(), x_stride, want.data(), y_stride);
      INFO(k->name << " n=" << n << " seed=" << kSeed);
      const double error = max_error(rows, n, got, want, y_stride, 1e-37);
      CHECK(error < 3e-6);
      worst = std::max(worst, error);
      for (size_t r = 0; r < rows; ++r) {
        for (size_t i = 0; i < n; ++i) {
          if (x[r * x_stride + i] == -kInf) CHECK(got[r * y_stride + i] == 0.0f);
        }
        // Bytes between rows are not touched.
        for (size_t i = n; i < y_stride && r * y_stride + i < got.size(); ++i) CHECK(got[r * y_stride + i] == 7.0f);
      }
    }
    INFO(k->name << " worst relative error " << worst);
    CHECK(worst < 3e-6);
  }
}

TEST_CASE("softmax rows of all -inf, with +inf or with NaN give NaN; one finite value gives 1") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const RowKernels* k : supported_kernels()) {
    INFO(k->name);
    for (size_t n : {1, 5, 17, 40}) {
      std::vector<float> all_neg_inf(n, -kInf), y(n);
      k->softmax(1, n, all_neg_inf.data(), n, y.data(), n);
      CHECK(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
      for (float poison : {kInf, nan}) {
        std::vector<float> x(n, 1.0f);
        x[n / 2] = poison;
        k->softmax(1, n, x.data(), n, y.data(), n);
        CHECK(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
      }
      std::vector<float> one_finite(n, -kInf);
      one_finite[n - 1] = -3.0f;
      k->softmax(1, n, one_finite.data(), n, y.data(), n);
      CHECK(y[n - 1] == 1.0f);
      CHECK(std::count(y.begin(), y.end(), 0.0f) == static_cast<std::ptrdiff_t>(n - 1));
    }
  }
}

TEST_CASE("every layer norm kernel matches the reference, with and without bias, far from zero mean") {
  for (const RowKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    double worst = 0;
    for (size_t n : row_lengths()) {
      for (bool with_bias : {true, false}) {
        constexpr size_t rows = 3;
        const size_t x_stride = n + 1, y_stride = n + 2;
        std::vector<float> x = random_floats(rng, rows * x_stride, -4.0f, 4.0f);
        // A large common offset: the two-pass variance must not cancel it badly.
        for (size_t i = 0; i < x_stride; ++i) x[2 * x_stride + i] += 1000.0f;
        const std::vector<float> scale = random_floats(rng, n, 0.5f, 2.0f);
        const std::vector<float> bias = random_floats(rng, n, -1.0f, 1.0f);
        const float* b = with_bias ? bias.data() : nullptr;
        std::vector<float> got(rows * y_stride), want(rows * y_stride);
        k->layer_norm(rows, n, x.data(), x_stride, scale.data(), b, 1e-5f, got.data(), y_stride);
        layer_norm_reference(rows, n, x.data(), x_stride, scale.data(), b, 1e-5f, want.data(), y_stride);
        INFO(k->name << " n=" << n << " bias=" << with_bias << " seed=" << kSeed);
        const double error = max_error(rows, n, got, want, y_stride, 1.0);
        CHECK(error < 1e-6);
        worst = std::max(worst, error);
      }
    }
    INFO(k->name << " worst error " << worst);
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("every group norm kernel matches the reference per channel run, in place too, far from zero mean") {
  for (const RowKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    double worst = 0;
    for (size_t channels : {1, 2, 5}) {
      for (size_t spatial : {1, 3, 8, 17, 64, 100}) {
        for (bool with_bias : {true, false}) {
          const size_t n = channels * spatial;
          std::vector<float> x = random_floats(rng, n, -4.0f, 4.0f);
          if (spatial == 17) {
            for (float& v : x) v += 1000.0f;
          }
          const std::vector<float> scale = random_floats(rng, channels, 0.5f, 2.0f);
          const std::vector<float> bias = random_floats(rng, channels, -1.0f, 1.0f);
          const float* b = with_bias ? bias.data() : nullptr;
          std::vector<float> got(n), want(n), in_place = x;
          k->group_norm(channels, spatial, x.data(), scale.data(), b, 1e-5f, got.data());
          group_norm_reference(channels, spatial, x.data(), scale.data(), b, 1e-5f, want.data());
          k->group_norm(channels, spatial, in_place.data(), scale.data(), b, 1e-5f, in_place.data());
          INFO(k->name << " channels=" << channels << " spatial=" << spatial << " bias=" << with_bias);
          CHECK(std::memcmp(got.data(), in_place.data(), n * sizeof(float)) == 0);
          const double error = max_error(1, n, got, want, n, 1.0);
          CHECK(error < 1e-6);
          worst = std::max(worst, error);
        }
      }
    }
    INFO(k->name << " worst error " << worst);
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("row kernels give identical bits in place, at any alignment and however rows are split into calls") {
  for (const RowKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (size_t n : {1, 7, 16, 33, 100, 771}) {
      INFO(k->name << " n=" << n << " seed=" << kSeed);
      constexpr size_t rows = 13;
      const size_t stride = n + 1;
      const std::vector<float> x = random_floats(rng, rows * stride, -8.0f, 8.0f);
      const std::vector<float> scale = random_floats(rng, n, 0.5f, 2.0f);
      const std::vector<float> bias = random_floats(rng, n, -1.0f, 1.0f);
      auto softmax = [&](size_t r0, size_t count, const float* in, float* out) {
        k->softmax(count, n, in + r0 * stride, stride, out + r0 * stride, stride);
      };
      auto layer_norm = [&](size_t r0, size_t count, const float* in, float* out) {
        k->layer_norm(count, n, in + r0 * stride, stride, scale.data(), bias.data(), 1e-5f, out + r0 * stride, stride);
      };
      for (int which = 0; which < 2; ++which) {
        auto run = [&](size_t r0, size_t count, const float* in, float* out) {
          which == 0 ? softmax(r0, count, in, out) : layer_norm(r0, count, in, out);
        };
        std::vector<float> whole(x.size()), pieces(x.size()), in_place = x;
        run(0, rows, x.data(), whole.data());
        for (size_t r = 0; r < rows;) {
          const size_t count = std::min<size_t>(rows - r, 1 + rng() % 4);
          run(r, count, x.data(), pieces.data());
          r += count;
        }
        run(0, rows, in_place.data(), in_place.data());
        for (size_t r = 0; r < rows; ++r) {
          CHECK(std::memcmp(&whole[r * stride], &pieces[r * stride], n * sizeof(float)) == 0);
          CHECK(std::memcmp(&whole[r * stride], &in_place[r * stride], n * sizeof(float)) == 0);
        }
        // The same row one float further on (another alignment, another row index).
        std::vector<float> shifted_in(n + 1), shifted_out(n + 1);
        std::memcpy(shifted_in.data() + 1, &x[5 * stride], n * sizeof(float));
        if (which == 0) {
          k->softmax(1, n, shifted_in.data() + 1, n, shifted_out.data() + 1, n);
        } else {
          k->layer_norm(1, n, shifted_in.data() + 1, n, scale.data(), bias.data(), 1e-5f, shifted_out.data() + 1, n);
        }
        CHECK(std::memcmp(&whole[5 * stride], shifted_out.data() + 1, n * sizeof(float)) == 0);
      }
    }
  }
}

}  // namespace
}  // namespace tessera::kernels
