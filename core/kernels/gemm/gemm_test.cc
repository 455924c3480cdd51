// Tests every GEMM kernel of gemm_kernels() against the reference, the tiling invariance of its
// results, the packing layouts and the whole-matrix driver.
#include "core/kernels/gemm/gemm.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/gemm/gemm_driver.h"
#include "core/kernels/gemm/gemm_reference.h"
#include "core/kernels/peak/peak.h"

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 20240611;
constexpr float kCanary = 12345.0f;

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

MinMax relu() { return {0.0f, std::numeric_limits<float>::infinity()}; }
MinMax relu6() { return {0.0f, 6.0f}; }

// Inputs of one micro-kernel call: ks * MR row pointers (rows >= mr repeat the last valid one),
// one packed panel, an optional residual.
struct UkernelCase {
  int kernel_mr, kernel_nr;
  size_t mr, nc, kc, ks;
  std::vector<float> rows, panel, residual;
  std::vector<const float*> a;

  UkernelCase(int kmr, int knr, size_t mr_, size_t nc_, size_t kc_, size_t ks_, bool with_residual, std::mt19937& rng)
      : kernel_mr(kmr), kernel_nr(knr), mr(mr_), nc(nc_), kc(kc_), ks(ks_) {
    const size_t row_stride = kc + 1;  // rows are not contiguous with each other
    rows = random_floats(ks * kmr * row_stride, rng);
    panel = random_floats(static_cast<size_t>(knr) * (1 + kc * ks), rng);
    for (size_t t = 0; t < ks; ++t) {
      for (size_t r = 0; r < static_cast<size_t>(kmr); ++r) {
        const size_t src = r < mr ? r : mr - 1;
        a.push_back(rows.data() + (t * kmr + src) * row_stride);
      }
    }
    if (with_residual) residual = random_floats(mr * residual_stride(), rng);
  }
  size_t c_stride() const { return kernel_nr + 3; }
  size_t residual_stride() const { return kernel_nr + 5; }
  const float* residual_ptr() const { return residual.empty() ? nullptr : residual.data(); }
  // Sum of the magnitudes that enter one output: bounds its rounding error.
  double magnitude(size_t r, size_t j) const {
    double sum = std::fabs(panel[j]);
    for (size_t t = 0; t < ks; ++t) {
      for (size_t k = 0; k < kc; ++k) {
        sum += std::fabs(static_cast<double>(a[t * kernel_mr + r][k]) * panel[kernel_nr * (1 + t * kc + k) + j]);
      }
    }
    if (!residual.empty()) sum += std::fabs(residual[r * residual_stride() + j]);
    return sum;
  }
};

void check_against_reference(const GemmKernel& kernel, size_t kc, size_t ks, bool with_residual, const MinMax& clamp,
                             std::mt19937& rng) {
  for (size_t mr = 1; mr <= static_cast<size_t>(kernel.mr); ++mr) {
    for (size_t nc = 1; nc <= static_cast<size_t>(kernel.nr); ++nc) {
      UkernelCase tc(kernel.mr, kernel.nr, mr, nc, kc, ks, with_residual, rng);
      const size_t c_size = static_cast<size_t>(kernel.mr) * tc.c_stride();
      std::vector<float> got(c_size, kCanary), want(c_size, kCanary), prefetching(c_size, kCanary);
      kernel.ukernel(mr, nc, kc, ks, tc.a.data(), tc.panel.data(), nullptr, got.data(), tc.c_stride(),
                     tc.residual_ptr(), tc.residual_stride(), clamp);
      // Asking for a panel to be prefetched (here the same one) changes no bit.
      kernel.ukernel(mr, nc, kc, ks, tc.a.data(), tc.panel.data(), tc.panel.data(), prefetching.data(), tc.c_stride(),
                     tc.residual_ptr(), tc.residual_stride(), clamp);
      REQUIRE(std::memcmp(got.data(), prefetching.data(), sizeof(float) * c_size) == 0);
      reference_gemm_ukernel(kernel.mr, kernel.nr, mr, nc, kc, ks, tc.a.data(), tc.panel.data(), want.data(),
                             tc.c_stride(), tc.residual_ptr(), tc.residual_stride(), clamp);
      for (size_t r = 0; r < static_cast<size_t>(kernel.mr); ++r) {
        for (size_t j = 0; j < tc.c_stride(); ++j) {
          const size_t i = r * tc.c_stride() + j;
          if (r >= mr || j >= nc) {
            if (got[i] != kCanary) FAIL("wrote outside the block at r=" << r << " j=" << j);
            continue;
          }
          const double tolerance = (static_cast<double>(kc * ks) + 4) * 1.2e-7 * tc.magnitude(r, j);
          if (std::fabs(got[i] - want[i]) > tolerance) {
            FAIL("mr=" << mr << " nc=" << nc << " r=" << r << " j=" << j << ": got " << got[i] << " want " << want[i]);
          }
        }
      }
    }
  }
}

