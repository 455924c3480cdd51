// The tiny models: small graphs (KBs) that together exercise every op and fusion pattern the
// engine supports — odd sizes, asymmetric pads, broadcasting, both GELU spellings — for fast tests.
#include <cmath>
#include <string>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

void build_tiny_cnn(LayerBuilder& nn, int64_t /*batch*/) {
  Tensor x = nn.graph().input("image", {2, 3, 17, 19});  // odd sizes on purpose
  x = nn.relu(nn.batch_norm(nn.conv(x, "conv1", {.out_channels = 8, .kernel = 3, .pads = same_pads(3)}), "bn1"),
              "relu1");
  // Asymmetric pads [top, left, bottom, right] = [0, 1, 1, 0]: 17x19 -> 8x9.
  x = nn.conv(x, "conv2", {.out_channels = 16, .kernel = 3, .stride = 2, .pads = {0, 1, 1, 0}});
  x = nn.relu(nn.batch_norm(x, "bn2"), "relu2");

  Tensor y = nn.conv(x, "block.conv1", {.out_channels = 16, .kernel = 3, .pads = same_pads(3)});
  y = nn.relu(nn.batch_norm(y, "block.bn1"), "block.relu1");
  y = nn.conv(y, "block.conv2", {.out_channels = 16, .kernel = 3, .pads = same_pads(3), .gain = kLinearGain});
  y = nn.batch_norm(y, "block.bn2", {0.3, 0.6});
  x = nn.relu(nn.binary("Add", y, x, "block.add"), "block.relu2");

  x = nn.conv(x, "dw", {.out_channels = 16, .kernel = 3, .pads = same_pads(3), .group = 16});
  x = nn.clip(nn.batch_norm(x, "dw_bn"), "dw_relu6", 0.0f, 6.0f);
  x = nn.relu(nn.conv(x, "pw", {.out_channels = 24, .bias = true}), "pw_relu");
  x = nn.conv(x, "dilated", {.out_channels = 24, .kernel = 3, .pads = same_pads(3, 2), .dilation = 2, .bias = true});
  x = nn.relu(x, "dilated_relu");
  x = nn.conv(x, "grouped", {.out_channels = 32, .kernel = 3, .pads = same_pads(3), .group = 2});
  x = nn.relu(nn.batch_norm(x, "grouped_bn"), "grouped_relu");

  x = nn.max_pool(x, "maxpool", 3, 2, 1);   // 8x9 -> 4x5
  x = nn.average_pool(x, "avgpool", 2, 1);  // 4x5 -> 3x4
  x = nn.flatten(nn.global_average_pool(x, "gap"), "flatten");
  x = nn.linear(x, "fc", 10, kLinearGain);
  nn.graph().output(nn.softmax(x, "softmax"), "probs");
}

void build_tiny_mobilenet(LayerBuilder& nn, int64_t /*batch*/) {
  Tensor x = nn.graph().input("image", {1, 3, 32, 32});
  x = nn.conv(x, "stem.0", {.out_channels = 16, .kernel = 3, .stride = 2, .pads = same_pads(3)});
  x = nn.unary("HardSwish", nn.batch_norm(x, "stem.1"), "stem.2");
  const Tensor block0 = inverted_residual(nn, x, "blocks.0", 16, 1, 3);
  const Tensor block1 = inverted_residual(nn, block0, "blocks.1", 16, 1, 4);

  // Squeeze-excite: the [N, C, 1, 1] gate broadcasts over [N, C, H, W].
  Tensor gate = nn.global_average_pool(block1, "se.pool");
  gate = nn.relu(nn.conv(gate, "se.fc1", {.out_channels = 4, .bias = true}), "se.relu");
  gate = nn.conv(gate, "se.fc2", {.out_channels = 16, .bias = true, .gain = kLinearGain});
  gate = nn.unary("Sigmoid", gate, "se.gate");
  Tensor excited = nn.binary("Mul", gate, block1, "se.scale");

  x = nn.concat({excited, block0}, "concat", 1);
  x = nn.conv(x, "head.0", {.out_channels = 40});
  x = nn.unary("HardSwish", nn.batch_norm(x, "head.1"), "head.2");
  x = nn.reduce_mean(x, "pool", {2, 3}, /*keepdims=*/false);
  nn.graph().output(nn.linear(x, "classifier", 10, kLinearGain), "logits");
}

void build_tiny_transformer(LayerBuilder& nn, int64_t /*batch*/) {
  Tensor x = nn.graph().input("embeddings", {2, 10, 32});
  x = encoder_layer(nn, x, "layer.0", {.heads = 4, .intermediate = 64, .gelu_as_erf = true});
  x = encoder_layer(nn, x, "layer.1", {.heads = 4, .intermediate = 64, .gelu_as_erf = false});
  // Token mixing [1, 10, 10] x [2, 10, 32]: MatMul broadcasting the batch of its first operand.
  const double bound = kaiming_bound(kLinearGain, 10);
  x = nn.matmul(nn.uniform_param("mix.weight", {1, 10, 10}, -bound, bound), x, "mix");
  x = nn.binary("Sub", x, nn.uniform_param("head.center", {32}, -0.2, 0.2), "head.sub");
  x = nn.binary("Mul", x, nn.graph().scalar(0.5f), "head.mul");
  nn.graph().output(nn.unary("Tanh", x, "head.tanh"), "output");
}

void build_tiny_mlp(LayerBuilder& nn, int64_t /*batch*/) {
  GraphBuilder& g = nn.graph();
  Tensor x = g.input("x", {3, 20});
  const double b1 = kaiming_bound(kReluGain, 20);
  x = g.node("Gemm", "fc1",
             {x, nn.uniform_param("fc1.weight", {20, 32}, -b1, b1), nn.uniform_param("fc1.bias", {32}, -0.1, 0.1)},
             {3, 32}, {{"alpha", 1.0}, {"beta", 1.0}, {"transB", 0}});
  x = nn.relu(x, "relu");
  const double b2 = kaiming_bound(kLinearGain, 32);
  x = g.node("Gemm", "fc2",
             {x, nn.uniform_param("fc2.weight", {16, 32}, -b2, b2), nn.uniform_param("fc2.bias", {1, 16}, -0.5, 0.5)},
             {3, 16}, {{"alpha", 0.5}, {"beta", 2.0}, {"transB", 1}});
  x = nn.unary("Sigmoid", x, "sigmoid");
  x = nn.dense(x, "fc3", 8, kLinearGain * 16);  // sigmoid outputs sit in (0, 1): widen the weights
  x = nn.unary("LeakyRelu", x, "leaky_relu", {{"alpha", 0.1}});
  Tensor h = nn.unary("HardSigmoid", x, "hard_sigmoid", {{"alpha", 0.2}, {"beta", 0.5}});
  x = nn.binary("Mul", x, h, "gate");
  x = nn.binary("Add", nn.binary("Mul", x, x, "square"), g.scalar(1.0f), "plus_one");
  x = nn.unary("Sqrt", x, "sqrt");
  x = nn.binary("Pow", x, g.scalar(2.0f), "pow");
  x = nn.unary("Identity", x, "identity");
  x = nn.squeeze(nn.unsqueeze(x, "unsqueeze", {1}), "squeeze", {1});
  g.output(x, "y");
}

}  // namespace tessera::zoo
