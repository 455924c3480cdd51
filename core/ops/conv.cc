// Conv semantics: attribute checks, output shape, receptive-field footprint, cost, and the
// plain reference loop every fast path is tested against.
#include "core/ops/conv.h"

#include <algorithm>
#include <vector>

#include "core/base/checked_math.h"
#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd.h"
#include "core/ops/conv_weights.h"
#include "core/ops/epilogue.h"
#include "core/ops/parsers.h"
#include "core/ops/spatial.h"

namespace tessera::ops {

Result<ParsedOp> parse_conv(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 3));
  const Shape& x = p.shape(0);
  const Shape& w = p.shape(1);
  if (x.size() != 4) return p.error("only 2-D convolutions (4-D input) are supported, input is " + shape_string(x));
  if (w.size() != 4) return p.error("weights must be 4-D [M, C/group, kH, kW], got " + shape_string(w));
  if (!p.constant_floats(1)) return p.error("weights (input 1) must be a float32 initializer");
  if (p.has_input(2) && !p.constant_floats(2)) return p.error("bias (input 2) must be a float32 initializer");
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  ConvAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.group, p.get_int("group", 1));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> kernel_shape, p.get_ints("kernel_shape", {w[2], w[3]}, 2));
  if (kernel_shape[0] != w[2] || kernel_shape[1] != w[3]) {
    return p.error("kernel_shape " + shape_string(kernel_shape) + " does not match weights " + shape_string(w));
  }
  if (a.group <= 0 || x[1] % a.group != 0 || w[0] % a.group != 0) {
    return p.error("group " + std::to_string(a.group) + " does not divide input channels " + std::to_string(x[1]) +
                   " and output channels " + std::to_string(w[0]));
  }
  if (w[1] != x[1] / a.group) {
    return p.error("weights " + shape_string(w) + " expect " + std::to_string(w[1] * a.group) +
                   " input channels, input has " + std::to_string(x[1]));
  }
  if (p.has_input(2) && p.shape(2) != Shape{w[0]}) {
    return p.error("bias shape " + shape_string(p.shape(2)) + " must be [" + std::to_string(w[0]) + "]");
  }
  TESSERA_ASSIGN_OR_RETURN(ParsedWindow parsed, parse_window(p, x, kernel_shape.data(), false));
  static_cast<Window&>(a) = parsed.window;
  a.has_bias = p.has_input(2);
  const Shape out{x[0], w[0], parsed.out_h, parsed.out_w};
  for (ConvAlgorithm winograd : {ConvAlgorithm::kWinogradF2, ConvAlgorithm::kWinogradF4}) {
    if (winograd_allowed(a, {{x, w}, out}, winograd)) a.algorithm = winograd;
  }
  TESSERA_RETURN_IF_ERROR(p.check_work(out, w[1] * w[2] * w[3]));
  return ParsedOp{a, out};
}

bool gathers_rows(const ConvAttrs& a, const OpShapes& s) {
  return s.inputs[0][1] / a.group <= kGatherRowChannels && a.kernel_h * a.kernel_w > 1;
}

int64_t igemm_row_bytes(const ConvAttrs& a, const OpShapes& s) {
  return static_cast<int64_t>(sizeof(float)) * a.stride_w * s.inputs[0][1];
}

bool winograd_allowed(const ConvAttrs& a, const OpShapes& s, ConvAlgorithm winograd) {
  const Shape& x = s.inputs[0];
  const Shape& y = s.output;
  const bool shape = a.kernel_h == 3 && a.kernel_w == 3 && a.stride_h == 1 && a.stride_w == 1 && a.dilation_h == 1 &&
                     a.dilation_w == 1 && a.group == 1;
  if (winograd == ConvAlgorithm::kGemm || !shape) return false;
  const int64_t added = winograd_tile(winograd).points() - a.kernel_h * a.kernel_w;  // weights per channel pair
  return x[1] >= kWinogradMinChannels && y[1] >= kWinogradMinChannels &&
         added * x[1] <= kWinogradAddedWeightsPerOutput * y[2] * y[3];
}

kernels::WinogradTile winograd_tile(ConvAlgorithm winograd) {
  return winograd == ConvAlgorithm::kWinogradF4 ? kernels::kWinogradF4 : kernels::kWinogradF2;
}

int algorithm_count(const ConvAttrs& a, const OpShapes& s) {
  if (!winograd_allowed(a, s, ConvAlgorithm::kWinogradF2)) return 1;
  return winograd_allowed(a, s, ConvAlgorithm::kWinogradF4) ? 3 : 2;
}

