// MobileNetV2 (width 1.0) as torchvision builds it: ReLU6 exported as Clip(0, 6) with bound
// inputs, BatchNormalization after every bias-free Conv; also owns the shared InvertedResidual.
#include <string>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

namespace {

// Conv2dNormActivation: conv "<prefix>.0", BN "<prefix>.1", ReLU6 "<prefix>.2".
Tensor conv_bn_relu6(LayerBuilder& nn, const Tensor& x, const std::string& prefix, const ConvSpec& spec) {
  Tensor y = nn.batch_norm(nn.conv(x, prefix + ".0", spec), prefix + ".1");
  return nn.clip(y, prefix + ".2", 0.0f, 6.0f);
}

}  // namespace

Tensor inverted_residual(LayerBuilder& nn, const Tensor& x, const std::string& prefix, int64_t out_channels,
                         int64_t stride, int64_t expand_ratio) {
  const int64_t in_channels = x.shape[1];
  const int64_t hidden = in_channels * expand_ratio;
  const bool residual = stride == 1 && in_channels == out_channels;
  int index = 0;
  auto next = [&] { return prefix + ".conv." + std::to_string(index++); };
  Tensor y = x;
  if (expand_ratio != 1) y = conv_bn_relu6(nn, y, next(), {.out_channels = hidden});
  y = conv_bn_relu6(nn, y, next(),
                    {.out_channels = hidden, .kernel = 3, .stride = stride, .pads = same_pads(3), .group = hidden});
  y = nn.conv(y, next(), {.out_channels = out_channels, .gain = kLinearGain});
  // A small gamma on the residual branch keeps the 10 residual adds from growing the scale.
  y = nn.batch_norm(y, next(), residual ? BatchNormSpec{0.2, 0.5} : BatchNormSpec{});
  return residual ? nn.binary("Add", x, y, prefix + ".add") : y;
}

void build_mobilenet_v2(LayerBuilder& nn, int64_t batch) {
  struct Stage {
    int64_t expand, channels, repeats, stride;
  };
  constexpr Stage kStages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                               {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  Tensor x = nn.graph().input("image", {batch, 3, 224, 224});
  x = conv_bn_relu6(nn, x, "features.0", {.out_channels = 32, .kernel = 3, .stride = 2, .pads = same_pads(3)});
  int feature = 1;
  for (const Stage& stage : kStages) {
    for (int64_t i = 0; i < stage.repeats; ++i) {
      x = inverted_residual(nn, x, "features." + std::to_string(feature++), stage.channels, i == 0 ? stage.stride : 1,
                            stage.expand);
    }
  }
  x = conv_bn_relu6(nn, x, "features." + std::to_string(feature), {.out_channels = 1280});
  x = nn.flatten(nn.global_average_pool(x, "avgpool"), "flatten");
  nn.graph().output(nn.linear(x, "classifier.1", 1000, kLinearGain), "logits");
}

}  // namespace tessera::zoo
