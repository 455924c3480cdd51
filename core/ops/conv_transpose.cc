// ConvTranspose semantics: attribute checks, output size and pads (ONNX formulas), the exact
// input rows a band of output rows reads, cost, and the scatter-form reference loop.
#include "core/ops/conv_transpose.h"

#include <algorithm>
#include <vector>

#include "core/base/checked_math.h"
#include "core/kernels/gemm/gemm.h"
#include "core/ops/conv_weights.h"
#include "core/ops/epilogue.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

// One spatial axis: sizes and parameters as ONNX names them.
struct TransposedAxis {
  int64_t in, kernel, stride, dilation, output_padding;
  int64_t pad_begin = 0, pad_end = 0, out = 0;
};

// Pads and output size of one axis, per the ONNX ConvTranspose formulas. Where the output
// asked for (auto_pad SAME_*, output_shape) is larger than the full transposed convolution,
// the total padding is 0 and the extra outputs at the end hold the bias (as onnxruntime).
Status resolve_axis(const NodeParser& p, const std::string& auto_pad, const int64_t* explicit_pads,
                    const int64_t* output_shape, int axis, TransposedAxis* a) {
  const int64_t full = a->stride * (a->in - 1) + a->output_padding + (a->kernel - 1) * a->dilation + 1;
  if (output_shape != nullptr || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    a->out = output_shape != nullptr ? output_shape[axis] : a->in * a->stride;
    const int64_t total = std::max<int64_t>(0, full - a->out);
    // The odd unit of padding goes to the end for SAME_UPPER, to the beginning otherwise.
    a->pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    a->pad_end = total - a->pad_begin;
  } else if (auto_pad == "VALID" || auto_pad == "NOTSET") {
    if (auto_pad == "NOTSET") a->pad_begin = explicit_pads[axis], a->pad_end = explicit_pads[axis + 2];
    a->out = full - a->pad_begin - a->pad_end;
  } else {
    return p.error("attribute \"auto_pad\" has unknown value \"" + auto_pad + "\"");
  }
  if (a->out <= 0 || a->out > kMaxTensorElements) {
    return p.error("output size " + std::to_string(a->out) + " along spatial axis " + std::to_string(axis) +
                   " is not from 1 to " + std::to_string(kMaxTensorElements));
  }
  return Status();
}

}  // namespace

Result<ParsedOp> parse_conv_transpose(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  const Shape& x = p.shape(0);
  const Shape& w = p.shape(1);
  if (x.size() != 4)
    return p.error("only 2-D transposed convolutions (4-D input) are supported, input is " + shape_string(x));
  if (w.size() != 4) return p.error("weights must be 4-D [C, M/group, kH, kW], got " + shape_string(w));
  if (!p.constant_floats(1)) return p.error("weights (input 1) must be a float32 initializer");
  if (p.has_input(2) && !p.constant_floats(2)) return p.error("bias (input 2) must be a float32 initializer");
  ConvTransposeAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.group, p.get_int("group", 1));
  if (a.group <= 0 || x[1] % a.group != 0) {
    return p.error("group " + std::to_string(a.group) + " does not divide input channels " + std::to_string(x[1]));
  }
  if (w[0] != x[1])
    return p.error("weights " + shape_string(w) + " expect " + std::to_string(w[0]) + " input channels, input has " +
                   std::to_string(x[1]));
  const int64_t out_channels = w[1] * a.group;
  if (p.has_input(2) && p.shape(2) != Shape{out_channels}) {
    return p.error("bias shape " + shape_string(p.shape(2)) + " must be [" + std::to_string(out_channels) + "]");
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> kernel_shape, p.get_ints("kernel_shape", {w[2], w[3]}, 2));
  if (kernel_shape[0] != w[2] || kernel_shape[1] != w[3]) {
    return p.error("kernel_shape " + shape_string(kernel_shape) + " does not match weights " + shape_string(w));
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> strides, p.get_ints("strides", {1, 1}, 2));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, p.get_ints("dilations", {1, 1}, 2));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> output_padding, p.get_ints("output_padding", {0, 0}, 2));
  TESSERA_ASSIGN_OR_RETURN(std::string auto_pad, p.get_string("auto_pad", "NOTSET"));
  const bool pads_given = p.has_attribute("pads");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> pads, p.get_ints("pads", {0, 0, 0, 0}, 4));
  const bool shape_given = p.has_attribute("output_shape");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> output_shape, p.get_ints("output_shape", {}));
  if (shape_given && output_shape.size() == 4) {
    if (output_shape[0] != x[0] || output_shape[1] != out_channels) {
      return p.error("output_shape " + shape_string(output_shape) + " disagrees with the batch or channel count");
    }
    output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  }
  if (shape_given && output_shape.size() != 2) {
    return p.error("attribute \"output_shape\" must list 2 spatial sizes (or all 4 dimensions)");
  }
  if (pads_given && (auto_pad != "NOTSET" || shape_given)) {
    return p.error("attribute \"pads\" excludes \"auto_pad\" and \"output_shape\"");
  }
  auto in_range = [](int64_t v, int64_t lo) { return v >= lo && v <= kMaxTensorElements; };
  TransposedAxis axes[2];
  for (int i = 0; i < 2; ++i) {
    if (!in_range(strides[i], 1))
      return p.error("attribute \"strides\" must be from 1 to " + std::to_string(kMaxTensorElements));
    if (!in_range(dilations[i], 1))
      return p.error("attribute \"dilations\" must be from 1 to " + std::to_string(kMaxTensorElements));
    if (!in_range(pads[i], 0) || !in_range(pads[i + 2], 0))
      return p.error("attribute \"pads\" must be from 0 to " + std::to_string(kMaxTensorElements));
    if (output_padding[i] < 0 || output_padding[i] >= std::max(strides[i], dilations[i])) {
      return p.error("attribute \"output_padding\" must be non-negative and below the stride or the dilation");
    }
    int64_t span = 0;
    if (!checked_mul(dilations[i], kernel_shape[i] - 1, &span) || span >= kMaxTensorElements) {
      return p.error("dilated kernel extent exceeds " + std::to_string(kMaxTensorElements));
    }
    axes[i] = {x[2 + i], kernel_shape[i], strides[i], dilations[i], output_padding[i]};
    TESSERA_RETURN_IF_ERROR(
        resolve_axis(p, auto_pad, pads.data(), shape_given ? output_shape.data() : nullptr, i, &axes[i]));
  }
  a.kernel_h = axes[0].kernel, a.kernel_w = axes[1].kernel;
  a.stride_h = axes[0].stride, a.stride_w = axes[1].stride;
  a.dilation_h = axes[0].dilation, a.dilation_w = axes[1].dilation;
  a.pad_top = axes[0].pad_begin, a.pad_bottom = axes[0].pad_end;
  a.pad_left = axes[1].pad_begin, a.pad_right = axes[1].pad_end;
  a.has_bias = p.has_input(2);
  const Shape out{x[0], out_channels, axes[0].out, axes[1].out};
  // Each input value meets every tap once: the work is that of the equivalent convolution.
  TESSERA_RETURN_IF_ERROR(p.check_work(x, w[1] * w[2] * w[3]));
  return ParsedOp{a, out};
}

