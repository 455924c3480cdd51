// ResNet-50 v1.5 as torchvision builds it (stride in the bottleneck's 3x3 conv), exported with
// BatchNormalization kept after every bias-free Conv.
#include <string>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

namespace {

// The last BN of each residual branch gets a small gamma so 16 blocks of residual adds keep
// the activation scale roughly constant.
constexpr BatchNormSpec kResidualBranchBn = {0.2, 0.5};

Tensor conv_bn(LayerBuilder& nn, const Tensor& x, const std::string& conv_name, const std::string& bn_name,
               ConvSpec spec, BatchNormSpec bn = {}) {
  return nn.batch_norm(nn.conv(x, conv_name, spec), bn_name, bn);
}

Tensor bottleneck(LayerBuilder& nn, const Tensor& x, const std::string& prefix, int64_t width, int64_t stride) {
  const int64_t out_channels = width * 4;
  const std::string relu = prefix + ".relu";  // torchvision reuses one ReLU module three times
  Tensor y = conv_bn(nn, x, prefix + ".conv1", prefix + ".bn1", {.out_channels = width});
  y = nn.relu(y, relu);
  y = conv_bn(nn, y, prefix + ".conv2", prefix + ".bn2",
              {.out_channels = width, .kernel = 3, .stride = stride, .pads = same_pads(3)});
  y = nn.relu(y, relu);
  y = conv_bn(nn, y, prefix + ".conv3", prefix + ".bn3", {.out_channels = out_channels, .gain = kLinearGain},
              kResidualBranchBn);
  Tensor identity = x;
  if (stride != 1 || x.shape[1] != out_channels) {
    identity = conv_bn(nn, x, prefix + ".downsample.0", prefix + ".downsample.1",
                       {.out_channels = out_channels, .stride = stride, .gain = kLinearGain});
  }
  return nn.relu(nn.binary("Add", y, identity, prefix + ".add"), relu);
}

}  // namespace

void build_resnet50(LayerBuilder& nn, int64_t batch) {
  Tensor x = nn.graph().input("image", {batch, 3, 224, 224});
  x = conv_bn(nn, x, "conv1", "bn1", {.out_channels = 64, .kernel = 7, .stride = 2, .pads = same_pads(7)});
  x = nn.relu(x, "relu");
  x = nn.max_pool(x, "maxpool", 3, 2, 1);
  const int64_t blocks[4] = {3, 4, 6, 3};
  for (int layer = 0; layer < 4; ++layer) {
    const int64_t width = int64_t{64} << layer;
    for (int64_t b = 0; b < blocks[layer]; ++b) {
      const int64_t stride = (layer > 0 && b == 0) ? 2 : 1;
      x = bottleneck(nn, x, "layer" + std::to_string(layer + 1) + "." + std::to_string(b), width, stride);
    }
  }
  x = nn.flatten(nn.global_average_pool(x, "avgpool"), "flatten");
  nn.graph().output(nn.linear(x, "fc", 1000, kLinearGain), "logits");
}

}  // namespace tessera::zoo
