// MaxPool, AveragePool and GlobalAveragePool: window footprints like Conv, NHWC kernels.
#include "core/ops/pool.h"

#include <algorithm>
#include <cmath>

#include "core/kernels/pool/pool.h"
#include "core/ops/parsers.h"
#include "core/ops/spatial.h"

namespace tessera::ops {

Result<ParsedOp> parse_pool(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  const Shape& x = p.shape(0);
  if (x.size() != 4) return p.error("only 2-D pooling (4-D input) is supported, input is " + shape_string(x));
  PoolAttrs a;
  const std::string& op = p.desc().op;
  if (op == "GlobalAveragePool") {
    a.kind = PoolAttrs::Kind::kGlobalAverage;
    return ParsedOp{a, Shape{x[0], x[1], 1, 1}};
  }
  a.kind = op == "MaxPool" ? PoolAttrs::Kind::kMax : PoolAttrs::Kind::kAverage;
  if (!p.has_attribute("kernel_shape")) return p.error("attribute \"kernel_shape\" is required");
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, p.get_ints("kernel_shape", {}, 2));
  if (a.kind == PoolAttrs::Kind::kMax) {
    TESSERA_ASSIGN_OR_RETURN(int64_t storage_order, p.get_int("storage_order", 0));
    if (storage_order != 0) return p.error("only storage_order 0 is supported");
  } else {
    TESSERA_ASSIGN_OR_RETURN(int64_t include_pad, p.get_int("count_include_pad", 0));
    a.count_include_pad = include_pad != 0;
  }
  TESSERA_ASSIGN_OR_RETURN(ParsedWindow parsed, parse_window(p, x, kernel.data(), true));
  static_cast<Window&>(a) = parsed.window;
  // A window lying wholly in the padding has no value to pool (as in onnxruntime).
  const int64_t extent_h = a.dilation_h * (a.kernel_h - 1) + 1, extent_w = a.dilation_w * (a.kernel_w - 1) + 1;
  if (a.pad_top >= extent_h || a.pad_bottom >= extent_h || a.pad_left >= extent_w || a.pad_right >= extent_w) {
    return p.error("pads must be smaller than the kernel extent");
  }
  const Shape out{x[0], x[1], parsed.out_h, parsed.out_w};
  TESSERA_RETURN_IF_ERROR(p.check_work(out, a.kernel_h * a.kernel_w));
  return ParsedOp{a, out};
}

OpCost cost(const PoolAttrs& a, const OpShapes& s, const Region& out) {
  const double outputs = static_cast<double>(out.element_count());
  const double window = a.kind == PoolAttrs::Kind::kGlobalAverage ? static_cast<double>(s.inputs[0][2] * s.inputs[0][3])
                                                                  : static_cast<double>(a.kernel_h * a.kernel_w);
  double bytes = 4 * outputs;
  if (auto in = footprint(a, s, out, 0)) bytes += 4.0 * in->element_count();
  // Inputs are NHWC: a block of channels reads one short run per pixel.
  const bool block = out.extent(1) < s.output[1];
  return {.flops = outputs * window,
          .bytes = bytes,
          .kind = WorkKind::kPool,
          .input_run_bytes = block ? 4 * out.extent(1) : 0,
          .input_pixel_bytes = block ? 4 * s.output[1] : 0};
}

std::optional<Region> footprint(const PoolAttrs& a, const OpShapes& s, const Region& out, int) {
  const Shape& x = s.inputs[0];
  if (a.kind != PoolAttrs::Kind::kGlobalAverage) return window_footprint(a, x, x[1], x[1], out, window_input_range);
  Region r = Region::whole(x);  // every pixel of the output's images and channels
  for (int d = 0; d < 2; ++d) {
    r.begin[d] = out.begin[d];
    r.end[d] = out.end[d];
  }
  return r;
}

TilingHints tiling_hints(const PoolAttrs& a, const OpShapes&, const TilingQuery&) {
  if (a.kind == PoolAttrs::Kind::kGlobalAverage) return {{{0, 1}, {1, 16}}};
  return {{{0, 1}, {2, 1}, {1, 16}}};
}

LayoutChoice choose_layout(const PoolAttrs&, const OpShapes&, const LayoutQuery&) {
  return {{Layout::nhwc()}, Layout::nhwc()};
}

