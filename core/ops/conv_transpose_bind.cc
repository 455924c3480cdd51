// ConvTranspose bound to the GEMM micro-kernel. Output pixels are grouped by phase
// (oh + pad_top mod stride_h, ow + pad_left mod stride_w): all pixels of a phase meet the same
// taps, so each phase is an indirect GEMM over its taps (row pointers into the NHWC input, a
// zero row where a tap falls outside), with weights packed per phase, bias included, and
// the fused epilogue applied at the store. A few outputs from non-overlapping windows
// (runs_per_input_pixel) go per input row instead: one GEMM of the row's pixels against every
// tap's outputs, scattered to the output rows of the band. Both sum bias, then the inputs in
// order, one fma each: the same bits either way.
#include <algorithm>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/kernels/elementwise/elementwise.h"
#include "core/kernels/gemm/gemm.h"
#include "core/ops/conv_transpose.h"
#include "core/ops/conv_weights.h"
#include "core/ops/epilogue.h"
#include "core/ops/packed_weights.h"

namespace tessera::ops {

namespace {

// What both GEMM paths share: bindings, kernels, the NHWC geometry and the packed weights.
class GemmConvTransposeKernel : public TileKernel {
 public:
  GemmConvTransposeKernel(const ConvTransposeAttrs& a, const BindArgs& args)
      : a_(a),
        in_(args.inputs[0]),
        out_(args.output),
        gemm_(kernels::best_gemm_kernel(args.max_isa)),
        elementwise_(kernels::best_elementwise_kernels(args.max_isa)) {
    const Shape& x = args.shapes.inputs[0];
    const Shape& y = args.shapes.output;
    in_h_ = x[2], in_w_ = x[3], in_c_ = x[1];
    out_h_ = y[2], out_w_ = y[3], out_c_ = y[1];
  }
  bool valid() const { return packed_ != nullptr; }
  std::vector<int> copied_inputs() const override {  // weights, bias and weight scale: packed
    std::vector<int> copied{1};
    if (a_.has_bias) copied.push_back(2);
    if (a_.weight_scale_input >= 0) copied.push_back(a_.weight_scale_input);
    return copied;
  }

