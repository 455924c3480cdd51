// TEST-ONLY ORACLE (see reference_interpreter.h): the compute ops — Conv, pools, Gemm, MatMul,
// BatchNormalization, LayerNormalization, Softmax, ReduceMean — as plain loops with double sums.
#include <algorithm>
#include <cmath>
#include <limits>

#include "models/check/reference_ops.h"

namespace tessera::zoo_check {

namespace {

struct Window2d {
  int64_t kernel_h, kernel_w, stride_h, stride_w, dil_h, dil_w;
  int64_t pad_top, pad_left, pad_bottom, pad_right;
  int64_t out_h, out_w;
};

Window2d window(const OpContext& ctx, int64_t in_h, int64_t in_w, Shape kernel) {
  require(ctx.attr_string("auto_pad", "NOTSET") == "NOTSET", "only auto_pad NOTSET is supported");
  require(ctx.attr_int("ceil_mode", 0) == 0, "only ceil_mode 0 is supported");
  const Shape strides = ctx.attr_ints("strides", {1, 1});
  const Shape dilations = ctx.attr_ints("dilations", {1, 1});
  const Shape pads = ctx.attr_ints("pads", {0, 0, 0, 0});
  require(kernel.size() == 2 && strides.size() == 2 && dilations.size() == 2 && pads.size() == 4,
          "2-D window attributes expected");
  Window2d w{kernel[0], kernel[1], strides[0], strides[1], dilations[0], dilations[1],
             pads[0], pads[1], pads[2], pads[3], 0, 0};
  w.out_h = (in_h + w.pad_top + w.pad_bottom - (w.dil_h * (w.kernel_h - 1) + 1)) / w.stride_h + 1;
  w.out_w = (in_w + w.pad_left + w.pad_right - (w.dil_w * (w.kernel_w - 1) + 1)) / w.stride_w + 1;
  require(w.out_h > 0 && w.out_w > 0, "window larger than the padded input");
  return w;
}

// Output columns [lo, hi) whose input column ow*stride + offset lies inside [0, size).
void valid_range(int64_t out, int64_t stride, int64_t offset, int64_t size, int64_t* lo, int64_t* hi) {
  *lo = 0;
  while (*lo < out && *lo * stride + offset < 0) ++*lo;
  *hi = out;
  while (*hi > *lo && (*hi - 1) * stride + offset >= size) --*hi;
}

RefTensor conv(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const RefTensor& w = ctx.in(1);
  require(x.shape.size() == 4 && w.shape.size() == 4, "Conv expects 4-D input and weight");
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  const int64_t m = w.shape[0], group = ctx.attr_int("group", 1);
  require(group > 0 && c % group == 0 && m % group == 0 && w.shape[1] == c / group, "Conv channel/group mismatch");
  const Shape kernel = {w.shape[2], w.shape[3]};
  require(ctx.attr_ints("kernel_shape", kernel) == kernel, "kernel_shape does not match the weight");
  const Window2d win = window(ctx, h, wd, kernel);
  const RefTensor* bias = ctx.has_input(2) ? &ctx.in(2) : nullptr;
  require(!bias || element_count(bias->shape) == m, "Conv bias must have one value per output channel");
  const int64_t cg = c / group, mg = m / group, plane = win.out_h * win.out_w;
  RefTensor y{{n, m, win.out_h, win.out_w}, std::vector<float>(static_cast<size_t>(n * m * plane))};
  std::vector<double> acc(static_cast<size_t>(plane));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oc = 0; oc < m; ++oc) {
      const int64_t g = oc / mg;
      std::fill(acc.begin(), acc.end(), bias ? bias->data[oc] : 0.0);
      for (int64_t ic = 0; ic < cg; ++ic) {
        const float* in = &x.data[((b * c) + g * cg + ic) * h * wd];
        for (int64_t kh = 0; kh < win.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < win.kernel_w; ++kw) {
            const double wv = w.data[((oc * cg + ic) * win.kernel_h + kh) * win.kernel_w + kw];
            const int64_t off_h = kh * win.dil_h - win.pad_top, off_w = kw * win.dil_w - win.pad_left;
            int64_t oh0, oh1, ow0, ow1;
            valid_range(win.out_h, win.stride_h, off_h, h, &oh0, &oh1);
            valid_range(win.out_w, win.stride_w, off_w, wd, &ow0, &ow1);
            for (int64_t oh = oh0; oh < oh1; ++oh) {
              const float* row = in + (oh * win.stride_h + off_h) * wd + off_w;
              double* out = &acc[oh * win.out_w];
              for (int64_t ow = ow0; ow < ow1; ++ow) out[ow] += wv * row[ow * win.stride_w];
            }
          }
        }
      }
      std::copy(acc.begin(), acc.end(), &y.data[(b * m + oc) * plane]);
    }
  }
  ctx.add_macs(n * m * plane * cg * win.kernel_h * win.kernel_w);
  return y;
}