namespace {

kernels::PoolGeometry pool_geometry(const PoolAttrs& a, const OpShapes& s) {
  const Shape& x = s.inputs[0];
  const Shape& y = s.output;
  kernels::PoolGeometry g{};
  g.in_h = x[2], g.in_w = x[3], g.channels = x[1];
  g.out_h = y[2], g.out_w = y[3];
  g.kernel_h = a.kernel_h, g.kernel_w = a.kernel_w;
  g.stride_h = a.stride_h, g.stride_w = a.stride_w;
  g.dilation_h = a.dilation_h, g.dilation_w = a.dilation_w;
  g.pad_top = a.pad_top, g.pad_left = a.pad_left, g.pad_bottom = a.pad_bottom, g.pad_right = a.pad_right;
  g.count_include_pad = a.count_include_pad;
  return g;
}

}  // namespace

void reference(const PoolAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const Shape& x = s.inputs[0];
  const Shape& y = s.output;
  const int64_t C = x[1], H = x[2], W = x[3], OH = y[2], OW = y[3];
  for (int64_t n = 0; n < x[0]; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const float* plane = in[0] + (n * C + c) * H * W;
      float* dst = out + (n * C + c) * OH * OW;
      if (a.kind == PoolAttrs::Kind::kGlobalAverage) {
        double sum = 0;
        for (int64_t i = 0; i < H * W; ++i) sum += plane[i];
        dst[0] = static_cast<float>(sum / static_cast<double>(H * W));
        continue;
      }
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = a.kind == PoolAttrs::Kind::kMax ? -INFINITY : 0.0;
          int64_t inside = 0, padded = 0;
          for (int64_t kh = 0; kh < a.kernel_h; ++kh) {
            const int64_t ih = oh * a.stride_h - a.pad_top + kh * a.dilation_h;
            for (int64_t kw = 0; kw < a.kernel_w; ++kw) {
              const int64_t iw = ow * a.stride_w - a.pad_left + kw * a.dilation_w;
              // Positions past the padded extent (ceil_mode) count for nothing.
              if (ih < H + a.pad_bottom && iw < W + a.pad_right) ++padded;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              ++inside;
              const double v = plane[ih * W + iw];
              acc = a.kind == PoolAttrs::Kind::kMax ? std::max(acc, v) : acc + v;
            }
          }
          if (a.kind == PoolAttrs::Kind::kAverage) {
            acc /= static_cast<double>(a.count_include_pad ? padded : inside);
          }
          dst[oh * OW + ow] = static_cast<float>(acc);
        }
      }
    }
  }
}

namespace {

class PoolKernel final : public TileKernel {
 public:
  PoolKernel(const PoolAttrs& a, const BindArgs& args)
      : attrs_(a),
        g_(pool_geometry(a, args.shapes)),
        in_(args.inputs[0]),
        out_(args.output),
        kernels_(kernels::best_pool_kernels(args.max_isa)) {}

  void run(const Region& r, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const int64_t image_in = g_.in_h * g_.in_w * g_.channels;
    const int64_t image_out = g_.out_h * g_.out_w * g_.channels;
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      if (attrs_.kind == PoolAttrs::Kind::kGlobalAverage) {
        kernels_.global_average_pool(g_.in_h * g_.in_w, g_.channels, x + n * image_in, y + n * g_.channels, r.begin[1],
                                     r.end[1]);
        continue;
      }
      TESSERA_CHECK(r.begin[3] == 0 && r.end[3] == static_cast<int64_t>(g_.out_w));  // whole rows
      const kernels::PoolFn fn = attrs_.kind == PoolAttrs::Kind::kMax ? kernels_.max_pool : kernels_.average_pool;
      fn(g_, x + n * image_in, y + n * image_out, r.begin[2], r.end[2], r.begin[1], r.end[1]);
    }
  }
  std::string kernel_name() const override { return kernels_.name; }

 private:
  PoolAttrs attrs_;
  kernels::PoolGeometry g_;
  TensorBinding in_, out_;
  const kernels::PoolKernels& kernels_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const PoolAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new PoolKernel(a, args));
}

}  // namespace tessera::ops
