// A 3x3 stride-1 convolution by Winograd F(4x4, 3x3) or F(2x2, 3x3): per block of tiles, the
// input transform, a GEMM over the input channels per transform point (36 or 16) on the GEMM
// micro-kernel, and the output transform with the epilogue. The tile grid is the
// output's own (origin at pixel 0), so a tile's value never depends on the tiling: any
// split of rows and channels gives the same bits.
#include <algorithm>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/base/checked_math.h"
#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd.h"
#include "core/ops/conv_kernel_base.h"
#include "core/ops/epilogue.h"
#include "core/ops/packed_weights.h"

namespace tessera::ops {

namespace {

class WinogradConvKernel final : public ConvKernelBase {
 public:
  WinogradConvKernel(const ConvAttrs& a, const BindArgs& args, const ConvWeights& weights, const float* bias)
      : ConvKernelBase(a, args),
        v_row_(static_cast<int64_t>(kernels::winograd_row_floats(static_cast<size_t>(g_.in_c)))),
        gemm_(kernels::gemm_kernel_for(args.max_isa, static_cast<size_t>(g_.out_c), sizeof(float) * v_row_)),
        tile_(winograd_tile(a.algorithm)),
        transforms_(kernels::best_winograd_kernels(args.max_isa, tile_)) {
    point_floats_ = kernels::packed_gemm_weights_floats(gemm_.nr, g_.in_c, 1, g_.out_c);
    const PackKey key = pack_key("winograd_conv", {weights.data, weights.scale},
                                 {static_cast<double>(tile_.output), static_cast<double>(gemm_.nr),
                                  static_cast<double>(g_.out_c), static_cast<double>(g_.in_c)});
    packed_ = packed_weights(args, key, tile_.points() * point_floats_, [&](float* dst) {
      kernels::pack_winograd_weights(tile_, gemm_.nr, g_.out_c, g_.in_c, weights.data, weights.scale, dst);
    });
    bias_.assign(g_.out_c, 0.0f);
    if (bias) std::copy(bias, bias + g_.out_c, bias_.begin());
    zeros_.assign(g_.in_c, 0.0f);
    tiles_w_ = ceil_div(g_.out_w, tile_.output);
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    TESSERA_CHECK(r.begin[3] == 0 && r.end[3] == g_.out_w);  // tiles are whole rows
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const float* residual = residual_data(ctx);
    const Scratch s = scratch(ctx);
    const int64_t first_row = r.begin[2] / tile_.output;
    const int64_t tiles = (ceil_div(r.end[2], tile_.output) - first_row) * tiles_w_;
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      for (int64_t t0 = 0; t0 < tiles; t0 += gemm_.mr) {
        const int64_t m = std::min<int64_t>(gemm_.mr, tiles - t0);
        for (int64_t t = 0; t < m; ++t) transform_input(x, n, first_row * tiles_w_ + t0 + t, t, s);
        for (int64_t c = r.begin[1]; c < r.end[1]; c += gemm_.nr) {
          const int64_t nc = std::min<int64_t>(gemm_.nr, r.end[1] - c);
          multiply(c, nc, m, s);
          for (int64_t t = 0; t < m; ++t)
            transform_output(y, residual, n, first_row * tiles_w_ + t0 + t, t, c, nc, r, s);
        }
      }
      if (!attrs_.epilogue.has_tail()) continue;
      apply_epilogue_tail_rows(elementwise_, attrs_.epilogue, y + out_offset(n, r.begin[2], 0, r.begin[1]),
                               r.extent(2) * g_.out_w, r.extent(1), g_.out_c);
    }
  }

  size_t scratch_floats(const Region&) const override {
    return static_cast<size_t>(tile_.points() * gemm_.mr * (v_row_ + gemm_.nr)) + pointer_floats();
  }
  std::string kernel_name() const override { return std::string(transforms_.name) + "+" + gemm_.name; }
  bool valid() const { return packed_ != nullptr; }

