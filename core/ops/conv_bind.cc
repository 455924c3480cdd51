// Conv bound to fast kernels: the direct depthwise kernel when each channel is its own
// group, Winograd's transforms around GEMMs where the algorithm says, otherwise an indirect
// GEMM over the tile's output pixels (NHWC in and out).
#include <algorithm>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/kernels/dwconv/dwconv.h"
#include "core/kernels/gemm/gemm.h"
#include "core/ops/conv.h"
#include "core/ops/conv_kernel_base.h"
#include "core/ops/conv_weights.h"
#include "core/ops/epilogue.h"
#include "core/ops/packed_weights.h"

namespace tessera::ops {

namespace {

class DepthwiseConvKernel final : public ConvKernelBase {
 public:
  DepthwiseConvKernel(const ConvAttrs& a, const BindArgs& args, const ConvWeights& weights, const float* bias)
      : ConvKernelBase(a, args), kernel_(kernels::best_dwconv_kernel(args.max_isa)) {
    const int64_t taps = a.kernel_h * a.kernel_w;
    const PackKey key =
        pack_key("dwconv", {weights.data, weights.scale}, {static_cast<double>(g_.out_c), static_cast<double>(taps)});
    packed_ = packed_weights(args, key, g_.out_c * taps, [&](float* dst) {
      kernels::pack_dwconv_weights(g_.out_c, taps, weights.data, weights.scale, dst);
    });
    if (!valid()) return;
    bias_.assign(g_.out_c, 0.0f);
    if (bias) std::copy(bias, bias + g_.out_c, bias_.begin());
    dw_ = {static_cast<size_t>(g_.in_h),      static_cast<size_t>(g_.in_w),      static_cast<size_t>(g_.in_c),
           static_cast<size_t>(g_.out_h),     static_cast<size_t>(g_.out_w),     static_cast<size_t>(a.kernel_h),
           static_cast<size_t>(a.kernel_w),   static_cast<size_t>(a.stride_h),   static_cast<size_t>(a.stride_w),
           static_cast<size_t>(a.dilation_h), static_cast<size_t>(a.dilation_w), static_cast<size_t>(a.pad_top),
           static_cast<size_t>(a.pad_left)};
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    TESSERA_CHECK(r.begin[3] == 0 && r.end[3] == g_.out_w);  // tiles are whole rows
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const float* residual = residual_data(ctx);
    const int64_t image_in = g_.in_h * g_.in_w * g_.in_c;
    const int64_t image_out = g_.out_h * g_.out_w * g_.out_c;
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      kernel_.fn(dw_, x + n * image_in, packed_->as<float>(), bias_.data(), y + n * image_out, r.begin[2], r.end[2],
                 r.begin[1], r.end[1], residual ? residual + n * image_out : nullptr, attrs_.epilogue.clamp);
      if (!attrs_.epilogue.has_tail()) continue;
      // The tile's rows are contiguous pixels: one pass over them, not one call per pixel
      // (a block of channels goes through the scratch in long calls).
      apply_epilogue_tail_rows(elementwise_, attrs_.epilogue, y + out_offset(n, r.begin[2], 0, r.begin[1]),
                               r.extent(2) * g_.out_w, r.extent(1), g_.out_c, ctx.scratch);
    }
  }
  size_t scratch_floats(const Region& r) const override {
    const bool gathers = attrs_.epilogue.has_tail() && r.extent(1) < g_.out_c;
    return gathers ? static_cast<size_t>(kTailScratchFloats) : 0;
  }
  std::string kernel_name() const override { return kernel_.name; }
  bool valid() const { return packed_ != nullptr; }

