// The zoo's architectures: one builder per model (defined in resnet.cc, mobilenet.cc, vgg.cc,
// inception.cc, bert.cc, tiny.cc) and the blocks the full-size and tiny models share.
#pragma once

#include <cstdint>
#include <string>

#include "models/zoo/layers.h"

namespace tessera::zoo {

// Each builder declares the graph's inputs and outputs and adds every node and weight.
void build_resnet50(LayerBuilder& nn, int64_t batch);
void build_mobilenet_v2(LayerBuilder& nn, int64_t batch);
void build_vgg16(LayerBuilder& nn, int64_t batch);
void build_inception_v3(LayerBuilder& nn, int64_t batch);  // batch is always 1
void build_bert_base(LayerBuilder& nn, int64_t batch);  // batch is always 1
void build_tiny_cnn(LayerBuilder& nn, int64_t batch);
void build_tiny_mobilenet(LayerBuilder& nn, int64_t batch);
void build_tiny_transformer(LayerBuilder& nn, int64_t batch);
void build_tiny_mlp(LayerBuilder& nn, int64_t batch);

// torchvision's InvertedResidual (1x1 expand + ReLU6, depthwise 3x3 + ReLU6, 1x1 project,
// Add when stride 1 and channels match), named like its state dict: "<prefix>.conv.0.0", ...
Tensor inverted_residual(LayerBuilder& nn, const Tensor& x, const std::string& prefix, int64_t out_channels,
                         int64_t stride, int64_t expand_ratio);

struct EncoderSpec {
  int64_t heads = 12;
  int64_t intermediate = 3072;
  double ln_epsilon = 1e-12;
  bool gelu_as_erf = false;  // Div/Erf/Add/Mul/Mul, as older exporters write GELU
  // Random weights make tokens collapse onto one shared vector within a few layers (attention
  // averages, GELU's positive mean adds the same offset to every token), after which softmax is
  // uniform. These keep 12 layers non-trivial: mean row-max probability ~0.4 (uniform: 1/128)
  // and under 20% of the energy shared by all tokens; see models/README.md.
  double qk_gain = 3.0;           // variance gain of query and key weights: sharper attention
  double out_gain = 0.5;          // of the attention output projection: less averaging per layer
  bool zero_mean_ffn_out = true;  // output.dense columns sum to zero: GELU's mean cancels
};

// One post-LN BERT encoder layer on x [batch, seq, hidden], named like Hugging Face's
// "<prefix>.attention.self.query", ...; no attention mask.
Tensor encoder_layer(LayerBuilder& nn, const Tensor& x, const std::string& prefix, const EncoderSpec& spec);

}  // namespace tessera::zoo