RefTensor pool(OpContext& ctx, bool is_max) {
  const RefTensor& x = ctx.in(0);
  require(x.shape.size() == 4, "pooling expects a 4-D input");
  const int64_t nc = x.shape[0] * x.shape[1], h = x.shape[2], wd = x.shape[3];
  const Window2d win = window(ctx, h, wd, ctx.attr_ints("kernel_shape", {}));
  const bool count_pad = ctx.attr_int("count_include_pad", 0) != 0;
  RefTensor y{{x.shape[0], x.shape[1], win.out_h, win.out_w},
              std::vector<float>(static_cast<size_t>(nc * win.out_h * win.out_w))};
  for (int64_t p = 0; p < nc; ++p) {
    for (int64_t oh = 0; oh < win.out_h; ++oh) {
      for (int64_t ow = 0; ow < win.out_w; ++ow) {
        double best = -std::numeric_limits<double>::infinity(), sum = 0;
        int64_t count = 0;
        for (int64_t kh = 0; kh < win.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < win.kernel_w; ++kw) {
            const int64_t ih = oh * win.stride_h + kh * win.dil_h - win.pad_top;
            const int64_t iw = ow * win.stride_w + kw * win.dil_w - win.pad_left;
            if (ih < 0 || ih >= h || iw < 0 || iw >= wd) {
              // Padding cells count for the average only inside the padded extent.
              if (count_pad && ih < h + win.pad_bottom && iw < wd + win.pad_right) ++count;
              continue;
            }
            const double v = x.data[(p * h + ih) * wd + iw];
            best = std::max(best, v);
            sum += v;
            ++count;
          }
        }
        y.data[(p * win.out_h + oh) * win.out_w + ow] = static_cast<float>(is_max ? best : sum / count);
      }
    }
  }
  return y;
}

RefTensor max_pool(OpContext& ctx) { return pool(ctx, true); }
RefTensor average_pool(OpContext& ctx) {
  require(!ctx.has_attr("dilations") || ctx.attr_ints("dilations", {}) == Shape{1, 1},
          "AveragePool dilations are not supported");
  return pool(ctx, false);
}

RefTensor global_average_pool(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  require(x.shape.size() >= 3, "GlobalAveragePool expects rank >= 3");
  const int64_t nc = x.shape[0] * x.shape[1], spatial = element_count(x.shape) / nc;
  Shape out_shape(x.shape.size(), 1);
  out_shape[0] = x.shape[0];
  out_shape[1] = x.shape[1];
  RefTensor y{out_shape, std::vector<float>(static_cast<size_t>(nc))};
  for (int64_t p = 0; p < nc; ++p) {
    double sum = 0;
    for (int64_t i = 0; i < spatial; ++i) sum += x.data[p * spatial + i];
    y.data[p] = static_cast<float>(sum / spatial);
  }
  return y;
}

RefTensor batch_norm(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  require(x.shape.size() >= 2, "BatchNormalization expects rank >= 2");
  require(ctx.attr_int("training_mode", 0) == 0, "only inference mode is supported");
  const int64_t n = x.shape[0], c = x.shape[1], inner = element_count(x.shape) / (n * c);
  for (size_t i = 1; i <= 4; ++i) require(element_count(ctx.in(i).shape) == c, "BN parameters must have C values");
  const double eps = ctx.attr_float("epsilon", 1e-5);
  RefTensor y{x.shape, std::vector<float>(x.data.size())};
  for (int64_t ch = 0; ch < c; ++ch) {
    const double scale = ctx.in(1).data[ch] / std::sqrt(static_cast<double>(ctx.in(4).data[ch]) + eps);
    const double shift = ctx.in(2).data[ch] - ctx.in(3).data[ch] * scale;
    for (int64_t b = 0; b < n; ++b) {
      const int64_t base = (b * c + ch) * inner;
      for (int64_t i = 0; i < inner; ++i) y.data[base + i] = static_cast<float>(x.data[base + i] * scale + shift);
    }
  }
  return y;
}

// out[b][i][j] = sum_k a[b][i][k] * bt[b][j][k]: both operands read along contiguous rows.
void matmul_nt(const float* a, const float* bt, double* out, int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += static_cast<double>(a[i * k + p]) * bt[j * k + p];
      out[i * n + j] = sum;
    }
  }
}