 private:
  const kernels::DwConvKernel& kernel_;
  std::shared_ptr<const AlignedBuffer> packed_;
  std::vector<float> bias_;
  kernels::DwConvGeometry dw_;
};

class IgemmConvKernel final : public ConvKernelBase {
 public:
  IgemmConvKernel(const ConvAttrs& a, const BindArgs& args, const ConvWeights& weights, const float* bias)
      : ConvKernelBase(a, args),
        gemm_(kernels::gemm_kernel_for(args.max_isa, static_cast<size_t>(g_.out_per_group),
                                       static_cast<size_t>(igemm_row_bytes(a, args.shapes)))) {
    taps_ = a.kernel_h * a.kernel_w;
    group_floats_ = kernels::packed_gemm_weights_floats(gemm_.nr, g_.in_per_group, taps_, g_.out_per_group);
    const PackKey key =
        pack_key("igemm_conv", {weights.data, weights.scale, bias},
                 {static_cast<double>(gemm_.nr), static_cast<double>(g_.group), static_cast<double>(g_.out_per_group),
                  static_cast<double>(g_.in_per_group), static_cast<double>(taps_)});
    packed_ = packed_weights(args, key, group_floats_ * g_.group, [&](float* dst) {
      for (int64_t grp = 0; grp < g_.group; ++grp) {
        const int64_t first = grp * g_.out_per_group;
        kernels::pack_conv_weights(
            gemm_.nr, g_.out_per_group, g_.in_per_group, taps_, weights.data + first * g_.in_per_group * taps_,
            weights.scale ? weights.scale + first : nullptr, bias ? bias + first : nullptr, dst + grp * group_floats_);
      }
    });
    if (!valid()) return;
    zeros_.assign(a.kernel_w * g_.in_per_group, 0.0f);  // a tap's channels, or a kernel row's
    pixel_blocks_outer_ = sizeof(float) * group_floats_ <= kSmallWeightsBytes;
    gather_rows_ = gathers_rows(a, args.shapes);
    pointwise_ = taps_ == 1 && a.stride_h == 1 && a.stride_w == 1 && a.pad_top == 0 && a.pad_left == 0 &&
                 g_.in_h == g_.out_h && g_.in_w == g_.out_w;
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    TESSERA_CHECK(r.begin[3] == 0 && r.end[3] == g_.out_w);  // tiles are whole rows
    const Block block{input_data(in_, ctx), tensor_data(out_, ctx), residual_data(ctx),
                      reinterpret_cast<const float**>(ctx.scratch)};
    const int64_t pixels = r.extent(2) * g_.out_w;  // output pixels of one image in this tile
    const int64_t first_pixel = r.begin[2] * g_.out_w;
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      // The epilogue's tail over pixels [from, to) of channels [c, c + nc) once they make
      // kTailFloats outputs or end the tile, then `from` moves to `to`: a run of blocks still
      // in L1, where per block and panel its calls would cost more than a narrow layer's FMAs.
      const auto tail_up_to = [&](int64_t c, int64_t nc, int64_t& from, int64_t to) {
        if ((to - from) * nc < kTailFloats && to != pixels) return;
        apply_tail(block, n, c, nc, first_pixel + from, to - from);
        from = to;
      };
      for (int64_t grp = r.begin[1] / g_.out_per_group; grp * g_.out_per_group < r.end[1]; ++grp) {
        // This group's output channels inside the tile, as NR-wide panels.
        const int64_t c0 = std::max(r.begin[1], grp * g_.out_per_group);
        const int64_t c1 = std::min(r.end[1], (grp + 1) * g_.out_per_group);
        TESSERA_CHECK((c0 - grp * g_.out_per_group) % gemm_.nr == 0);  // tiles are panel-aligned
        if (pixel_blocks_outer_) {
          // Small weights stay in cache: row pointers are built once per pixel block.
          int64_t tail_from = 0;
          for (int64_t p = 0; p < pixels; p += gemm_.mr) {
            const int64_t m = std::min<int64_t>(gemm_.mr, pixels - p);
            fill_row_pointers(block.pointers, block.x, n, grp, first_pixel + p, m);
            for (int64_t c = c0; c < c1; c += gemm_.nr)
              multiply(block, n, grp, c, std::min<int64_t>(gemm_.nr, c1 - c), first_pixel + p, m, false);
            tail_up_to(c0, c1 - c0, tail_from, p + m);
          }
        } else {
          // Large weights: one panel at a time stays in L2 while the pixels stream past.
          for (int64_t c = c0; c < c1; c += gemm_.nr) {
            const int64_t nc = std::min<int64_t>(gemm_.nr, c1 - c);
            int64_t tail_from = 0;
            for (int64_t p = 0; p < pixels; p += gemm_.mr) {
              const int64_t m = std::min<int64_t>(gemm_.mr, pixels - p);
              fill_row_pointers(block.pointers, block.x, n, grp, first_pixel + p, m);
              // The group's next panel (most often the next tile's) streams in while this
              // one's first block runs.
              const bool prefetch_next = p == 0 && pixels > gemm_.mr && c + gemm_.nr < (grp + 1) * g_.out_per_group;
              multiply(block, n, grp, c, nc, first_pixel + p, m, prefetch_next);
              tail_up_to(c, nc, tail_from, p + m);
            }
          }
        }
      }
    }
  }

  size_t scratch_floats(const Region&) const override {
    return pointer_floats() + (gather_rows_ ? static_cast<size_t>(gemm_.mr * taps_ * g_.in_per_group) : 0);
  }
  std::string kernel_name() const override { return gemm_.name; }
  bool valid() const { return packed_ != nullptr; }

 private:
  struct Block {
    const float* x;
    float* y;
    const float* residual;
    const float** pointers;
  };