std::pair<int64_t, int64_t> transposed_input_range(int64_t out_begin, int64_t out_end, int64_t stride, int64_t pad,
                                                   int64_t kernel, int64_t dilation, int64_t input_size) {
  // Tap k reaches outputs [out_begin, out_end) from inputs i with
  // out_begin <= i * stride - pad + k * dilation < out_end; the union over k, clipped.
  int64_t begin = input_size, end = 0;
  for (int64_t k = 0; k < kernel; ++k) {
    const int64_t shift = pad - k * dilation;
    const int64_t lo = std::max<int64_t>(0, -floor_div(-(out_begin + shift), stride));
    const int64_t hi = std::min(input_size - 1, floor_div(out_end - 1 + shift, stride));
    if (lo > hi) continue;
    begin = std::min(begin, lo);
    end = std::max(end, hi + 1);
  }
  if (begin >= end) return {0, 0};
  return {begin, end};
}

bool runs_per_input_pixel(const ConvTransposeAttrs& a, const OpShapes& s) {
  // Narrower than AVX-512's 32-column panel; the same bound for every ISA, so that a plan's
  // tiling does not depend on which kernels run it.
  constexpr int64_t kNarrow = 32;
  const Shape& x = s.inputs[0];
  const Shape& y = s.output;
  // Every output is reached (output_padding within the cropped end), and every input row and
  // column reaches one: the kernel reads whole input rows, which must be all footprint.
  const auto covers = [](int64_t in, int64_t out, int64_t stride, int64_t pad) {
    return pad < stride && out + pad <= in * stride && (in - 1) * stride - pad < out;
  };
  return a.kernel_h == a.stride_h && a.kernel_w == a.stride_w && a.dilation_h == 1 && a.dilation_w == 1 &&
         a.group == 1 && a.epilogue.residual_input < 0 && y[1] < kNarrow && covers(x[2], y[2], a.stride_h, a.pad_top) &&
         covers(x[3], y[3], a.stride_w, a.pad_left);
}

