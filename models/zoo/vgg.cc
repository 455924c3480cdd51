// VGG-16 (configuration D, no BatchNorm) as torchvision builds it; the classifier's Dropout
// layers and the identity AdaptiveAvgPool2d(7) at 224x224 are left out, as an eval export folds them.
#include <string>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

void build_vgg16(LayerBuilder& nn, int64_t batch) {
  constexpr int64_t kPool = 0;
  constexpr int64_t kConfig[] = {64,    64,  kPool, 128, 128,   kPool, 256, 256, 256,
                                 kPool, 512, 512,   512, kPool, 512,   512, 512, kPool};
  Tensor x = nn.graph().input("image", {batch, 3, 224, 224});
  int index = 0;  // torchvision's position in `features`: conv, relu, ..., pool
  for (int64_t channels : kConfig) {
    const std::string name = "features." + std::to_string(index);
    if (channels == kPool) {
      x = nn.max_pool(x, name, 2, 2, 0);
      index += 1;
    } else {
      x = nn.conv(x, name, {.out_channels = channels, .kernel = 3, .pads = same_pads(3), .bias = true});
      x = nn.relu(x, "features." + std::to_string(index + 1));
      index += 2;
    }
  }
  x = nn.flatten(x, "flatten");
  x = nn.relu(nn.linear(x, "classifier.0", 4096, kReluGain), "classifier.1");
  x = nn.relu(nn.linear(x, "classifier.3", 4096, kReluGain), "classifier.4");
  nn.graph().output(nn.linear(x, "classifier.6", 1000, kLinearGain), "logits");
}

}  // namespace tessera::zoo