  // One micro-kernel call: m pixels from `pixel` x nc channels from `c`, with the epilogue's
  // residual and clamp; with `prefetch_next`, asking for the next panel's weights as it goes.
  void multiply(const Block& b, int64_t n, int64_t grp, int64_t c, int64_t nc, int64_t pixel, int64_t m,
                bool prefetch_next) const {
    const int64_t panel = (c - grp * g_.out_per_group) / gemm_.nr;
    const float* w = packed_->as<float>() + grp * group_floats_ +
                     kernels::packed_gemm_panel_offset(gemm_.nr, g_.in_per_group, taps_, panel);
    const float* next =
        prefetch_next ? w + kernels::packed_gemm_panel_offset(gemm_.nr, g_.in_per_group, taps_, 1) : nullptr;
    const int64_t o = out_offset(n, 0, 0, c) + pixel * g_.out_c;
    // A kernel row's taps as one tap of all their channels: the same k order, the same sums.
    const int64_t kc = gather_rows_ ? attrs_.kernel_w * g_.in_per_group : g_.in_per_group;
    gemm_.ukernel(m, nc, kc, gather_rows_ ? attrs_.kernel_h : taps_, b.pointers, w, next, b.y + o, g_.out_c,
                  b.residual ? b.residual + o : nullptr, g_.out_c, attrs_.epilogue.clamp);
  }

  // The rest of the epilogue (activation, scale, shift) on m pixels from `pixel` x nc
  // channels from `c`.
  void apply_tail(const Block& b, int64_t n, int64_t c, int64_t nc, int64_t pixel, int64_t m) const {
    if (!attrs_.epilogue.has_tail()) return;
    apply_epilogue_tail_rows(elementwise_, attrs_.epilogue, b.y + out_offset(n, 0, 0, c) + pixel * g_.out_c, m, nc,
                             g_.out_c);
  }

  // Row pointers for MR output pixels starting at `pixel` (row-major within the image): one
  // set per kernel tap, or with few input channels (gathers_rows), where a tap's pointer would
  // feed the micro-kernel a handful of FMAs, one set per kernel row: its taps' channels side
  // by side (k = tap x channels + channel within the row, the order the weights are packed
  // in). A kernel row inside the image is read where it lies; one in the padding is gathered
  // into the scratch.
  void fill_row_pointers(const float** a, const float* x, int64_t n, int64_t grp, int64_t pixel, int64_t m) const {
    if (pointwise_) return fill_pixel_pointers(a, x, n, grp, pixel, m);
    if (!gather_rows_) return fill_tap_pointers(a, x, n, grp, pixel, m);
    const float* image = x + n * g_.in_h * g_.in_w * g_.in_c + grp * g_.in_per_group;
    const int64_t cin = g_.in_per_group, row = attrs_.kernel_w * cin;
    // Adjacent input pixels hold only this group's channels: a kernel row is one run of them.
    const bool contiguous = attrs_.dilation_w == 1 && cin == g_.in_c;
    float* rows = reinterpret_cast<float*>(a) + pointer_floats();
    int64_t oh = pixel / g_.out_w, ow = pixel % g_.out_w;
    for (int64_t i = 0; i < gemm_.mr; ++i) {
      const int64_t iw0 = ow * attrs_.stride_w - attrs_.pad_left;
      for (int64_t kh = 0; kh < attrs_.kernel_h; ++kh) {
        const int64_t ih = oh * attrs_.stride_h - attrs_.pad_top + kh * attrs_.dilation_h;
        const float** slot = a + kh * gemm_.mr + i;
        if (ih < 0 || ih >= g_.in_h) {
          *slot = zeros_.data();
        } else if (contiguous && iw0 >= 0 && iw0 + attrs_.kernel_w <= g_.in_w) {
          *slot = image + (ih * g_.in_w + iw0) * g_.in_c;
        } else {
          float* to = rows + (i * attrs_.kernel_h + kh) * row;
          for (int64_t kw = 0; kw < attrs_.kernel_w; ++kw) {
            const int64_t iw = iw0 + kw * attrs_.dilation_w;
            const bool inside = iw >= 0 && iw < g_.in_w;
            for (int64_t c = 0; c < cin; ++c)
              to[kw * cin + c] = inside ? image[(ih * g_.in_w + iw) * g_.in_c + c] : 0.0f;
          }
          *slot = to;
        }
      }
      if (i + 1 < m && ++ow == g_.out_w) ow = 0, ++oh;  // rows past m repeat the last pixel
    }
  }