 protected:
  ConvTransposeAttrs a_;
  TensorBinding in_, out_;
  const kernels::GemmKernel& gemm_;
  const kernels::ElementwiseKernels& elementwise_;
  int64_t in_h_ = 0, in_w_ = 0, in_c_ = 0, out_h_ = 0, out_w_ = 0, out_c_ = 0;
  std::shared_ptr<const AlignedBuffer> packed_;
};

class PhaseGemmConvTransposeKernel final : public GemmConvTransposeKernel {
 public:
  PhaseGemmConvTransposeKernel(const ConvTransposeAttrs& a, const BindArgs& args, const ConvWeights& source,
                               const float* bias)
      : GemmConvTransposeKernel(a, args) {
    if (a.epilogue.residual_input >= 0) residual_ = args.inputs[a.epilogue.residual_input];
    cg_ = in_c_ / a.group, mg_ = out_c_ / a.group;
    // Taps of each phase along each axis: k with k * dilation = phase (mod stride).
    taps_h_.resize(a.stride_h);
    taps_w_.resize(a.stride_w);
    for (int64_t k = 0; k < a.kernel_h; ++k) taps_h_[k * a.dilation_h % a.stride_h].push_back(k);
    for (int64_t k = 0; k < a.kernel_w; ++k) taps_w_[k * a.dilation_w % a.stride_w].push_back(k);
    // Packed weights: per group, per phase (ph, pw), a [taps * cg, mg] matrix.
    size_t total = 0;
    for (int64_t ph = 0; ph < a.stride_h; ++ph) {
      for (int64_t pw = 0; pw < a.stride_w; ++pw) {
        const size_t taps = taps_h_[ph].size() * taps_w_[pw].size();
        max_taps_ = std::max(max_taps_, taps);
        phase_offset_.push_back(total);
        total += kernels::packed_gemm_weights_floats(gemm_.nr, cg_, taps, mg_);
      }
    }
    group_floats_ = total;
    const PackKey key =
        pack_key("phase_conv_transpose", {source.data, source.scale, bias},
                 {static_cast<double>(gemm_.nr), static_cast<double>(a.group), static_cast<double>(cg_),
                  static_cast<double>(mg_), static_cast<double>(a.kernel_h), static_cast<double>(a.kernel_w),
                  static_cast<double>(a.stride_h), static_cast<double>(a.stride_w), static_cast<double>(a.dilation_h),
                  static_cast<double>(a.dilation_w)});
    packed_ = packed_weights(args, key, group_floats_ * a.group, [&](float* dst) {
      std::vector<float> matrix;
      for (int64_t g = 0; g < a.group; ++g) {
        for (int64_t ph = 0; ph < a.stride_h; ++ph) {
          for (int64_t pw = 0; pw < a.stride_w; ++pw) {
            // Row (t * cg + c), column j: W[g * cg + c][j][kh_t][kw_t], taps in (kh, kw) order.
            matrix.assign(taps_h_[ph].size() * taps_w_[pw].size() * cg_ * mg_, 0.0f);
            size_t t = 0;
            for (int64_t kh : taps_h_[ph]) {
              for (int64_t kw : taps_w_[pw]) {
                for (int64_t c = 0; c < cg_; ++c) {
                  for (int64_t j = 0; j < mg_; ++j) {
                    matrix[(t * cg_ + c) * mg_ + j] =
                        source.scaled_at((((g * cg_ + c) * mg_ + j) * a.kernel_h + kh) * a.kernel_w + kw, g * mg_ + j);
                  }
                }
                ++t;
              }
            }
            kernels::pack_gemm_weights(gemm_.nr, cg_, t, mg_, matrix.data(), mg_, 1, bias ? bias + g * mg_ : nullptr,
                                       dst + g * group_floats_ + phase_offset_[ph * a.stride_w + pw]);
          }
        }
      }
    });
    if (!valid()) return;
    zeros_.assign(cg_, 0.0f);
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    TESSERA_CHECK(r.begin[3] == 0 && r.end[3] == out_w_);  // tiles are whole rows
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const float* residual = a_.epilogue.residual_input >= 0 ? input_data(residual_, ctx) : nullptr;
    const Epilogue& e = a_.epilogue;
    const float** pointers = reinterpret_cast<const float**>(ctx.scratch);
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      for (int64_t grp = r.begin[1] / mg_; grp * mg_ < r.end[1]; ++grp) {
        const int64_t c0 = std::max(r.begin[1], grp * mg_);
        const int64_t c1 = std::min(r.end[1], (grp + 1) * mg_);
        TESSERA_CHECK((c0 - grp * mg_) % gemm_.nr == 0);  // tiles are panel-aligned
        // With every channel in the tile, a finished output row is one contiguous run: its
        // activation tail goes in one call instead of one per pixel (a 1-channel output,
        // like PP-OCR's probability map, would otherwise make one call per value).
        const bool whole_rows = c1 - c0 == out_c_;
        for (int64_t oh = r.begin[2]; oh < r.end[2]; ++oh) {
          const int64_t ph = (oh + a_.pad_top) % a_.stride_h;
          // Pixels of one phase in this row: ow = first, first + stride_w, ...
          for (int64_t first = 0; first < std::min(a_.stride_w, out_w_); ++first) {
            const int64_t pw = (first + a_.pad_left) % a_.stride_w;
            const int64_t count = (out_w_ - first + a_.stride_w - 1) / a_.stride_w;
            const Phase phase{&taps_h_[ph], &taps_w_[pw],
                              packed_->as<float>() + grp * group_floats_ + phase_offset_[ph * a_.stride_w + pw]};
            for (int64_t p = 0; p < count; p += gemm_.mr) {
              const int64_t m = std::min<int64_t>(gemm_.mr, count - p);
              const int64_t ow = first + p * a_.stride_w;
              fill_row_pointers(pointers, phase, x, n, grp, oh, ow, m);
              for (int64_t c = c0; c < c1; c += gemm_.nr) {
                const int64_t panel = (c - grp * mg_) / gemm_.nr;
                const size_t taps = phase.h->size() * phase.w->size();
                const float* w = phase.packed + kernels::packed_gemm_panel_offset(gemm_.nr, cg_, taps, panel);
                const int64_t o = ((n * out_h_ + oh) * out_w_ + ow) * out_c_ + c;
                const int64_t nc = std::min<int64_t>(gemm_.nr, c1 - c);
                const int64_t pixel_stride = a_.stride_w * out_c_;  // pixels of one phase
                gemm_.ukernel(m, nc, cg_, taps, pointers, w, nullptr, y + o, pixel_stride,
                              residual ? residual + o : nullptr, pixel_stride, e.clamp);
                if (!e.has_tail() || whole_rows) continue;
                apply_epilogue_tail_rows(elementwise_, e, y + o, m, nc, pixel_stride);
              }
            }
          }
          if (e.has_tail() && whole_rows) {
            apply_epilogue_tail(elementwise_, e, y + (n * out_h_ + oh) * out_w_ * out_c_, out_w_ * out_c_);
          }
        }
      }
    }
  }

