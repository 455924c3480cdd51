// LayerBuilder: one ONNX-export-shaped node group per helper, with shape inference and weights.
#include "models/zoo/layers.h"

#include <algorithm>
#include <cmath>

#include "core/base/check.h"

namespace tessera::zoo {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    TESSERA_CHECK(da == db || da == 1 || db == 1);
    out[i] = std::max(da, db);
  }
  return out;
}

Tensor LayerBuilder::uniform_param(const std::string& name, const Shape& shape, double lo, double hi, InitKind kind) {
  return g_.initializer(name, shape, rng_.uniform_values(element_count(shape), lo, hi), kind);
}

Tensor LayerBuilder::conv(const Tensor& x, const std::string& name, const ConvSpec& spec) {
  TESSERA_CHECK(x.shape.size() == 4 && x.shape[1] % spec.group == 0 && spec.out_channels % spec.group == 0);
  const int64_t in_per_group = x.shape[1] / spec.group;
  const int64_t kh = spec.kernel, kw = spec.kernel_w > 0 ? spec.kernel_w : spec.kernel;
  const int64_t fan_in = in_per_group * kh * kw;
  const double w_bound = kaiming_bound(spec.gain, fan_in);
  std::vector<Tensor> inputs = {
      x, uniform_param(name + ".weight", {spec.out_channels, in_per_group, kh, kw}, -w_bound, w_bound)};
  if (spec.bias) {
    const double b_bound = 1.0 / std::sqrt(static_cast<double>(fan_in));  // torch's default
    inputs.push_back(uniform_param(name + ".bias", {spec.out_channels}, -b_bound, b_bound));
  }
  const auto& p = spec.pads;
  const int64_t out_h = (x.shape[2] + p[0] + p[2] - (spec.dilation * (kh - 1) + 1)) / spec.stride + 1;
  const int64_t out_w = (x.shape[3] + p[1] + p[3] - (spec.dilation * (kw - 1) + 1)) / spec.stride + 1;
  TESSERA_CHECK(out_h > 0 && out_w > 0);
  Attributes attributes{{"dilations", {spec.dilation, spec.dilation}},
                        {"group", spec.group},
                        {"kernel_shape", {kh, kw}},
                        {"pads", p},
                        {"strides", {spec.stride, spec.stride}}};
  return g_.node("Conv", name, inputs, {x.shape[0], spec.out_channels, out_h, out_w}, attributes);
}

Tensor LayerBuilder::batch_norm(const Tensor& x, const std::string& name, const BatchNormSpec& spec) {
  const Shape c = {x.shape.at(1)};
  Tensor gamma = uniform_param(name + ".weight", c, spec.gamma_lo, spec.gamma_hi);
  Tensor beta = uniform_param(name + ".bias", c, -0.1, 0.1);
  Tensor mean = uniform_param(name + ".running_mean", c, -0.1, 0.1, InitKind::kBuffer);
  Tensor var = uniform_param(name + ".running_var", c, 0.5, 1.5, InitKind::kBuffer);
  return g_.node("BatchNormalization", name, {x, gamma, beta, mean, var}, x.shape, {{"epsilon", 1e-5}});
}

Tensor LayerBuilder::linear(const Tensor& x, const std::string& name, int64_t out_features, double gain) {
  TESSERA_CHECK(x.shape.size() == 2);
  const int64_t in = x.shape[1];
  const double w_bound = kaiming_bound(gain, in);
  const double b_bound = 1.0 / std::sqrt(static_cast<double>(in));
  Tensor w = uniform_param(name + ".weight", {out_features, in}, -w_bound, w_bound);
  Tensor b = uniform_param(name + ".bias", {out_features}, -b_bound, b_bound);
  return g_.node("Gemm", name, {x, w, b}, {x.shape[0], out_features}, {{"alpha", 1.0}, {"beta", 1.0}, {"transB", 1}});
}

Tensor LayerBuilder::dense(const Tensor& x, const std::string& name, int64_t out_features, double gain,
                           bool zero_mean) {
  const int64_t in = x.shape.back();
  const double w_bound = kaiming_bound(gain, in);
  std::vector<float> values = rng_.uniform_values(in * out_features, -w_bound, w_bound);
  if (zero_mean) {
    for (int64_t o = 0; o < out_features; ++o) {
      double mean = 0;
      for (int64_t i = 0; i < in; ++i) mean += values[i * out_features + o];
      mean /= static_cast<double>(in);
      for (int64_t i = 0; i < in; ++i) {
        float& v = values[i * out_features + o];
        v = static_cast<float>(v - mean);
      }
    }
  }
  Tensor w = g_.initializer(name + ".weight", {in, out_features}, values);
  Tensor b = uniform_param(name + ".bias", {out_features}, -0.02, 0.02);
  return binary("Add", matmul(x, w, name + ".matmul"), b, name + ".add");
}

Tensor LayerBuilder::layer_norm(const Tensor& x, const std::string& name, double epsilon) {
  const Shape c = {x.shape.back()};
  Tensor gamma = uniform_param(name + ".weight", c, 0.9, 1.1);
  Tensor beta = uniform_param(name + ".bias", c, -0.05, 0.05);
  return g_.node("LayerNormalization", name, {x, gamma, beta}, x.shape, {{"axis", -1}, {"epsilon", epsilon}});
}

Tensor LayerBuilder::unary(const std::string& op, const Tensor& x, const std::string& name, Attributes attributes) {
  return g_.node(op, name, {x}, x.shape, std::move(attributes));
}