std::vector<float> transposed(const float* x, int64_t rows, int64_t cols) {
  std::vector<float> t(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = x[r * cols + c];
  }
  return t;
}

RefTensor gemm(OpContext& ctx) {
  const RefTensor& a = ctx.in(0);
  const RefTensor& b = ctx.in(1);
  require(a.shape.size() == 2 && b.shape.size() == 2, "Gemm expects 2-D A and B");
  const bool ta = ctx.attr_int("transA", 0) != 0, tb = ctx.attr_int("transB", 0) != 0;
  const int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
  const int64_t n = tb ? b.shape[0] : b.shape[1];
  require((tb ? b.shape[1] : b.shape[0]) == k, "Gemm inner dimensions differ");
  std::vector<float> a_copy, b_copy;  // only filled when the operand must be transposed
  if (ta) a_copy = transposed(a.data.data(), a.shape[0], a.shape[1]);
  if (!tb) b_copy = transposed(b.data.data(), b.shape[0], b.shape[1]);
  std::vector<double> acc(static_cast<size_t>(m * n));
  matmul_nt(ta ? a_copy.data() : a.data.data(), tb ? b.data.data() : b_copy.data(), acc.data(), m, n, k);
  const double alpha = ctx.attr_float("alpha", 1.0), beta = ctx.attr_float("beta", 1.0);
  RefTensor y{{m, n}, std::vector<float>(static_cast<size_t>(m * n))};
  const RefTensor* c = ctx.has_input(2) ? &ctx.in(2) : nullptr;
  Shape cs = c ? c->shape : Shape{};
  while (cs.size() < 2) cs.insert(cs.begin(), 1);
  require(!c || ((cs[0] == 1 || cs[0] == m) && (cs[1] == 1 || cs[1] == n)), "Gemm C does not broadcast to [M, N]");
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double v = alpha * acc[i * n + j];
      if (c) v += beta * c->data[(cs[0] == 1 ? 0 : i) * cs[1] + (cs[1] == 1 ? 0 : j)];
      y.data[i * n + j] = static_cast<float>(v);
    }
  }
  ctx.add_macs(m * n * k);
  return y;
}

RefTensor matmul(OpContext& ctx) {
  Shape as = ctx.in(0).shape, bs = ctx.in(1).shape;
  require(!as.empty() && !bs.empty(), "MatMul operands must have rank >= 1");
  const bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  require(bs[bs.size() - 2] == k, "MatMul inner dimensions differ");
  const size_t rank = std::max(as.size(), bs.size());
  Shape batch(rank - 2);
  for (size_t i = 0; i < rank - 2; ++i) {
    const int64_t da = i + as.size() < rank ? 1 : as[i + as.size() - rank];
    const int64_t db = i + bs.size() < rank ? 1 : bs[i + bs.size() - rank];
    require(da == db || da == 1 || db == 1, "MatMul batch dimensions do not broadcast");
    batch[i] = std::max(da, db);
  }
  const int64_t batches = element_count(batch);
  Shape out_shape = batch;
  if (!a_vec) out_shape.push_back(m);
  if (!b_vec) out_shape.push_back(n);
  RefTensor y{out_shape, std::vector<float>(static_cast<size_t>(batches * m * n))};
  std::vector<double> acc(static_cast<size_t>(m * n));
  for (int64_t bi = 0; bi < batches; ++bi) {
    // Batch offsets of each operand: broadcast dimensions contribute stride 0.
    int64_t rem = bi, a_off = 0, b_off = 0, a_stride = 1, b_stride = 1;
    for (size_t i = rank - 2; i-- > 0;) {
      const int64_t idx = rem % batch[i];
      rem /= batch[i];
      const int64_t da = i + as.size() < rank ? 1 : as[i + as.size() - rank];
      const int64_t db = i + bs.size() < rank ? 1 : bs[i + bs.size() - rank];
      a_off += (da == 1 ? 0 : idx) * a_stride;
      b_off += (db == 1 ? 0 : idx) * b_stride;
      a_stride *= da;
      b_stride *= db;
    }
    const std::vector<float> bt = transposed(ctx.in(1).data.data() + b_off * k * n, k, n);
    matmul_nt(ctx.in(0).data.data() + a_off * m * k, bt.data(), acc.data(), m, n, k);
    std::copy(acc.begin(), acc.end(), y.data.begin() + bi * m * n);
  }
  ctx.add_macs(batches * m * n * k);
  return y;
}