  size_t scratch_floats(const Region&) const override {
    return pointer_scratch_floats(std::max<size_t>(1, max_taps_) * gemm_.mr);
  }
  std::string kernel_name() const override { return gemm_.name; }

 private:
  struct Phase {
    const std::vector<int64_t>* h;  // taps along each axis
    const std::vector<int64_t>* w;
    const float* packed;  // this group's packed weights of the phase
  };

  // Row pointers for MR pixels of row oh from column ow on (step stride_w), one set per tap
  // of the phase; taps reading outside the input read zeros, rows past m repeat the last pixel.
  void fill_row_pointers(const float** a, const Phase& phase, const float* x, int64_t n, int64_t grp, int64_t oh,
                         int64_t ow, int64_t m) const {
    const float* image = x + n * in_h_ * in_w_ * in_c_ + grp * cg_;
    size_t t = 0;
    for (int64_t kh : *phase.h) {
      // Exact: oh + pad_top - kh * dilation is a multiple of the stride for this phase.
      const int64_t ih = floor_div(oh + a_.pad_top - kh * a_.dilation_h, a_.stride_h);
      const bool row_inside = ih >= 0 && ih < in_h_;
      for (int64_t kw : *phase.w) {
        for (int64_t i = 0; i < gemm_.mr; ++i) {
          const int64_t col = ow + std::min<int64_t>(i, m - 1) * a_.stride_w;
          const int64_t iw = floor_div(col + a_.pad_left - kw * a_.dilation_w, a_.stride_w);
          const bool inside = row_inside && iw >= 0 && iw < in_w_;
          a[t * gemm_.mr + i] = inside ? image + (ih * in_w_ + iw) * in_c_ : zeros_.data();
        }
        ++t;
      }
    }
  }