 private:
  // The scratch: transformed inputs V[point][tile][channel], the GEMMs' sums M[point][tile][nr]
  // for one panel, then pointers (one per input pixel of a tile, or one per GEMM row).
  struct Scratch {
    float* v;
    float* m;
    const float** pointers;
  };
  Scratch scratch(const ExecContext& ctx) const {
    float* v = ctx.scratch;
    float* m = v + tile_.points() * gemm_.mr * v_row_;
    return {v, m, reinterpret_cast<const float**>(m + tile_.points() * gemm_.mr * gemm_.nr)};
  }
  size_t pointer_floats() const { return pointer_scratch_floats(std::max<size_t>(tile_.points(), gemm_.mr)); }

  // Transforms the input of tile `tile` (row-major over the image's tiles) into slot `slot`.
  void transform_input(const float* x, int64_t n, int64_t tile, int64_t slot, const Scratch& s) const {
    const float* image = x + n * g_.in_h * g_.in_w * g_.in_c;
    const int64_t ih0 = tile / tiles_w_ * tile_.output - attrs_.pad_top;
    const int64_t iw0 = tile % tiles_w_ * tile_.output - attrs_.pad_left;
    const int side = tile_.input();
    for (int i = 0; i < side; ++i) {
      for (int j = 0; j < side; ++j) {
        const int64_t ih = ih0 + i, iw = iw0 + j;
        const bool inside = ih >= 0 && ih < g_.in_h && iw >= 0 && iw < g_.in_w;
        s.pointers[i * side + j] = inside ? image + (ih * g_.in_w + iw) * g_.in_c : zeros_.data();
      }
    }
    transforms_.input(g_.in_c, s.pointers, s.v + slot * v_row_, gemm_.mr * v_row_);
  }

  // The points' GEMMs of m tiles for nc output channels from c (panel-aligned) into M.
  void multiply(int64_t c, int64_t nc, int64_t m, const Scratch& s) const {
    TESSERA_CHECK(c % gemm_.nr == 0);  // tiles are panel-aligned
    const size_t panel = kernels::packed_gemm_panel_offset(gemm_.nr, g_.in_c, 1, c / gemm_.nr);
    for (int point = 0; point < tile_.points(); ++point) {
      const float* v = s.v + point * gemm_.mr * v_row_;
      // Rows past m repeat the last tile (gemm.h: every slot is read).
      for (int64_t t = 0; t < gemm_.mr; ++t) s.pointers[t] = v + std::min(t, m - 1) * v_row_;
      gemm_.ukernel(m, nc, g_.in_c, 1, s.pointers, packed_->as<float>() + point * point_floats_ + panel, nullptr,
                    s.m + point * gemm_.mr * gemm_.nr, gemm_.nr, nullptr, 0, kernels::MinMax{});
    }
  }

  // Tile `tile`'s outputs for nc channels from c, the rows of region r only.
  void transform_output(float* y, const float* residual, int64_t n, int64_t tile, int64_t slot, int64_t c, int64_t nc,
                        const Region& r, const Scratch& s) const {
    const int64_t row = tile / tiles_w_ * tile_.output, col = tile % tiles_w_ * tile_.output;
    const int64_t row_begin = std::max<int64_t>(0, r.begin[2] - row);
    const int64_t row_end = std::min<int64_t>(tile_.output, r.end[2] - row);
    const int64_t cols = std::min<int64_t>(tile_.output, g_.out_w - col);
    const int64_t o = out_offset(n, row, col, c);
    transforms_.output(nc, s.m + slot * gemm_.nr, gemm_.mr * gemm_.nr, bias_.data() + c, y + o, g_.out_w * g_.out_c,
                       g_.out_c, residual ? residual + o : nullptr, row_begin, row_end, cols, attrs_.epilogue.clamp);
  }

  const int64_t v_row_;  // floats between two tiles' transformed inputs
  const kernels::GemmKernel& gemm_;
  const kernels::WinogradTile tile_;
  const kernels::WinogradKernels& transforms_;
  size_t point_floats_ = 0;  // packed weights of one transform point
  int64_t tiles_w_ = 0;      // tiles across the output's width
  std::shared_ptr<const AlignedBuffer> packed_;
  std::vector<float> bias_, zeros_;
};

}  // namespace

std::unique_ptr<TileKernel> bind_winograd(const ConvAttrs& a, const BindArgs& args, const ConvWeights& weights,
                                          const float* bias) {
  auto kernel = std::make_unique<WinogradConvKernel>(a, args, weights, bias);
  if (!kernel->valid()) return nullptr;
  return kernel;
}

}  // namespace tessera::ops
