// The GEMM micro-kernel family: one generic template (gemm_impl.h), instantiated per ISA.
// Convolutions run through it as an indirect GEMM (IGEMM): the A operand is a list of row
// pointers per kernel tap, so no im2col buffer exists and padding reads a zero row.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"
#include "core/kernels/activation.h"

namespace tessera::kernels {

// Computes an mr x nc block of C, for mr <= kernel.mr and nc <= kernel.nr:
//   acc[r][j] = bias[j] + sum over taps t < ks, k < kc of a[t * MR + r][k] * B[t * kc + k][j]
//   c[r * c_stride + j] = clamp(acc[r][j] + (residual ? residual[r * residual_stride + j] : 0))
// `a` holds ks * MR row pointers (MR = kernel.mr), each to kc contiguous floats; the caller
// fills all MR slots of each tap (repeating a valid row where r >= mr). `packed_w` is one NR
// panel in the layout of pack_gemm_weights. Accumulation order is fixed (bias, then t, then
// k ascending, one fma per term), so each output element's value does not depend on mr, nc
// or where the block sits: tiles of any shape give bitwise identical results.
// `prefetch_w`, when not null, is a panel of the same shape that the caller reads next from
// memory: its rows are asked for (into the caches) as this panel's are read. A panel read by
// several row blocks passes its successor on its first block, so that weights too large for
// the caches stream in behind the FMAs instead of stalling the next panel's first block.
using GemmUkernelFn = void (*)(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* packed_w,
                               const float* prefetch_w, float* c, size_t c_stride, const float* residual,
                               size_t residual_stride, const MinMax& clamp);

// No kernel has more rows than this: callers may size row-pointer arrays with it.
inline constexpr int kGemmMaxMr = 16;

// The rows a micro-kernel of `kernel_mr` rows computes for a block of `rows` (at most
// kernel_mr): a block of one row runs a one-row instance of it (a batch-1 classifier's
// matrix-vector product), a ragged block of at most half its rows a half-height instance
// (where that is more than one row), any other block the whole kernel.
constexpr size_t gemm_block_rows(size_t rows, size_t kernel_mr) {
  if (rows <= 1) return rows;
  if (kernel_mr / 2 > 1 && rows <= kernel_mr / 2) return kernel_mr / 2;
  return kernel_mr;
}

// The rows computed for `rows` rows in blocks of `kernel_mr`: whole blocks, then the rest.
constexpr size_t gemm_rows_computed(size_t rows, size_t kernel_mr) {
  return rows / kernel_mr * kernel_mr + gemm_block_rows(rows % kernel_mr, kernel_mr);
}

struct GemmKernel {
  const char* name;  // e.g. "f32_gemm_14x32_avx512"
  Isa isa;
  int mr;
  int nr;
  GemmUkernelFn ukernel;
  // 256-bit vectors in an AVX-512 kernel: chosen only where 512-bit FMAs are split in two
  // (kernels::avx512_fma_split), since elsewhere they run at half the rate.
  bool half_width = false;
};

// Every compiled GEMM kernel, best first (entries for ISAs this CPU lacks are included;
// check isa_supported before calling one).
std::span<const GemmKernel> gemm_kernels();

// The first kernel of gemm_kernels() whose ISA is supported and not above `max_isa`.
const GemmKernel& best_gemm_kernel(Isa max_isa);

// Rows of A that lie a multiple of 4 KiB apart fall in one L1 set (x86 L1Ds have 64 sets of
// 64-byte lines: 8 ways on Zen 4, 12 on Zen 5), so a kernel with more rows than ways evicts its
// own A lines at every k step (a 1024-channel 1x1 convolution: 73 instead of 89 GFLOP/s).
inline constexpr size_t kL1SetStrideBytes = 4096;
inline constexpr int kL1Ways = 8;

// Output columns a narrower panel must save, as a share of the widest panel's padded columns,
// before it is chosen: a narrower panel re-reads A once more per column block.
inline constexpr double kNarrowPanelSaving = 0.25;

// The panel width (nr) for a GEMM of `columns` output columns under `max_isa`: of the ISA's
// kernels that suit this core, the panel that pads the fewest columns (the widest of equals),
// if it pads at least kNarrowPanelSaving fewer than the best kernel's (16 outputs on a 32-wide
// panel compute 16 zeros: half the FMAs wasted); else the best kernel's.
int gemm_panel_width(Isa max_isa, size_t columns);

// The kernel for `columns` output columns whose A rows lie `row_stride_bytes` apart: of the
// ISA's kernels with gemm_panel_width's panel, the most rows, or at most kL1Ways rows where
// the rows share an L1 set. Every kernel of an ISA gives the same bits (gemm_ukernel's fixed
// order), so the choice never changes a result.
const GemmKernel& gemm_kernel_for(Isa max_isa, size_t columns, size_t row_stride_bytes);

// Floats needed to pack n columns of a (ks * kc) x n matrix for panel width nr.
size_t packed_gemm_weights_floats(int nr, size_t kc, size_t ks, size_t n);

// Packs B (element (k, j) at b[k * b_k_stride + j * b_n_stride], k < ks * kc, j < n) into
// ceil(n / nr) panels. Panel p holds nr biases (bias may be null: zeros), then for each k,
// nr weights; columns past n are zero. Strides let one routine pack [K, N], [N, K] (transposed)
// and conv weights [Cout, Cin, KH, KW] reordered so that k = tap * kc + cin.
void pack_gemm_weights(int nr, size_t kc, size_t ks, size_t n, const float* b, size_t b_k_stride, size_t b_n_stride,
                       const float* bias, float* packed);

// Conv weights [Cout, Cin, KH, KW] of one group (cout columns starting at w) packed with
// k = (kh * KW + kw) * Cin + cin, the tap-major order the IGEMM's row pointers follow. Each
// weight is multiplied by its output channel's `scale` (a folded batch norm; null: none) as it
// is copied, so the scaled weights never exist whole.
void pack_conv_weights(int nr, size_t cout, size_t cin, size_t kernel_taps, const float* w, const float* scale,
                       const float* bias, float* packed);

// Offset in floats of panel p within packed weights.
inline size_t packed_gemm_panel_offset(int nr, size_t kc, size_t ks, size_t panel) {
  return panel * static_cast<size_t>(nr) * (1 + kc * ks);
}

}  // namespace tessera::kernels
