// Inception v3 as torchvision builds it (eval: no auxiliary classifier, no dropout), at
// 299x299: every BasicConv2d is a bias-free Conv, BatchNormalization and ReLU. Its
// modules' parallel branches make the widest layer graph of the zoo.
#include <string>
#include <vector>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

namespace {

// A BasicConv2d of a `kh` x `kw` kernel; `pads` in ONNX order (top, left, bottom, right).
Tensor basic_conv(LayerBuilder& nn, const Tensor& x, const std::string& name, int64_t channels, int64_t kh,
                  int64_t kw = 0, int64_t stride = 1, std::array<int64_t, 4> pads = {0, 0, 0, 0}) {
  Tensor y = nn.conv(x, name + ".conv",
                     {.out_channels = channels, .kernel = kh, .kernel_w = kw, .stride = stride, .pads = pads});
  y = nn.batch_norm(y, name + ".bn");
  return nn.relu(y, name + ".relu");
}

Tensor same(LayerBuilder& nn, const Tensor& x, const std::string& name, int64_t channels, int64_t k) {
  return basic_conv(nn, x, name, channels, k, k, 1, same_pads(k));
}
// 1 x k and k x 1 kernels, padded to keep the size.
Tensor row(LayerBuilder& nn, const Tensor& x, const std::string& name, int64_t channels, int64_t k) {
  return basic_conv(nn, x, name, channels, 1, k, 1, {0, k / 2, 0, k / 2});
}
Tensor column(LayerBuilder& nn, const Tensor& x, const std::string& name, int64_t channels, int64_t k) {
  return basic_conv(nn, x, name, channels, k, 1, 1, {k / 2, 0, k / 2, 0});
}
Tensor pool_branch(LayerBuilder& nn, const Tensor& x, const std::string& name, int64_t channels) {
  return same(nn, nn.average_pool(x, name + ".avg_pool", 3, 1, 1), name, channels, 1);
}

Tensor inception_a(LayerBuilder& nn, const Tensor& x, const std::string& p, int64_t pool_features) {
  Tensor b1 = same(nn, x, p + ".branch1x1", 64, 1);
  Tensor b5 = same(nn, same(nn, x, p + ".branch5x5_1", 48, 1), p + ".branch5x5_2", 64, 5);
  Tensor b3 = same(nn, x, p + ".branch3x3dbl_1", 64, 1);
  b3 = same(nn, same(nn, b3, p + ".branch3x3dbl_2", 96, 3), p + ".branch3x3dbl_3", 96, 3);
  return nn.concat({b1, b5, b3, pool_branch(nn, x, p + ".branch_pool", pool_features)}, p + ".concat", 1);
}

Tensor inception_b(LayerBuilder& nn, const Tensor& x, const std::string& p) {
  Tensor b3 = basic_conv(nn, x, p + ".branch3x3", 384, 3, 3, 2);
  Tensor d = same(nn, same(nn, x, p + ".branch3x3dbl_1", 64, 1), p + ".branch3x3dbl_2", 96, 3);
  d = basic_conv(nn, d, p + ".branch3x3dbl_3", 96, 3, 3, 2);
  return nn.concat({b3, d, nn.max_pool(x, p + ".max_pool", 3, 2, 0)}, p + ".concat", 1);
}

Tensor inception_c(LayerBuilder& nn, const Tensor& x, const std::string& p, int64_t c7) {
  Tensor b1 = same(nn, x, p + ".branch1x1", 192, 1);
  Tensor b7 = same(nn, x, p + ".branch7x7_1", c7, 1);
  b7 = column(nn, row(nn, b7, p + ".branch7x7_2", c7, 7), p + ".branch7x7_3", 192, 7);
  Tensor d = same(nn, x, p + ".branch7x7dbl_1", c7, 1);
  d = row(nn, column(nn, d, p + ".branch7x7dbl_2", c7, 7), p + ".branch7x7dbl_3", c7, 7);
  d = row(nn, column(nn, d, p + ".branch7x7dbl_4", c7, 7), p + ".branch7x7dbl_5", 192, 7);
  return nn.concat({b1, b7, d, pool_branch(nn, x, p + ".branch_pool", 192)}, p + ".concat", 1);
}

Tensor inception_d(LayerBuilder& nn, const Tensor& x, const std::string& p) {
  Tensor b3 = basic_conv(nn, same(nn, x, p + ".branch3x3_1", 192, 1), p + ".branch3x3_2", 320, 3, 3, 2);
  Tensor b7 = same(nn, x, p + ".branch7x7x3_1", 192, 1);
  b7 = column(nn, row(nn, b7, p + ".branch7x7x3_2", 192, 7), p + ".branch7x7x3_3", 192, 7);
  b7 = basic_conv(nn, b7, p + ".branch7x7x3_4", 192, 3, 3, 2);
  return nn.concat({b3, b7, nn.max_pool(x, p + ".max_pool", 3, 2, 0)}, p + ".concat", 1);
}

// Its 3x3 branches split into a 1x3 and a 3x1 convolution side by side.
Tensor inception_e(LayerBuilder& nn, const Tensor& x, const std::string& p) {
  Tensor b1 = same(nn, x, p + ".branch1x1", 320, 1);
  Tensor b3 = same(nn, x, p + ".branch3x3_1", 384, 1);
  b3 = nn.concat({row(nn, b3, p + ".branch3x3_2a", 384, 3), column(nn, b3, p + ".branch3x3_2b", 384, 3)},
                 p + ".branch3x3_concat", 1);
  Tensor d = same(nn, same(nn, x, p + ".branch3x3dbl_1", 448, 1), p + ".branch3x3dbl_2", 384, 3);
  d = nn.concat({row(nn, d, p + ".branch3x3dbl_3a", 384, 3), column(nn, d, p + ".branch3x3dbl_3b", 384, 3)},
                p + ".branch3x3dbl_concat", 1);
  return nn.concat({b1, b3, d, pool_branch(nn, x, p + ".branch_pool", 192)}, p + ".concat", 1);
}

}  // namespace

