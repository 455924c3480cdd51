// LayerBuilder: PyTorch-module-shaped helpers (conv, batch norm, linear, attention pieces)
// that emit ONNX-export-style nodes, infer output shapes and draw seeded initial weights.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/zoo/graph_builder.h"
#include "models/zoo/random_init.h"

namespace tessera::zoo {

// Variance gain of a weight init: 2/fan_in before ReLU-like activations, 1/fan_in otherwise.
inline constexpr double kReluGain = 2.0;
inline constexpr double kLinearGain = 1.0;

struct ConvSpec {
  int64_t out_channels = 0;
  int64_t kernel = 1;
  int64_t kernel_w = 0;  // the width of a non-square kernel (Inception's 1x7 and 7x1); 0: `kernel`
  int64_t stride = 1;
  std::array<int64_t, 4> pads = {0, 0, 0, 0};  // ONNX order: top, left, bottom, right
  int64_t dilation = 1;
  int64_t group = 1;
  bool bias = false;
  double gain = kReluGain;
};

// Symmetric "same-style" padding of k // 2 on every side, as torchvision writes it.
inline std::array<int64_t, 4> same_pads(int64_t kernel, int64_t dilation = 1) {
  const int64_t p = dilation * (kernel - 1) / 2;
  return {p, p, p, p};
}

struct BatchNormSpec {
  double gamma_lo = 0.8, gamma_hi = 1.2;  // use a small gamma on the last BN of a residual branch
};

// Holds references to one graph and its random stream; not thread-safe.
class LayerBuilder {
 public:
  LayerBuilder(GraphBuilder& graph, Rng& rng) : g_(graph), rng_(rng) {}

  GraphBuilder& graph() { return g_; }
  Rng& rng() { return rng_; }

  // Conv weights "<name>.weight" [out, in/group, k, k] (+ "<name>.bias"), Kaiming uniform.
  Tensor conv(const Tensor& x, const std::string& name, const ConvSpec& spec);
  // Inference BatchNormalization with "<name>.weight/.bias/.running_mean/.running_var", eps 1e-5.
  Tensor batch_norm(const Tensor& x, const std::string& name, const BatchNormSpec& spec = {});
  // Gemm(x, W[out, in], b, transB=1): torch.nn.Linear as exported.
  Tensor linear(const Tensor& x, const std::string& name, int64_t out_features, double gain);
  // MatMul(x, W[in, out]) + Add(bias): a transformer dense layer as exported from HF models.
  // `zero_mean` shifts each output unit's weights to sum to zero, so an offset shared by all
  // inputs (GELU's positive mean) does not pass to every token alike.
  Tensor dense(const Tensor& x, const std::string& name, int64_t out_features, double gain, bool zero_mean = false);
  // LayerNormalization over the last axis with "<name>.weight/.bias".
  Tensor layer_norm(const Tensor& x, const std::string& name, double epsilon);

  Tensor unary(const std::string& op, const Tensor& x, const std::string& name,
               Attributes attributes = Attributes::object());
  // Add/Sub/Mul/Div/Pow with numpy broadcasting.
  Tensor binary(const std::string& op, const Tensor& a, const Tensor& b, const std::string& name);
  Tensor relu(const Tensor& x, const std::string& name) { return unary("Relu", x, name); }
  // Clip with bounds as scalar initializer inputs (opset 11+), e.g. ReLU6 = clip(x, 0, 6).
  Tensor clip(const Tensor& x, const std::string& name, float lo, float hi);
  Tensor matmul(const Tensor& a, const Tensor& b, const std::string& name);

  Tensor max_pool(const Tensor& x, const std::string& name, int64_t kernel, int64_t stride, int64_t pad);
  // With `pad` on every side the border windows count the padding, as torch's avg_pool2d does.
  Tensor average_pool(const Tensor& x, const std::string& name, int64_t kernel, int64_t stride, int64_t pad = 0);
  Tensor global_average_pool(const Tensor& x, const std::string& name);
  Tensor flatten(const Tensor& x, const std::string& name);
  Tensor reshape(const Tensor& x, const std::string& name, const Shape& shape);
  Tensor transpose(const Tensor& x, const std::string& name, const std::vector<int64_t>& perm);
  Tensor softmax(const Tensor& x, const std::string& name);
  Tensor concat(const std::vector<Tensor>& xs, const std::string& name, int64_t axis);
  // ReduceMean with axes as an int64 initializer input (opset 18+), like Squeeze/Unsqueeze.
  Tensor reduce_mean(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes, bool keepdims);
  Tensor squeeze(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes);
  Tensor unsqueeze(const Tensor& x, const std::string& name, const std::vector<int64_t>& axes);

  // A float initializer of uniform values in [lo, hi).
  Tensor uniform_param(const std::string& name, const Shape& shape, double lo, double hi,
                       InitKind kind = InitKind::kParameter);

 private:
  GraphBuilder& g_;
  Rng& rng_;
};

Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace tessera::zoo