TEST_CASE("every gemm kernel matches the reference for all tails, depths and epilogues") {
  for (const GemmKernel& kernel : gemm_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    INFO("kernel " << kernel.name << ", seed " << kSeed);
    std::mt19937 rng(kSeed);
    for (size_t kc : {1, 2, 3, 7, 16, 33}) {
      for (size_t ks : {1, 3, 9}) {
        INFO("kc=" << kc << " ks=" << ks);
        check_against_reference(kernel, kc, ks, false, MinMax{}, rng);
        check_against_reference(kernel, kc, ks, true, relu(), rng);
        check_against_reference(kernel, kc, ks, kc % 2 == 0, relu6(), rng);
      }
    }
  }
}

// Runs the micro-kernel over an m x n output in blocks of rows/columns chosen by `split`,
// the way a tile driver does: rows are any run of <= MR, columns stay inside one NR panel.
template <class Split>
std::vector<float> run_tiled(const GemmKernel& kernel, size_t m, size_t n, size_t kc, size_t ks,
                             const std::vector<float>& a, const std::vector<float>& packed,
                             const std::vector<float>& residual, const MinMax& clamp, Split split) {
  std::vector<float> c(m * n, kCanary);
  const size_t nr = static_cast<size_t>(kernel.nr);
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t panel_cols = std::min(nr, n - j0);
    const float* panel = packed.data() + packed_gemm_panel_offset(kernel.nr, kc, ks, j0 / nr);
    for (size_t i0 = 0; i0 < m;) {
      size_t rows = 0, cols = 0;
      split(std::min<size_t>(kernel.mr, m - i0), panel_cols, &rows, &cols);
      std::vector<const float*> ptrs;
      for (size_t t = 0; t < ks; ++t) {
        for (size_t r = 0; r < static_cast<size_t>(kernel.mr); ++r) {
          const size_t row = i0 + std::min(r, rows - 1);
          ptrs.push_back(a.data() + (row * ks + t) * kc);  // row-major [m][ks][kc] "im2col"
        }
      }
      kernel.ukernel(rows, cols, kc, ks, ptrs.data(), panel, nullptr, c.data() + i0 * n + j0, n,
                     residual.data() + i0 * n + j0, n, clamp);
      i0 += rows;
    }
  }
  return c;
}

// Random operands of an m x n output over ks taps of depth kc: A as run_tiled reads it, B
// (with a bias) packed for panel width nr, and a residual.
struct TiledOperands {
  std::vector<float> a, packed, residual;
  TiledOperands(int nr, size_t m, size_t n, size_t kc, size_t ks, std::mt19937& rng) {
    a = random_floats(m * ks * kc, rng);
    const std::vector<float> b = random_floats(ks * kc * n, rng);
    const std::vector<float> bias = random_floats(n, rng);
    residual = random_floats(m * n, rng);
    packed.resize(packed_gemm_weights_floats(nr, kc, ks, n));
    pack_gemm_weights(nr, kc, ks, n, b.data(), n, 1, bias.data(), packed.data());
  }
};