ConvAttrs with_algorithm(ConvAttrs a, int algorithm) {
  a.algorithm = static_cast<ConvAlgorithm>(algorithm);
  return a;
}

int algorithm_of(const ConvAttrs& a) { return static_cast<int>(a.algorithm); }

const char* algorithm_name(const ConvAttrs& a) {
  switch (a.algorithm) {
    case ConvAlgorithm::kGemm: return "gemm";
    case ConvAlgorithm::kWinogradF2: return "winograd_f2";
    case ConvAlgorithm::kWinogradF4: return "winograd";
  }
  return "gemm";
}

namespace {

constexpr int64_t kWinogradBlock = 64;  // the narrowest channel block of a Winograd layer

// Winograd's work on `out`: the convolution's flops, done as one GEMM per transform point
// over the region's tiles, and the transforms of its tiles (the input transform runs again
// for every channel block).
OpCost winograd_cost(const ConvAttrs& a, const OpShapes& s, const Region& out, double flops, double bytes) {
  const kernels::WinogradTile tile = winograd_tile(a.algorithm);
  const int64_t cin = s.inputs[0][1], columns = out.extent(1);
  const int side = tile.output;
  const int64_t tiles =
      out.extent(0) * (ceil_div(out.end[2], side) - out.begin[2] / side) * ceil_div(out.extent(3), side);
  const int64_t weights = (tile.points() - a.kernel_h * a.kernel_w) * cin * columns;
  return {.flops = flops,
          .bytes = bytes + 4.0 * static_cast<double>(weights),
          .kind = WorkKind::kGemm,
          .gemm = {tiles, columns, cin, 1, tile.points(), s.output[1],
                   static_cast<int64_t>(sizeof(float) * kernels::winograd_row_floats(static_cast<size_t>(cin))),
                   /*interleaved=*/true},
          .unary = a.epilogue.activation,
          .affine_passes = a.epilogue.affine_passes(),
          .transforms = {tiles * cin, tiles * columns, side}};
}

}  // namespace

OpCost cost(const ConvAttrs& a, const OpShapes& s, const Region& out) {
  const int64_t cin_per_group = s.inputs[0][1] / a.group;
  const double outputs = static_cast<double>(out.element_count());
  const double flops = 2.0 * outputs * static_cast<double>(cin_per_group * a.kernel_h * a.kernel_w);
  // The outputs, and a fused residual read where they go.
  double bytes = (a.epilogue.residual_input >= 0 ? 8 : 4) * outputs;
  if (auto in = footprint(a, s, out, 0)) {
    // A window smaller than its stride (a 1x1 convolution of stride 2) skips rows and columns
    // of its footprint: count those it reads.
    const int64_t rows = std::min(in->extent(2), out.extent(2) * a.kernel_h);
    const int64_t columns = std::min(in->extent(3), out.extent(3) * a.kernel_w);
    bytes += 4.0 * static_cast<double>(in->extent(0) * in->extent(1) * rows * columns);
  }
  bytes += 4.0 * static_cast<double>(out.extent(1) * cin_per_group * a.kernel_h * a.kernel_w);
  if (a.algorithm != ConvAlgorithm::kGemm) return winograd_cost(a, s, out, flops, bytes);
  const int64_t channels = s.output[1];
  if (a.group == channels && a.group == s.inputs[0][1]) {
    const int64_t taps =
        window_taps_inside(out.begin[2], out.end[2], a.stride_h, a.pad_top, a.kernel_h, a.dilation_h, s.inputs[0][2]) *
        window_taps_inside(out.begin[3], out.end[3], a.stride_w, a.pad_left, a.kernel_w, a.dilation_w, s.inputs[0][3]);
    // Inputs are NHWC: a block of channels reads one short run per pixel.
    const bool block = out.extent(1) < channels;
    return {.flops = flops,
            .bytes = bytes,
            .kind = WorkKind::kDepthwise,
            .unary = a.epilogue.activation,
            .affine_passes = a.epilogue.affine_passes(),
            .input_run_bytes = block ? 4 * out.extent(1) : 0,
            .input_pixel_bytes = block ? 4 * channels : 0,
            .depthwise = {out.extent(1), out.extent(0) * taps}};
  }
  const int64_t pixels = out.extent(0) * out.extent(2) * out.extent(3);
  const int64_t depth = cin_per_group * a.kernel_h * a.kernel_w;
  return {flops,
          bytes,
          WorkKind::kGemm,
          {pixels, std::min(out.extent(1), channels / a.group), depth,
           gathers_rows(a, s) ? a.kernel_h : a.kernel_h * a.kernel_w, 0, channels / a.group, igemm_row_bytes(a, s)},
          a.epilogue.activation,
          a.epilogue.affine_passes()};
}

