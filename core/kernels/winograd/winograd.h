// Winograd F(m x m, 3x3) convolution transforms (Lavin and Gray, 2016), for two tile sizes:
// F(4x4, 3x3) (points 0, +-1, +-2 and infinity) and F(2x2, 3x3) (0, +-1 and infinity). A 3x3
// stride-1 convolution becomes, per (m+2) x (m+2) input tile that gives m x m outputs:
//   V = B^T d B (input transform), U = G g G^T (weights, once, at packing),
//   M[xi] = sum over input channels of V[xi] * U[xi], for each transform point xi (GEMMs),
//   Y = A^T M A (output transform).
// F(4x4) does 4x fewer multiplies than the direct convolution for weights 4x larger; F(2x2)
// 2.25x fewer for weights 1.8x larger, on tiles that waste less of a small image. The GEMMs
// run on the GEMM micro-kernels; this family holds the transforms, vectorised over channels
// (NHWC keeps a pixel's channels contiguous), and the weight packing.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"
#include "core/kernels/activation.h"

namespace tessera::kernels {

// The tile of F(output x output, 3x3).
struct WinogradTile {
  int output;  // outputs per tile side: 2 or 4
  constexpr int input() const { return output + 2; }
  constexpr int points() const { return input() * input(); }
  bool operator==(const WinogradTile&) const = default;
};
inline constexpr WinogradTile kWinogradF2{2};
inline constexpr WinogradTile kWinogradF4{4};
inline constexpr int kWinogradMaxPoints = kWinogradF4.points();

// V[xi] = (B^T d B)[xi] for `channels` channels: in[i * input + j] points to the channels of
// input pixel (i, j) of the tile (a zero row where the tile leaves the image); V[xi] is written
// at v + xi * v_stride.
using WinogradInputFn = void (*)(size_t channels, const float* const* in, float* v, size_t v_stride);

// Y = clamp(A^T M A + bias (+ residual)) for `channels` channels: M[xi] is read at
// m + xi * m_stride; output (r, c) of the tile, for rows [row_begin, row_end) and columns
// [0, cols), is written at y + r * y_row_stride + c * y_pixel_stride (the residual has the
// same layout; may be null).
using WinogradOutputFn = void (*)(size_t channels, const float* m, size_t m_stride, const float* bias, float* y,
                                  size_t y_row_stride, size_t y_pixel_stride, const float* residual, size_t row_begin,
                                  size_t row_end, size_t cols, const MinMax& clamp);

struct WinogradKernels {
  const char* name;  // e.g. "f32_winograd_f4x4_3x3_avx512"
  Isa isa;
  WinogradTile tile;
  WinogradInputFn input;
  WinogradOutputFn output;
};

// Every compiled transform pair, of both tile sizes, best first (check isa_supported before
// calling one).
std::span<const WinogradKernels> winograd_kernels();

// The first entry of winograd_kernels() for `tile` whose ISA is supported and not above `max_isa`.
const WinogradKernels& best_winograd_kernels(Isa max_isa, WinogradTile tile);

// Floats between two tiles' transformed inputs of `channels` channels: whole cache lines, and
// never a multiple of 4 KiB (rows that share an L1 set: gemm.h).
size_t winograd_row_floats(size_t channels);

// Floats of packed Winograd weights: one GEMM weight block (pack_gemm_weights' layout, zero
// biases, depth cin) per point.
size_t packed_winograd_weights_floats(WinogradTile tile, int nr, size_t cin, size_t cout);

// Transforms 3x3 weights [cout, cin, 3, 3], each times its output channel's `scale` (null:
// none), in double, rounded once, and packs U[xi], a cin x cout matrix, as GEMM panels of
// width nr at packed + xi * (the floats of one point).
void pack_winograd_weights(WinogradTile tile, int nr, size_t cout, size_t cin, const float* w, const float* scale,
                           float* packed);

}  // namespace tessera::kernels
