// Whole-matrix GEMM driver: NR panels outer, MR row blocks inner.
#include "core/kernels/gemm/gemm_driver.h"

#include "core/base/check.h"

namespace tessera::kernels {

// One B panel (kdim x nr floats: 64 KB for kdim = 512, nr = 32) stays in L2 while every row
// block of A streams past it, so B is read from memory once; each row block of A (mr x kdim)
// is re-read once per panel, from L2/L3. No K blocking: the panel of the largest layers we
// target (kdim = 4608, nr = 32: 576 KB) still fits a 1 MB L2, and not splitting K keeps one
// accumulation chain per output element.
void gemm_f32(const GemmKernel& kernel, size_t m, size_t n, size_t kdim, const float* a, size_t lda,
              const float* packed_b, float* c, size_t ldc, const MinMax& clamp) {
  TESSERA_CHECK(kernel.mr <= kGemmMaxMr);
  if (m == 0) return;
  const size_t mr = static_cast<size_t>(kernel.mr);
  const size_t nr = static_cast<size_t>(kernel.nr);
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const float* panel = packed_b + packed_gemm_panel_offset(kernel.nr, kdim, 1, j0 / nr);
    const size_t nc = n - j0 < nr ? n - j0 : nr;
    for (size_t i0 = 0; i0 < m; i0 += mr) {
      const size_t rows = m - i0 < mr ? m - i0 : mr;
      const float* row_ptrs[kGemmMaxMr];
      for (size_t r = 0; r < mr; ++r) row_ptrs[r] = a + (i0 + (r < rows ? r : rows - 1)) * lda;
      kernel.ukernel(rows, nc, kdim, 1, row_ptrs, panel, nullptr, c + i0 * ldc + j0, ldc, nullptr, 0, clamp);
    }
  }
}

}  // namespace tessera::kernels
