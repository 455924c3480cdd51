// Resize kernels over tap tables built once per binding: NHWC (H and W resized) blends whole
// channel vectors of the 2 or 4 source pixels; any other case walks row-major elements.
// Each output element's arithmetic is fixed by its taps, never by the tile it falls in.
#include <cstring>
#include <vector>

#include "core/ops/resize.h"

namespace tessera::ops {

namespace {

// Per output index of one axis: source indices and float weights (w0 = 1 - w1).
struct Tap {
  int64_t i0, i1;
  float w0, w1;
};

std::vector<Tap> tap_table(const ResizeAttrs& a, int dim, int64_t in_size, int64_t out_size) {
  std::vector<Tap> table;
  for (int64_t x = 0; x < out_size; ++x) {
    const ResizeTap t = resize_tap(a, dim, in_size, out_size, x);
    table.push_back({t.i0, t.i1, static_cast<float>(1 - t.w1), static_cast<float>(t.w1)});
  }
  return table;
}

// y = (a * wx0 + b * wx1) * wy0 + (c * wx0 + d * wx1) * wy1 over n channels: a plain loop
// over contiguous channels that the compiler vectorises (no contraction: -ffp-contract=off).
void blend_channels(int64_t n, const float* __restrict a, const float* __restrict b, const float* __restrict c,
                    const float* __restrict d, float wx0, float wx1, float wy0, float wy1, float* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = (a[i] * wx0 + b[i] * wx1) * wy0 + (c[i] * wx0 + d[i] * wx1) * wy1;
}

class NhwcResizeKernel final : public TileKernel {
 public:
  NhwcResizeKernel(const ResizeAttrs& a, const BindArgs& args)
      : linear_(a.mode == ResizeAttrs::Mode::kLinear), in_(args.inputs[0]), out_(args.output) {
    const Shape& x = args.shapes.inputs[0];
    const Shape& y = args.shapes.output;
    rows_ = tap_table(a, 2, x[2], y[2]);
    cols_ = tap_table(a, 3, x[3], y[3]);
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const auto& xs = in_.strides;
    const auto& ys = out_.strides;
    TESSERA_CHECK(xs[1] == 1 && ys[1] == 1);  // channels innermost
    const int64_t channels = r.extent(1);
    for (int64_t n = r.begin[0]; n < r.end[0]; ++n) {
      const float* image = x + n * xs[0] + r.begin[1];
      for (int64_t oh = r.begin[2]; oh < r.end[2]; ++oh) {
        const Tap& th = rows_[oh];
        for (int64_t ow = r.begin[3]; ow < r.end[3]; ++ow) {
          const Tap& tw = cols_[ow];
          float* dst = y + n * ys[0] + oh * ys[2] + ow * ys[3] + r.begin[1];
          const float* p00 = image + th.i0 * xs[2] + tw.i0 * xs[3];
          if (!linear_) {
            std::memcpy(dst, p00, sizeof(float) * channels);
            continue;
          }
          const float* p01 = image + th.i0 * xs[2] + tw.i1 * xs[3];
          const float* p10 = image + th.i1 * xs[2] + tw.i0 * xs[3];
          const float* p11 = image + th.i1 * xs[2] + tw.i1 * xs[3];
          blend_channels(channels, p00, p01, p10, p11, tw.w0, tw.w1, th.w0, th.w1, dst);
        }
      }
    }
  }
  std::string kernel_name() const override { return linear_ ? "f32_resize_bilinear_nhwc" : "f32_resize_nearest_nhwc"; }

 private:
  bool linear_;
  TensorBinding in_, out_;
  std::vector<Tap> rows_, cols_;
};

// Any rank, row-major: each output element sums its 2^k corners (k resized axes) in a fixed
// order; nearest copies its one source element.
class RowMajorResizeKernel final : public TileKernel {
 public:
  RowMajorResizeKernel(const ResizeAttrs& a, const BindArgs& args)
      : linear_(a.mode == ResizeAttrs::Mode::kLinear), in_(args.inputs[0]), out_(args.output) {
    const Shape& x = args.shapes.inputs[0];
    const Shape& y = args.shapes.output;
    for (size_t d = 0; d < x.size(); ++d) {
      taps_.push_back(tap_table(a, static_cast<int>(d), x[d], y[d]));
      if (a.resizes(static_cast<int>(d))) resized_.push_back(static_cast<int>(d));
    }
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    const int rank = r.rank;
    std::array<int64_t, kMaxRank> index = r.begin;
    const int corners = linear_ ? 1 << resized_.size() : 1;
    while (true) {
      // Offsets of the axes that are not resized (or the nearest pick of all axes).
      int64_t base = 0, dst = 0;
      for (int d = 0; d < rank; ++d) {
        base += taps_[d][index[d]].i0 * in_.strides[d];
        dst += index[d] * out_.strides[d];
      }
      if (corners == 1) {
        y[dst] = x[base];
      } else {
        float acc = 0;
        for (int corner = 0; corner < corners; ++corner) {
          float weight = 1;
          int64_t offset = base;
          for (size_t k = 0; k < resized_.size(); ++k) {
            const int d = resized_[k];
            const Tap& t = taps_[d][index[d]];
            const bool second = (corner >> k) & 1;
            weight *= second ? t.w1 : t.w0;
            offset += second ? (t.i1 - t.i0) * in_.strides[d] : 0;
          }
          acc += weight * x[offset];
        }
        y[dst] = acc;
      }
      int d = rank - 1;
      for (; d >= 0; --d) {
        if (++index[d] < r.end[d]) break;
        index[d] = r.begin[d];
      }
      if (d < 0) return;
    }
  }
  std::string kernel_name() const override { return linear_ ? "f32_resize_linear" : "f32_resize_nearest"; }

 private:
  bool linear_;
  TensorBinding in_, out_;
  std::vector<std::vector<Tap>> taps_;  // per axis (identity taps where not resized)
  std::vector<int> resized_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ResizeAttrs& a, const BindArgs& args) {
  if (a.spatial_only()) return std::unique_ptr<TileKernel>(new NhwcResizeKernel(a, args));
  return std::unique_ptr<TileKernel>(new RowMajorResizeKernel(a, args));
}

}  // namespace tessera::ops
