// BERT-base encoder (12 post-LN layers, hidden 768, 12 heads, no mask, input already embedded)
// as a Hugging Face ONNX export writes it; also owns the shared encoder layer.
#include <cmath>
#include <string>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

namespace {

Tensor gelu(LayerBuilder& nn, const Tensor& x, const std::string& name, bool as_erf) {
  if (!as_erf) return nn.unary("Gelu", x, name);
  // x * 0.5 * (1 + erf(x / sqrt(2))) in torch's export order: Div, Erf, Add, Mul, Mul.
  GraphBuilder& g = nn.graph();
  Tensor y = nn.binary("Div", x, g.scalar(static_cast<float>(std::sqrt(2.0))), name + ".div");
  y = nn.unary("Erf", y, name + ".erf");
  y = nn.binary("Add", y, g.scalar(1.0f), name + ".add");
  y = nn.binary("Mul", x, y, name + ".mul");
  return nn.binary("Mul", y, g.scalar(0.5f), name + ".mul_half");
}

}  // namespace

// Dense weights are Kaiming-style uniform (variance gain/fan_in: std 0.036 at 768 for gain 1,
// a little above BERT's 0.02) with the gains of EncoderSpec.
Tensor encoder_layer(LayerBuilder& nn, const Tensor& x, const std::string& prefix, const EncoderSpec& spec) {
  const int64_t batch = x.shape[0], seq = x.shape[1], hidden = x.shape[2];
  const int64_t head_dim = hidden / spec.heads;
  const std::string self = prefix + ".attention.self";
  auto heads = [&](const std::string& which, const std::vector<int64_t>& perm) {
    Tensor t = nn.dense(x, self + "." + which, hidden, which == "value" ? kLinearGain : spec.qk_gain);
    t = nn.reshape(t, self + "." + which + ".split_heads", {batch, seq, spec.heads, head_dim});
    return nn.transpose(t, self + "." + which + ".transpose", perm);
  };
  Tensor q = heads("query", {0, 2, 1, 3});  // [B, heads, S, D]
  Tensor k = heads("key", {0, 2, 3, 1});    // [B, heads, D, S]
  Tensor v = heads("value", {0, 2, 1, 3});
  Tensor scores = nn.matmul(q, k, self + ".scores");
  scores =
      nn.binary("Div", scores, nn.graph().scalar(static_cast<float>(std::sqrt(double(head_dim)))), self + ".scale");
  Tensor probs = nn.softmax(scores, self + ".softmax");
  Tensor context = nn.matmul(probs, v, self + ".context");
  context = nn.transpose(context, self + ".context.transpose", {0, 2, 1, 3});
  context = nn.reshape(context, self + ".context.merge_heads", {batch, seq, hidden});

  const std::string attn_out = prefix + ".attention.output";
  Tensor y = nn.dense(context, attn_out + ".dense", hidden, spec.out_gain);
  y = nn.binary("Add", y, x, attn_out + ".residual");
  const Tensor attended = nn.layer_norm(y, attn_out + ".LayerNorm", spec.ln_epsilon);

  y = nn.dense(attended, prefix + ".intermediate.dense", spec.intermediate, kReluGain);
  y = gelu(nn, y, prefix + ".intermediate.gelu", spec.gelu_as_erf);
  y = nn.dense(y, prefix + ".output.dense", hidden, kLinearGain, spec.zero_mean_ffn_out);
  y = nn.binary("Add", y, attended, prefix + ".output.residual");
  return nn.layer_norm(y, prefix + ".output.LayerNorm", spec.ln_epsilon);
}

void build_bert_base(LayerBuilder& nn, int64_t /*batch*/) {
  Tensor x = nn.graph().input("embeddings", {1, 128, 768});
  for (int layer = 0; layer < 12; ++layer) {
    x = encoder_layer(nn, x, "encoder.layer." + std::to_string(layer), {});
  }
  nn.graph().output(x, "hidden");
}

}  // namespace tessera::zoo