void build_inception_v3(LayerBuilder& nn, int64_t batch) {
  Tensor x = nn.graph().input("image", {batch, 3, 299, 299});
  x = basic_conv(nn, x, "Conv2d_1a_3x3", 32, 3, 3, 2);
  x = basic_conv(nn, x, "Conv2d_2a_3x3", 32, 3);
  x = same(nn, x, "Conv2d_2b_3x3", 64, 3);
  x = nn.max_pool(x, "maxpool1", 3, 2, 0);
  x = same(nn, x, "Conv2d_3b_1x1", 80, 1);
  x = basic_conv(nn, x, "Conv2d_4a_3x3", 192, 3);
  x = nn.max_pool(x, "maxpool2", 3, 2, 0);
  x = inception_a(nn, x, "Mixed_5b", 32);
  x = inception_a(nn, x, "Mixed_5c", 64);
  x = inception_a(nn, x, "Mixed_5d", 64);
  x = inception_b(nn, x, "Mixed_6a");
  for (const auto& [name, c7] : std::vector<std::pair<std::string, int64_t>>{
           {"Mixed_6b", 128}, {"Mixed_6c", 160}, {"Mixed_6d", 160}, {"Mixed_6e", 192}})
    x = inception_c(nn, x, name, c7);
  x = inception_d(nn, x, "Mixed_7a");
  x = inception_e(nn, x, "Mixed_7b");
  x = inception_e(nn, x, "Mixed_7c");
  x = nn.flatten(nn.global_average_pool(x, "avgpool"), "flatten");
  nn.graph().output(nn.linear(x, "fc", 1000, kLinearGain), "logits");
}

}  // namespace tessera::zoo