RefTensor layer_norm(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const int64_t axis = normalize_axis(ctx.attr_int("axis", -1), static_cast<int64_t>(x.shape.size()));
  const int64_t inner = element_count(Shape(x.shape.begin() + axis, x.shape.end()));
  const int64_t outer = element_count(x.shape) / inner;
  const double eps = ctx.attr_float("epsilon", 1e-5);
  require(element_count(ctx.in(1).shape) == inner, "LayerNormalization scale must cover the normalised axes");
  const RefTensor* bias = ctx.has_input(2) ? &ctx.in(2) : nullptr;
  require(!bias || element_count(bias->shape) == inner, "LayerNormalization bias must cover the normalised axes");
  RefTensor y{x.shape, std::vector<float>(x.data.size())};
  for (int64_t o = 0; o < outer; ++o) {
    const float* row = &x.data[o * inner];
    double mean = 0, var = 0;
    for (int64_t i = 0; i < inner; ++i) mean += row[i];
    mean /= inner;
    for (int64_t i = 0; i < inner; ++i) var += (row[i] - mean) * (row[i] - mean);
    const double inv = 1.0 / std::sqrt(var / inner + eps);
    for (int64_t i = 0; i < inner; ++i) {
      y.data[o * inner + i] =
          static_cast<float>((row[i] - mean) * inv * ctx.in(1).data[i] + (bias ? bias->data[i] : 0.0));
    }
  }
  return y;
}

RefTensor softmax(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis = normalize_axis(ctx.attr_int("axis", -1), rank);
  const int64_t len = x.shape[axis];
  const int64_t inner = element_count(Shape(x.shape.begin() + axis + 1, x.shape.end()));
  const int64_t outer = element_count(x.shape) / (len * inner);
  RefTensor y{x.shape, std::vector<float>(x.data.size())};
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t i) { return (o * len + i) * inner + in; };
      double mx = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t i = 0; i < len; ++i) mx = std::max(mx, static_cast<double>(x.data[at(i)]));
      for (int64_t i = 0; i < len; ++i) sum += std::exp(x.data[at(i)] - mx);
      for (int64_t i = 0; i < len; ++i) y.data[at(i)] = static_cast<float>(std::exp(x.data[at(i)] - mx) / sum);
    }
  }
  return y;
}

RefTensor reduce_mean(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  Shape axes = ctx.has_input(1) ? ctx.ints(1) : ctx.attr_ints("axes", {});
  if (axes.empty()) {
    if (ctx.attr_int("noop_with_empty_axes", 0) != 0) return x;
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t a : axes) reduced[normalize_axis(a, rank)] = true;
  const bool keep = ctx.attr_int("keepdims", 1) != 0;
  Shape kept_shape(x.shape);  // the output with reduced axes as 1
  for (int64_t i = 0; i < rank; ++i) {
    if (reduced[i]) kept_shape[i] = 1;
  }
  const int64_t out_count = element_count(kept_shape);
  std::vector<double> sum(static_cast<size_t>(out_count), 0.0);
  Shape idx(static_cast<size_t>(rank), 0);
  for (int64_t flat = 0; flat < element_count(x.shape); ++flat) {
    int64_t out = 0;
    for (int64_t i = 0; i < rank; ++i) out = out * kept_shape[i] + (reduced[i] ? 0 : idx[i]);
    sum[out] += x.data[flat];
    for (int64_t i = rank; i-- > 0;) {
      if (++idx[i] < x.shape[i]) break;
      idx[i] = 0;
    }
  }
  const double per = static_cast<double>(element_count(x.shape)) / out_count;
  Shape out_shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i] || keep) out_shape.push_back(kept_shape[i]);
  }
  RefTensor y{out_shape, std::vector<float>(static_cast<size_t>(out_count))};
  for (int64_t i = 0; i < out_count; ++i) y.data[i] = static_cast<float>(sum[i] / per);
  return y;
}

}  // namespace

void add_compute_ops(OpTable& t) {
  t["Conv"] = {conv, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}};
  t["MaxPool"] = {max_pool, {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"}};
  t["AveragePool"] = {average_pool,
                      {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"}};
  t["GlobalAveragePool"] = {global_average_pool, {}};
  t["BatchNormalization"] = {batch_norm, {"epsilon", "momentum", "training_mode"}};
  t["Gemm"] = {gemm, {"alpha", "beta", "transA", "transB"}};
  t["MatMul"] = {matmul, {}};
  t["LayerNormalization"] = {layer_norm, {"axis", "epsilon", "stash_type"}};
  t["Softmax"] = {softmax, {"axis"}};
  t["ReduceMean"] = {reduce_mean, {"axes", "keepdims", "noop_with_empty_axes"}};
}

}  // namespace tessera::zoo_check