Tensor LayerBuilder::binary(const std::string& op, const Tensor& a, const Tensor& b, const std::string& name) {
  return g_.node(op, name, {a, b}, broadcast_shapes(a.shape, b.shape));
}

Tensor LayerBuilder::clip(const Tensor& x, const std::string& name, float lo, float hi) {
  return g_.node("Clip", name, {x, g_.scalar(lo), g_.scalar(hi)}, x.shape);
}

Tensor LayerBuilder::matmul(const Tensor& a, const Tensor& b, const std::string& name) {
  TESSERA_CHECK(a.shape.size() >= 2 && b.shape.size() >= 2);
  TESSERA_CHECK(a.shape.back() == b.shape[b.shape.size() - 2]);
  Shape out = broadcast_shapes(Shape(a.shape.begin(), a.shape.end() - 2), Shape(b.shape.begin(), b.shape.end() - 2));
  out.push_back(a.shape[a.shape.size() - 2]);
  out.push_back(b.shape.back());
  return g_.node("MatMul", name, {a, b}, out);
}

Tensor LayerBuilder::max_pool(const Tensor& x, const std::string& name, int64_t kernel, int64_t stride, int64_t pad) {
  const int64_t h = (x.shape[2] + 2 * pad - kernel) / stride + 1;
  const int64_t w = (x.shape[3] + 2 * pad - kernel) / stride + 1;
  return g_.node("MaxPool", name, {x}, {x.shape[0], x.shape[1], h, w},
                 {{"ceil_mode", 0},
                  {"kernel_shape", {kernel, kernel}},
                  {"pads", {pad, pad, pad, pad}},
                  {"strides", {stride, stride}}});
}

Tensor LayerBuilder::average_pool(const Tensor& x, const std::string& name, int64_t kernel, int64_t stride,
                                  int64_t pad) {
  const int64_t h = (x.shape[2] + 2 * pad - kernel) / stride + 1;
  const int64_t w = (x.shape[3] + 2 * pad - kernel) / stride + 1;
  return g_.node("AveragePool", name, {x}, {x.shape[0], x.shape[1], h, w},
                 {{"ceil_mode", 0},
                  {"count_include_pad", pad > 0 ? 1 : 0},
                  {"kernel_shape", {kernel, kernel}},
                  {"pads", {pad, pad, pad, pad}},
                  {"strides", {stride, stride}}});
}

Tensor LayerBuilder::global_average_pool(const Tensor& x, const std::string& name) {
  return g_.node("GlobalAveragePool", name, {x}, {x.shape[0], x.shape[1], 1, 1});
}

Tensor LayerBuilder::flatten(const Tensor& x, const std::string& name) {
  return g_.node("Flatten", name, {x}, {x.shape[0], element_count(x.shape) / x.shape[0]}, {{"axis", 1}});
}

Tensor LayerBuilder::reshape(const Tensor& x, const std::string& name, const Shape& shape) {
  TESSERA_CHECK(element_count(shape) == element_count(x.shape));
  return g_.node("Reshape", name, {x, g_.int64_list(shape, "shape")}, shape);
}

Tensor LayerBuilder::transpose(const Tensor& x, const std::string& name, const std::vector<int64_t>& perm) {
  TESSERA_CHECK(perm.size() == x.shape.size());
  Shape out;
  for (int64_t p : perm) out.push_back(x.shape.at(static_cast<size_t>(p)));
  return g_.node("Transpose", name, {x}, out, {{"perm", perm}});
}

Tensor LayerBuilder::softmax(const Tensor& x, const std::string& name) {
  return g_.node("Softmax", name, {x}, x.shape, {{"axis", -1}});
}

Tensor LayerBuilder::concat(const std::vector<Tensor>& xs, const std::string& name, int64_t axis) {
  Shape out = xs.at(0).shape;
  out.at(static_cast<size_t>(axis)) = 0;
  for (const Tensor& x : xs) out[static_cast<size_t>(axis)] += x.shape.at(static_cast<size_t>(axis));
  return g_.node("Concat", name, xs, out, {{"axis", axis}});
}

Tensor LayerBuilder::reduce_mean(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes,
                                 bool keepdims) {
  Shape out;
  for (size_t i = 0; i < x.shape.size(); ++i) {
    const bool reduced = std::count(axes.begin(), axes.end(), static_cast<int64_t>(i)) > 0;
    if (!reduced)
      out.push_back(x.shape[i]);
    else if (keepdims)
      out.push_back(1);
  }
  return g_.node("ReduceMean", name, {x, g_.int64_list(axes, "axes")}, out, {{"keepdims", keepdims ? 1 : 0}});
}

Tensor LayerBuilder::squeeze(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes) {
  Shape out;
  for (size_t i = 0; i < x.shape.size(); ++i) {
    if (std::count(axes.begin(), axes.end(), static_cast<int64_t>(i)) == 0)
      out.push_back(x.shape[i]);
    else
      TESSERA_CHECK(x.shape[i] == 1);
  }
  return g_.node("Squeeze", name, {x, g_.int64_list(axes, "axes")}, out);
}

Tensor LayerBuilder::unsqueeze(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes) {
  Shape out = x.shape;
  std::vector<int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t a : sorted) out.insert(out.begin() + a, 1);
  return g_.node("Unsqueeze", name, {x, g_.int64_list(axes, "axes")}, out);
}

}  // namespace tessera::zoo