OpCost cost(const ConvTransposeAttrs& a, const OpShapes& s, const Region& out) {
  const int64_t cin_per_group = s.inputs[0][1] / a.group;
  if (runs_per_input_pixel(a, s)) {
    // A GEMM per input row the band reaches: its pixels x every tap's outputs x the inputs.
    const Shape& x = s.inputs[0];
    const auto [first, end] =
        transposed_input_range(out.begin[2], out.end[2], a.stride_h, a.pad_top, a.kernel_h, a.dilation_h, x[2]);
    const int64_t pixels = out.extent(0) * (end - first) * x[3];
    const int64_t columns = s.output[1] * a.kernel_h * a.kernel_w;
    const double bytes = 4.0 * (static_cast<double>(out.element_count()) +
                                static_cast<double>(pixels * (x[1] + columns)) + static_cast<double>(x[1] * columns));
    return {2.0 * static_cast<double>(pixels * columns * x[1]),
            bytes,
            WorkKind::kGemm,
            {pixels, columns, x[1]},
            a.epilogue.activation,
            a.epilogue.affine_passes()};
  }
  const double outputs = static_cast<double>(out.element_count());
  // On average an output meets kernel / stride taps per axis.
  const double taps = static_cast<double>(a.kernel_h * a.kernel_w) / static_cast<double>(a.stride_h * a.stride_w);
  const double flops = 2.0 * outputs * static_cast<double>(cin_per_group) * taps;
  // The outputs, and a fused residual read where they go.
  double bytes = (a.epilogue.residual_input >= 0 ? 8 : 4) * outputs;
  if (auto in = footprint(a, s, out, 0)) bytes += 4.0 * in->element_count();
  bytes += 4.0 * static_cast<double>(out.extent(1) * cin_per_group * a.kernel_h * a.kernel_w);
  const int64_t pixels = out.extent(0) * out.extent(2) * out.extent(3);
  const auto depth = static_cast<int64_t>(static_cast<double>(cin_per_group) * taps + 0.5);
  return {flops,
          bytes,
          WorkKind::kGemm,
          {pixels, out.extent(1), std::max<int64_t>(1, depth)},
          a.epilogue.activation,
          a.epilogue.affine_passes()};
}

std::optional<Region> footprint(const ConvTransposeAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == a.epilogue.residual_input) return out;
  if (input != 0) return std::nullopt;  // weights and bias are constants
  return window_footprint(a, s.inputs[0], s.output[1], a.group, out, transposed_input_range);
}

TilingHints tiling_hints(const ConvTransposeAttrs& a, const OpShapes& s, const TilingQuery& q) {
  const Shape& x = s.inputs[0];
  const int64_t channels = s.output[1];
  const int64_t per_group = channels / a.group;
  const int64_t panel = kernels::best_gemm_kernel(q.isa).nr;
  // A band of rows takes every channel, cut at multiples of the stride: whole input rows
  // when pad_top is 0 (else a row at a cut is computed by both bands; cost() counts it).
  if (runs_per_input_pixel(a, s)) return {{{0, 1}, {2, a.stride_h}}};
  const int64_t align = a.group == 1 || per_group % panel == 0 ? panel : per_group;
  // As for Conv: every row band re-reads all the weights, so weight-bound layers split
  // channel blocks first and rows only to feed threads.
  const int64_t weights = x[1] * per_group * a.kernel_h * a.kernel_w;
  if (weights > x[1] * x[2] * x[3]) return {{{0, 1}, {1, align}, {2, 1, true}}};
  return {{{0, 1}, {2, 1}, {1, align}}};
}

LayoutChoice choose_layout(const ConvTransposeAttrs& a, const OpShapes& s, const LayoutQuery&) {
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.inputs[0] = Layout::nhwc();
  if (a.epilogue.residual_input >= 0) c.inputs[a.epilogue.residual_input] = Layout::nhwc();
  c.output = Layout::nhwc();
  return c;
}

void reference(const ConvTransposeAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  // The definition: every input value scatters value * weight to each output it reaches.
  const Shape& xs = s.inputs[0];
  const Shape& ys = s.output;
  const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  const int64_t M = ys[1], OH = ys[2], OW = ys[3];
  const int64_t cg = C / a.group, mg = M / a.group;
  const float* x = in[0];
  std::vector<float> scaled;
  const float* scale = a.weight_scale_input >= 0 ? in[a.weight_scale_input] : nullptr;
  const float* w = ConvWeights{in[1], scale, s.inputs[1], a.group, true}.scaled(scaled);
  std::vector<double> acc(static_cast<size_t>(element_count(ys)), 0.0);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t g = c / cg;
      for (int64_t ih = 0; ih < H; ++ih) {
        for (int64_t iw = 0; iw < W; ++iw) {
          const double v = x[((n * C + c) * H + ih) * W + iw];
          for (int64_t m = 0; m < mg; ++m) {
            for (int64_t kh = 0; kh < a.kernel_h; ++kh) {
              const int64_t oh = ih * a.stride_h - a.pad_top + kh * a.dilation_h;
              if (oh < 0 || oh >= OH) continue;
              for (int64_t kw = 0; kw < a.kernel_w; ++kw) {
                const int64_t ow = iw * a.stride_w - a.pad_left + kw * a.dilation_w;
                if (ow < 0 || ow >= OW) continue;
                acc[((n * M + g * mg + m) * OH + oh) * OW + ow] +=
                    v * w[((c * mg + m) * a.kernel_h + kh) * a.kernel_w + kw];
              }
            }
          }
        }
      }
    }
  }
  const float* bias = a.has_bias ? in[2] : nullptr;
  const float* residual = a.epilogue.residual_input >= 0 ? in[a.epilogue.residual_input] : nullptr;
  for (size_t o = 0; o < acc.size(); ++o) {
    const int64_t m = static_cast<int64_t>(o) / (OH * OW) % M;
    float y = static_cast<float>(acc[o] + (bias ? bias[m] : 0.0));
    if (residual) y += residual[o];
    out[o] = reference_epilogue_activation(a.epilogue, y);
  }
}

}  // namespace tessera::ops