std::optional<Region> footprint(const ConvAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == a.epilogue.residual_input) return out;
  if (input != 0) return std::nullopt;  // weights and bias are constants
  return window_footprint(a, s.inputs[0], s.output[1], a.group, out, window_input_range);
}

TilingHints tiling_hints(const ConvAttrs& a, const OpShapes& s, const TilingQuery& q) {
  const Shape& x = s.inputs[0];
  const int64_t channels = s.output[1];
  const int64_t per_group = channels / a.group;
  const bool depthwise = a.group == channels && a.group == x[1];
  // Channel blocks follow the kernel's natural width: GEMM panels, or whole groups.
  const int64_t panel = kernels::gemm_panel_width(q.isa, static_cast<size_t>(per_group));
  int64_t align = depthwise ? 16 : (a.group == 1 || per_group % panel == 0 ? panel : per_group);
  // Every channel block of a Winograd layer transforms the whole input again: with 8-wide
  // blocks (WebAssembly's panel) that transform took as long as the 36 GEMMs. Blocks of 64
  // channels cut its repeats eightfold.
  const bool winograd = a.algorithm != ConvAlgorithm::kGemm;
  if (winograd) align = std::min(channels, round_up(kWinogradBlock, panel));
  // Row bands hold whole GEMM row blocks where the rows are short; Winograd's row blocks are
  // its tiles, as high as their outputs.
  const int64_t mr = kernels::best_gemm_kernel(q.isa).mr;
  const int64_t side = winograd ? winograd_tile(a.algorithm).output : 1;
  const int64_t rows = side * std::max<int64_t>(1, ceil_div(mr, ceil_div(s.output[3], side)));
  // Row bands let the next layer start early, but every band re-reads all the weights: when
  // the weights outweigh an image's input, channel blocks come first and rows only feed threads.
  const int64_t weights = channels * (x[1] / a.group) * a.kernel_h * a.kernel_w;
  const bool weight_bound = !depthwise && weights > x[1] * x[2] * x[3];
  if (weight_bound) return {{{0, 1}, {1, align}, {2, rows, true}}};
  return {{{0, 1}, {2, depthwise ? 1 : rows}, {1, align}}};
}

LayoutChoice choose_layout(const ConvAttrs& a, const OpShapes& s, const LayoutQuery&) {
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.inputs[0] = Layout::nhwc();
  if (a.epilogue.residual_input >= 0) c.inputs[a.epilogue.residual_input] = Layout::nhwc();
  c.output = Layout::nhwc();
  return c;
}

void reference(const ConvAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Shape& xs = s.inputs[0];
  const Shape& ys = s.output;
  const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  const int64_t M = ys[1], OH = ys[2], OW = ys[3];
  const int64_t cg = C / a.group, mg = M / a.group;
  const float* x = in[0];
  std::vector<float> scaled;
  const float* scale = a.weight_scale_input >= 0 ? in[a.weight_scale_input] : nullptr;
  const float* w = ConvWeights{in[1], scale, s.inputs[1], a.group, false}.scaled(scaled);
  const float* bias = a.has_bias ? in[2] : nullptr;
  const float* residual = a.epilogue.residual_input >= 0 ? in[a.epilogue.residual_input] : nullptr;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t m = 0; m < M; ++m) {
      const int64_t g = m / mg;
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = bias ? bias[m] : 0.0;
          for (int64_t c = 0; c < cg; ++c) {
            for (int64_t kh = 0; kh < a.kernel_h; ++kh) {
              const int64_t ih = oh * a.stride_h - a.pad_top + kh * a.dilation_h;
              if (ih < 0 || ih >= H) continue;
              for (int64_t kw = 0; kw < a.kernel_w; ++kw) {
                const int64_t iw = ow * a.stride_w - a.pad_left + kw * a.dilation_w;
                if (iw < 0 || iw >= W) continue;
                acc += static_cast<double>(x[((n * C + g * cg + c) * H + ih) * W + iw]) *
                       w[((m * cg + c) * a.kernel_h + kh) * a.kernel_w + kw];
              }
            }
          }
          const int64_t o = ((n * M + m) * OH + oh) * OW + ow;
          float y = static_cast<float>(acc);
          if (residual) y += residual[o];
          out[o] = reference_epilogue_activation(a.epilogue, y);
        }
      }
    }
  }
}

}  // namespace tessera::ops