  TensorBinding residual_;
  int64_t cg_ = 0, mg_ = 0;
  std::vector<std::vector<int64_t>> taps_h_, taps_w_;
  std::vector<size_t> phase_offset_;  // per phase (ph * stride_w + pw), within a group
  size_t group_floats_ = 0;
  size_t max_taps_ = 0;
  std::vector<float> zeros_;
};

class PixelGemmConvTransposeKernel final : public GemmConvTransposeKernel {
 public:
  PixelGemmConvTransposeKernel(const ConvTransposeAttrs& a, const BindArgs& args, const ConvWeights& source,
                               const float* bias)
      : GemmConvTransposeKernel(a, args) {
    columns_ = a.kernel_h * a.kernel_w * out_c_;
    const PackKey key =
        pack_key("pixel_conv_transpose", {source.data, source.scale, bias},
                 {static_cast<double>(gemm_.nr), static_cast<double>(in_c_), static_cast<double>(out_c_),
                  static_cast<double>(a.kernel_h), static_cast<double>(a.kernel_w)});
    const size_t floats = kernels::packed_gemm_weights_floats(gemm_.nr, in_c_, 1, columns_);
    packed_ = packed_weights(args, key, floats, [&](float* dst) {
      // Row c, column (kh, kw, j): W[c][j][kh][kw]; each column's bias is its channel's.
      std::vector<float> matrix(static_cast<size_t>(in_c_ * columns_));
      std::vector<float> biases(static_cast<size_t>(columns_), 0.0f);
      for (int64_t c = 0; c < in_c_; ++c) {
        for (int64_t kh = 0; kh < a.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < a.kernel_w; ++kw) {
            for (int64_t j = 0; j < out_c_; ++j) {
              const int64_t column = (kh * a.kernel_w + kw) * out_c_ + j;
              matrix[c * columns_ + column] =
                  source.scaled_at(((c * out_c_ + j) * a.kernel_h + kh) * a.kernel_w + kw, j);
              if (bias) biases[column] = bias[j];
            }
          }
        }
      }
      kernels::pack_gemm_weights(gemm_.nr, in_c_, 1, columns_, matrix.data(), columns_, 1, biases.data(), dst);
    });
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    TESSERA_CHECK(r.begin[1] == 0 && r.end[1] == out_c_ && r.begin[3] == 0 && r.end[3] == out_w_);
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const Epilogue& e = a_.epilogue;
    const float** pointers = reinterpret_cast<const float**>(ctx.scratch);
    float* row = ctx.scratch + pointer_floats();  // one input row's pixels x columns
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      const auto [first, end] =
          transposed_input_range(r.begin[2], r.end[2], a_.stride_h, a_.pad_top, a_.kernel_h, a_.dilation_h, in_h_);
      for (int64_t ih = first; ih < end; ++ih) {
        const float* image_row = x + (n * in_h_ + ih) * in_w_ * in_c_;
        for (int64_t iw = 0; iw < in_w_; iw += gemm_.mr) {
          const int64_t m = std::min<int64_t>(gemm_.mr, in_w_ - iw);
          for (int64_t i = 0; i < gemm_.mr; ++i) pointers[i] = image_row + (iw + std::min(i, m - 1)) * in_c_;
          for (int64_t c = 0; c < columns_; c += gemm_.nr) {
            const float* w = packed_->as<float>() + kernels::packed_gemm_panel_offset(gemm_.nr, in_c_, 1, c / gemm_.nr);
            gemm_.ukernel(m, std::min<int64_t>(gemm_.nr, columns_ - c), in_c_, 1, pointers, w, nullptr,
                          row + iw * columns_ + c, columns_, nullptr, 0, e.clamp);
          }
        }
        // Tap (kh, kw) of input pixel iw is output (ih * stride_h - pad_top + kh, iw * stride_w
        // - pad_left + kw): each output row of the band takes its taps' column blocks.
        for (int64_t kh = 0; kh < a_.kernel_h; ++kh) {
          const int64_t oh = ih * a_.stride_h - a_.pad_top + kh;
          if (oh < r.begin[2] || oh >= r.end[2]) continue;
          float* out_row = y + (n * out_h_ + oh) * out_w_ * out_c_;
          // A pixel's taps along the row are adjacent outputs: one block of kernel_w x
          // channels, clipped at the row's ends (a plain loop: blocks are a few floats).
          for (int64_t iw = 0; iw < in_w_; ++iw) {
            const int64_t ow = iw * a_.stride_w - a_.pad_left;
            const int64_t kw0 = std::max<int64_t>(0, -ow), kw1 = std::min(a_.kernel_w, out_w_ - ow);
            const float* from = row + iw * columns_ + (kh * a_.kernel_w + kw0) * out_c_;
            float* to = out_row + (ow + kw0) * out_c_;
            for (int64_t q = 0; q < (kw1 - kw0) * out_c_; ++q) to[q] = from[q];
          }
          if (e.has_tail()) apply_epilogue_tail(elementwise_, e, out_row, out_w_ * out_c_);
        }
      }
    }
  }

  size_t scratch_floats(const Region&) const override {
    return pointer_floats() + static_cast<size_t>(in_w_ * columns_);
  }
  std::string kernel_name() const override { return std::string(gemm_.name) + "_per_input_pixel"; }

 private:
  // The micro-kernel's row pointers, first in the scratch (aligned for pointers).
  size_t pointer_floats() const { return pointer_scratch_floats(gemm_.mr); }

  int64_t columns_ = 0;  // kernel_h x kernel_w x output channels
};

template <class Kernel>
Result<std::unique_ptr<TileKernel>> packed_or_error(std::unique_ptr<Kernel> kernel, const BindArgs& args) {
  if (!kernel->valid()) return Status::error(args.path + ": out of memory packing weights");
  return std::unique_ptr<TileKernel>(std::move(kernel));
}

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ConvTransposeAttrs& a, const BindArgs& args) {
  const ConvWeights weights{args.inputs[1].constant_floats(),
                            a.weight_scale_input >= 0 ? args.inputs[a.weight_scale_input].constant_floats() : nullptr,
                            args.shapes.inputs[1], a.group, true};
  const float* bias = a.has_bias ? args.inputs[2].constant_floats() : nullptr;
  if (weights.data == nullptr || (a.has_bias && bias == nullptr) ||
      (a.weight_scale_input >= 0 && weights.scale == nullptr)) {
    return Status::error(args.path + ": internal error: ConvTranspose weights are not bound as constants");
  }
  if (runs_per_input_pixel(a, args.shapes))
    return packed_or_error(std::make_unique<PixelGemmConvTransposeKernel>(a, args, weights, bias), args);
  return packed_or_error(std::make_unique<PhaseGemmConvTransposeKernel>(a, args, weights, bias), args);
}

}  // namespace tessera::ops