TEST_CASE("gemm kernel outputs are bitwise identical whatever the block shapes") {
  const size_t m = 37, kc = 19, ks = 3;
  for (const GemmKernel& kernel : gemm_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    INFO("kernel " << kernel.name << ", seed " << kSeed);
    std::mt19937 rng(kSeed);
    const size_t n = 2 * kernel.nr + 5;
    const TiledOperands ops(kernel.nr, m, n, kc, ks, rng);
    const MinMax clamp{-0.5f, 2.0f};

    const std::vector<float> whole = run_tiled(kernel, m, n, kc, ks, ops.a, ops.packed, ops.residual, clamp,
                                               [](size_t max_rows, size_t max_cols, size_t* rows, size_t* cols) {
                                                 *rows = max_rows;
                                                 *cols = max_cols;
                                               });
    for (float v : whole) REQUIRE(v != kCanary);

    // Random row runs: an output row lands in a different register row each time.
    const std::vector<float> row_split =
        run_tiled(kernel, m, n, kc, ks, ops.a, ops.packed, ops.residual, clamp,
                  [&rng](size_t max_rows, size_t max_cols, size_t* rows, size_t* cols) {
                    *rows = std::uniform_int_distribution<size_t>(1, max_rows)(rng);
                    *cols = max_cols;
                  });
    REQUIRE(std::memcmp(whole.data(), row_split.data(), whole.size() * sizeof(float)) == 0);

    // Every row alone, then blocks of half the kernel's rows: its one-row and half-height
    // instances (gemm_impl.h), over all taps.
    for (const size_t block : {size_t{1}, std::max<size_t>(1, static_cast<size_t>(kernel.mr) / 2)}) {
      INFO("blocks of " << block << " rows");
      const std::vector<float> short_blocks =
          run_tiled(kernel, m, n, kc, ks, ops.a, ops.packed, ops.residual, clamp,
                    [block](size_t max_rows, size_t max_cols, size_t* rows, size_t* cols) {
                      *rows = std::min(block, max_rows);
                      *cols = max_cols;
                    });
      REQUIRE(std::memcmp(whole.data(), short_blocks.data(), whole.size() * sizeof(float)) == 0);
    }

    // Random column counts: columns past nc are not written, the written ones must match.
    const std::vector<float> col_split =
        run_tiled(kernel, m, n, kc, ks, ops.a, ops.packed, ops.residual, clamp,
                  [&rng](size_t max_rows, size_t max_cols, size_t* rows, size_t* cols) {
                    *rows = std::uniform_int_distribution<size_t>(1, max_rows)(rng);
                    *cols = std::uniform_int_distribution<size_t>(1, max_cols)(rng);
                  });
    size_t written = 0;
    for (size_t i = 0; i < whole.size(); ++i) {
      if (col_split[i] == kCanary) continue;
      ++written;
      REQUIRE(std::memcmp(&whole[i], &col_split[i], sizeof(float)) == 0);
    }
    REQUIRE(written > 0);
  }
}

TEST_CASE("a block runs the one-row, half-height or whole instance; the rows computed follow") {
  // A 14-row kernel: one row alone, up to 7 at half height, else all 14.
  CHECK(gemm_block_rows(1, 14) == 1);
  CHECK(gemm_block_rows(2, 14) == 7);
  CHECK(gemm_block_rows(7, 14) == 7);
  CHECK(gemm_block_rows(8, 14) == 14);
  CHECK(gemm_block_rows(14, 14) == 14);
  // Half of a 2- or 3-row kernel is one row: no half-height instance.
  CHECK(gemm_block_rows(2, 3) == 3);
  CHECK(gemm_block_rows(1, 2) == 1);
  CHECK(gemm_block_rows(2, 4) == 2);  // the wasm kernels' 4 rows: a half of 2
  CHECK(gemm_block_rows(3, 4) == 4);
  // Whole blocks, then the rest: 49 pixels as 3 x 14 + 7, 50 as 3 x 14 + 14, 1 as 1.
  CHECK(gemm_rows_computed(49, 14) == 49);
  CHECK(gemm_rows_computed(50, 14) == 56);
  CHECK(gemm_rows_computed(1, 14) == 1);
  CHECK(gemm_rows_computed(28, 14) == 28);
  CHECK(gemm_rows_computed(0, 14) == 0);
}