  // A pointwise convolution reads output pixel p's input at pixel p: its rows are consecutive
  // pixels, the pointers fill_tap_pointers would place without placing a window per row (a
  // block of MobileNetV2's 32 input channels is ~80 ns of FMAs, and that placing added half).
  void fill_pixel_pointers(const float** a, const float* x, int64_t n, int64_t grp, int64_t pixel, int64_t m) const {
    const float* first = x + (n * g_.in_h * g_.in_w + pixel) * g_.in_c + grp * g_.in_per_group;
    for (int64_t i = 0; i < gemm_.mr; ++i) a[i] = first + std::min(i, m - 1) * g_.in_c;
  }

  // Per tap: taps in the padding read zeros, rows past m repeat the last pixel.
  void fill_tap_pointers(const float** a, const float* x, int64_t n, int64_t grp, int64_t pixel, int64_t m) const {
    const float* image = x + n * g_.in_h * g_.in_w * g_.in_c + grp * g_.in_per_group;
    int64_t oh = pixel / g_.out_w, ow = pixel % g_.out_w;
    for (int64_t i = 0; i < gemm_.mr; ++i) {
      for (int64_t kh = 0; kh < attrs_.kernel_h; ++kh) {
        const int64_t ih = oh * attrs_.stride_h - attrs_.pad_top + kh * attrs_.dilation_h;
        const bool row_inside = ih >= 0 && ih < g_.in_h;
        for (int64_t kw = 0; kw < attrs_.kernel_w; ++kw) {
          const int64_t iw = ow * attrs_.stride_w - attrs_.pad_left + kw * attrs_.dilation_w;
          const bool inside = row_inside && iw >= 0 && iw < g_.in_w;
          a[(kh * attrs_.kernel_w + kw) * gemm_.mr + i] =
              inside ? image + (ih * g_.in_w + iw) * g_.in_c : zeros_.data();
        }
      }
      if (i + 1 < m && ++ow == g_.out_w) ow = 0, ++oh;  // rows past m repeat the last pixel
    }
  }

  // The row pointers, first in the scratch (one per tap and row, or per kernel row and row);
  // gathered kernel rows follow them.
  size_t pointer_floats() const {
    const int64_t pointers = (gather_rows_ ? attrs_.kernel_h : taps_) * gemm_.mr;
    return pointer_scratch_floats(pointers);
  }

  const kernels::GemmKernel& gemm_;
  // Packed weights of a group up to this size stay in L2 across a tile's pixel blocks.
  static constexpr size_t kSmallWeightsBytes = 256 * 1024;
  // The epilogue's tail runs over at least this many outputs at once (8 KiB, in L1).
  static constexpr int64_t kTailFloats = 2048;

  int64_t taps_ = 1;
  size_t group_floats_ = 0;
  bool pixel_blocks_outer_ = true;
  bool gather_rows_ = false;
  bool pointwise_ = false;  // 1x1, stride 1, no padding: output pixel p reads input pixel p
  std::shared_ptr<const AlignedBuffer> packed_;
  std::vector<float> zeros_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ConvAttrs& a, const BindArgs& args) {
  auto out_of_memory = [&] { return Status::error(args.path + ": out of memory packing weights"); };
  const ConvWeights weights{args.inputs[1].constant_floats(),
                            a.weight_scale_input >= 0 ? args.inputs[a.weight_scale_input].constant_floats() : nullptr,
                            args.shapes.inputs[1], a.group, false};
  const float* bias = a.has_bias ? args.inputs[2].constant_floats() : nullptr;
  if (weights.data == nullptr || (a.has_bias && bias == nullptr) ||
      (a.weight_scale_input >= 0 && weights.scale == nullptr)) {
    return Status::error(args.path + ": internal error: conv weights are not bound as constants");
  }
  const ConvGeometry g = geometry(a, args.shapes);
  if (g.group == g.in_c && g.group == g.out_c) {
    auto kernel = std::make_unique<DepthwiseConvKernel>(a, args, weights, bias);
    if (!kernel->valid()) return out_of_memory();
    return std::unique_ptr<TileKernel>(std::move(kernel));
  }
  if (a.algorithm != ConvAlgorithm::kGemm) {
    if (!winograd_allowed(a, args.shapes, a.algorithm)) {
      return Status::error(args.path + ": Winograd applies to 3x3 stride-1 convolutions of one group and at least " +
                           std::to_string(kWinogradMinChannels) + " channels, where its weights stay small");
    }
    std::unique_ptr<TileKernel> kernel = bind_winograd(a, args, weights, bias);
    if (kernel == nullptr) return out_of_memory();
    return kernel;
  }
  auto kernel = std::make_unique<IgemmConvKernel>(a, args, weights, bias);
  if (!kernel->valid()) return out_of_memory();
  return std::unique_ptr<TileKernel>(std::move(kernel));
}

}  // namespace tessera::ops