TEST_CASE("the kernels of one ISA give the same bits, so a layer may pick any of them") {
  const size_t m = 29, n = 39, kc = 23, ks = 2;
  const auto run = [&](const GemmKernel& kernel) {
    std::mt19937 rng(kSeed);  // the same operands whatever the panel width they are packed for
    const TiledOperands ops(kernel.nr, m, n, kc, ks, rng);
    const auto whole = [](size_t max_rows, size_t max_cols, size_t* rows, size_t* cols) {
      *rows = max_rows;
      *cols = max_cols;
    };
    return run_tiled(kernel, m, n, kc, ks, ops.a, ops.packed, ops.residual, MinMax{-0.5f, 2.0f}, whole);
  };
  for (const GemmKernel& first : gemm_kernels()) {
    if (!isa_supported(first.isa)) continue;
    for (const GemmKernel& other : gemm_kernels()) {
      if (&other == &first || other.isa != first.isa) continue;
      INFO(first.name << " against " << other.name);
      const std::vector<float> x = run(first);
      const std::vector<float> y = run(other);
      REQUIRE(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("gemm_kernel_for: narrower panels for few columns, fewer rows where rows share an L1 set") {
  for (Isa isa : {Isa::kAvx512, Isa::kAvx2Fma, Isa::kScalar}) {
    const GemmKernel& best = best_gemm_kernel(isa);
    INFO("best kernel " << best.name);
    // Columns that fill the best kernel's panels keep it.
    CHECK(gemm_panel_width(isa, 4 * best.nr) == best.nr);
    CHECK(&gemm_kernel_for(isa, 4 * best.nr, 3 * kL1SetStrideBytes + 64) == &best);
    // Rows 4 KiB apart get a kernel of at most kL1Ways rows.
    const GemmKernel& aliased = gemm_kernel_for(isa, 4 * best.nr, 3 * kL1SetStrideBytes);
    CHECK(aliased.isa == best.isa);
    CHECK(aliased.nr == best.nr);
    CHECK(aliased.mr <= std::max(best.mr, kL1Ways));
    if (best.mr > kL1Ways) CHECK(aliased.mr <= kL1Ways);
    // Few columns: the suitable panel of the ISA that pads fewest, if it saves enough padding.
    for (size_t columns : {size_t{1}, size_t{8}, size_t{16}, size_t{18}, size_t{24}, size_t{48}, size_t{144}}) {
      INFO(columns << " columns");
      const auto padded = [&](int width) { return (columns + width - 1) / width * width; };
      const int nr = gemm_panel_width(isa, columns);
      const GemmKernel& kernel = gemm_kernel_for(isa, columns, 3 * kL1SetStrideBytes + 64);
      CHECK(kernel.isa == best.isa);
      CHECK(kernel.nr == nr);
      CHECK((!kernel.half_width || avx512_fma_split()));
      if (nr < best.nr) CHECK(padded(best.nr) - padded(nr) >= kNarrowPanelSaving * padded(best.nr));
      for (const GemmKernel& other : gemm_kernels()) {
        if (other.isa != best.isa || (other.half_width && !avx512_fma_split())) continue;
        if (nr < best.nr) CHECK(padded(nr) <= padded(other.nr));
        if (nr == best.nr && padded(other.nr) < padded(nr)) {
          CHECK(padded(best.nr) - padded(other.nr) < kNarrowPanelSaving * padded(best.nr));
        }
      }
    }
  }
  // On AVX-512: 16 outputs take the 16-wide panel and 144 (144 or 160) the 32-wide one; 24
  // outputs the 24-wide panel of 256-bit vectors where 512-bit FMAs are split in two.
  if (isa_supported(Isa::kAvx512)) {
    CHECK(gemm_panel_width(Isa::kAvx512, 16) == 16);
    CHECK(gemm_panel_width(Isa::kAvx512, 144) == 32);
    CHECK(gemm_panel_width(Isa::kAvx512, 24) == (avx512_fma_split() ? 24 : 32));
    CHECK(gemm_panel_width(Isa::kAvx512, 48) == (avx512_fma_split() ? 24 : 16));
    CHECK(gemm_kernel_for(Isa::kAvx512, 16, 3 * kL1SetStrideBytes).mr <= kL1Ways);
  }
  // On AVX2: 24 outputs take the 24-wide panel (16-wide pads them to 32); 48 keep 16 wide.
  if (isa_supported(Isa::kAvx2Fma)) {
    CHECK(gemm_panel_width(Isa::kAvx2Fma, 24) == 24);
    CHECK(std::string(gemm_kernel_for(Isa::kAvx2Fma, 24, 3 * kL1SetStrideBytes + 64).name) == "f32_gemm_4x24_avx2");
    CHECK(gemm_panel_width(Isa::kAvx2Fma, 48) == 16);
    CHECK(gemm_panel_width(Isa::kAvx2Fma, 144) == 16);
  }
}

// Checks packed (panel width nr) against B(k, j) and bias(j) element by element.
template <class B>
void check_packed_layout(int nr, size_t kc, size_t ks, size_t n, const std::vector<float>& packed, const float* bias,
                         B b) {
  const size_t width = static_cast<size_t>(nr);
  const size_t panels = (n + width - 1) / width;
  REQUIRE(packed_gemm_weights_floats(nr, kc, ks, n) == panels * width * (1 + kc * ks));
  for (size_t p = 0; p < panels; ++p) {
    const size_t base = packed_gemm_panel_offset(nr, kc, ks, p);
    for (size_t j = 0; j < width; ++j) {
      const size_t col = p * width + j;
      const float want_bias = col < n && bias != nullptr ? bias[col] : 0.0f;
      REQUIRE(packed[base + j] == want_bias);
      for (size_t k = 0; k < kc * ks; ++k) {
        REQUIRE(packed[base + width * (1 + k) + j] == (col < n ? b(k, col) : 0.0f));
      }
    }
  }
}

TEST_CASE("pack_gemm_weights lays out [K,N] and transposed [N,K] matrices in NR panels") {
  std::mt19937 rng(kSeed);
  for (int nr : {4, 8, 16, 32}) {
    for (size_t n : {1, 5, 32, 37}) {
      const size_t kc = 7, ks = 2, depth = kc * ks;
      const std::vector<float> b = random_floats(depth * n, rng);
      const std::vector<float> bias = random_floats(n, rng);
      std::vector<float> packed(packed_gemm_weights_floats(nr, kc, ks, n) + 1, kCanary);

      pack_gemm_weights(nr, kc, ks, n, b.data(), n, 1, bias.data(), packed.data());
      REQUIRE(packed.back() == kCanary);
      check_packed_layout(nr, kc, ks, n, packed, bias.data(), [&](size_t k, size_t j) { return b[k * n + j]; });

      pack_gemm_weights(nr, kc, ks, n, b.data(), 1, depth, nullptr, packed.data());
      REQUIRE(packed.back() == kCanary);
      check_packed_layout(nr, kc, ks, n, packed, nullptr, [&](size_t k, size_t j) { return b[j * depth + k]; });
    }
  }
}

TEST_CASE("pack_conv_weights orders [Cout,Cin,KH,KW] tap-major for the IGEMM, scaled per output channel") {
  std::mt19937 rng(kSeed);
  const size_t cin = 5, taps = 9;
  for (int nr : {8, 32}) {
    for (size_t cout : {3, 8, 33}) {
      const std::vector<float> w = random_floats(cout * cin * taps, rng);
      const std::vector<float> scale = random_floats(cout, rng);
      const std::vector<float> bias = random_floats(cout, rng);
      for (const bool scaled : {false, true}) {
        INFO("nr " << nr << " cout " << cout << " scaled " << scaled);
        std::vector<float> packed(packed_gemm_weights_floats(nr, cin, taps, cout) + 1, kCanary);
        pack_conv_weights(nr, cout, cin, taps, w.data(), scaled ? scale.data() : nullptr, bias.data(), packed.data());
        REQUIRE(packed.back() == kCanary);
        check_packed_layout(nr, cin, taps, cout, packed, bias.data(), [&](size_t k, size_t co) {
          const size_t tap = k / cin, ci = k % cin;
          const float weight = w[(co * cin + ci) * taps + tap];
          return scaled ? weight * scale[co] : weight;
        });
      }
    }
  }
}

TEST_CASE("gemm_f32 matches reference_gemm on odd sizes for every kernel") {
  struct Size {
    size_t m, n, k;
  };
  for (const GemmKernel& kernel : gemm_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    for (Size s : {Size{1, 1, 1}, Size{13, 37, 29}, Size{100, 70, 300}, Size{3, 65, 4}}) {
      INFO("kernel " << kernel.name << " m=" << s.m << " n=" << s.n << " k=" << s.k << " seed " << kSeed);
      std::mt19937 rng(kSeed);
      const size_t lda = s.k + 3, ldc = s.n + 2;
      const std::vector<float> a = random_floats(s.m * lda, rng);
      const std::vector<float> b = random_floats(s.k * s.n, rng);
      const std::vector<float> bias = random_floats(s.n, rng);
      std::vector<float> packed(packed_gemm_weights_floats(kernel.nr, s.k, 1, s.n));
      pack_gemm_weights(kernel.nr, s.k, 1, s.n, b.data(), s.n, 1, bias.data(), packed.data());
      std::vector<float> got(s.m * ldc, kCanary), want(s.m * ldc, kCanary);
      gemm_f32(kernel, s.m, s.n, s.k, a.data(), lda, packed.data(), got.data(), ldc, MinMax{});
      reference_gemm(s.m, s.n, s.k, a.data(), lda, b.data(), s.n, bias.data(), want.data(), ldc);
      for (size_t i = 0; i < s.m; ++i) {
        for (size_t j = 0; j < ldc; ++j) {
          const float g = got[i * ldc + j], w = want[i * ldc + j];
          if (j >= s.n) {
            REQUIRE(g == kCanary);
            continue;
          }
          double magnitude = std::fabs(bias[j]);
          for (size_t p = 0; p < s.k; ++p) magnitude += std::fabs(a[i * lda + p] * b[p * s.n + j]);
          REQUIRE(std::fabs(g - w) <= (s.k + 4) * 1.2e-7 * magnitude);
        }
      }
    }
  }
}

TEST_CASE("gemm clamp propagates NaN and best_gemm_kernel respects the ISA cap") {
  const GemmKernel& best = best_gemm_kernel(detected_isa());
  REQUIRE(isa_supported(best.isa));
  REQUIRE(best_gemm_kernel(Isa::kScalar).isa == Isa::kScalar);
  for (const GemmKernel& kernel : gemm_kernels()) {
    if (!isa_supported(kernel.isa)) continue;
    INFO("kernel " << kernel.name);
    std::vector<float> a(1, std::numeric_limits<float>::quiet_NaN());
    std::vector<float> packed(packed_gemm_weights_floats(kernel.nr, 1, 1, 1), 1.0f);
    float c = 0.0f;
    gemm_f32(kernel, 1, 1, 1, a.data(), 1, packed.data(), &c, 1, relu6());
    REQUIRE(std::isnan(c));
  }
}

}  // namespace
}  // namespace tessera::kernels
