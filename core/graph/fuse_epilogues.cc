// Epilogue fusion: what follows a convolution, MatMul or binary node and reads only its
// output is computed by the producer's tiles as they store, instead of by a separate pass.
#include <algorithm>
#include <optional>

#include "core/graph/conv_affine.h"
#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

bool is_add(const Node& n) {
  auto* b = std::get_if<ops::BinaryAttrs>(&n.attrs);
  return b && b->op == BinaryOp::kAdd;
}

bool epilogue_empty(const ops::Epilogue& e) {
  return e.residual_input < 0 && !e.has_clamp() && !e.has_tail();
}

// The scalar value of a one-element constant, if `t` is one.
std::optional<float> scalar_constant(const Tensor& t) {
  if (!t.is_constant() || ops::element_count(t.shape) != 1) return std::nullopt;
  return t.floats()[0];
}

// A constant's values per output channel (dim 1) of `out`: one value broadcast, or a vector
// that varies only along that dimension. Empty when it is neither.
std::vector<float> per_channel(const Tensor& c, const Shape& out) {
  const int64_t channels = out[1];
  if (auto s = scalar_constant(c)) return std::vector<float>(channels, *s);
  const int offset = static_cast<int>(out.size()) - static_cast<int>(c.shape.size());
  if (offset < 0 || offset > 1 || ops::element_count(c.shape) != channels || c.shape[1 - offset] != channels) return {};
  return std::vector<float>(c.floats(), c.floats() + channels);
}

// A constant Add, Sub, Mul or Div right after a convolution: folded into its weights and bias.
bool fuse_conv_affine(Graph& g, Node& p, const Node& c, int other) {
  const auto op = std::get<ops::BinaryAttrs>(c.attrs).op;
  const bool other_first = c.inputs[0] == other;
  if (!epilogue_empty(*ops::op_epilogue(p.attrs)) || (other_first && (op == BinaryOp::kSub || op == BinaryOp::kDiv))) {
    return false;
  }
  std::vector<float> values = per_channel(g.tensors[other], g.tensors[p.output].shape);
  if (values.empty()) return false;
  std::vector<float> scale(values.size(), 1.0f), shift(values.size(), 0.0f);
  for (size_t m = 0; m < values.size(); ++m) {
    switch (op) {
      case BinaryOp::kAdd: shift[m] = values[m]; break;
      case BinaryOp::kSub: shift[m] = -values[m]; break;
      case BinaryOp::kMul: scale[m] = values[m]; break;
      case BinaryOp::kDiv: scale[m] = 1.0f / values[m]; break;
      default: return false;
    }
  }
  fold_channel_affine(g, p, scale, shift);
  return true;
}

// A scalar Add, Sub, Mul or Div after the activation: y * scale + shift at the store.
bool fuse_affine_tail(ops::Epilogue& e, const Node& c, const Tensor& other, bool other_first) {
  const auto op = std::get<ops::BinaryAttrs>(c.attrs).op;
  const std::optional<float> v = scalar_constant(other);
  if (!v || !(e.has_clamp() || e.has_activation())) return false;
  if (other_first && (op == BinaryOp::kSub || op == BinaryOp::kDiv)) return false;
  switch (op) {
    case BinaryOp::kAdd: e.shift += *v; return true;
    case BinaryOp::kSub: e.shift -= *v; return true;
    case BinaryOp::kMul: e.scale *= *v, e.shift *= *v; return true;
    case BinaryOp::kDiv: e.scale /= *v, e.shift /= *v; return true;
    default: return false;
  }
}

// A constant added to a MatMul's output per column (or a scalar): fold into its bias.
bool fuse_matmul_bias(Graph& g, Node& p, int constant) {
  auto& a = std::get<ops::MatMulAttrs>(p.attrs);
  const Tensor& c = g.tensors[constant];
  const ops::MatMulDims d = ops::matmul_dims(a, g.shapes_of(p));
  const int64_t count = ops::element_count(c.shape);
  const bool scalar = count == 1;
  // Per column means along the output's last dimension, which must be N (B not a vector).
  const bool per_column = d.n_dim >= 0 && count == d.n && !c.shape.empty() && c.shape.back() == d.n;
  if (!epilogue_empty(a.epilogue) || !(scalar || per_column)) return false;
  std::vector<float> bias(d.n);
  for (int64_t j = 0; j < d.n; ++j) bias[j] = c.floats()[scalar ? 0 : j];
  if (a.bias_input >= 0) {
    const Tensor& old = g.tensors[p.inputs[a.bias_input]];
    const bool old_scalar = ops::element_count(old.shape) == 1;
    for (int64_t j = 0; j < d.n; ++j) bias[j] += a.bias_scale * old.floats()[old_scalar ? 0 : j];
    p.inputs[a.bias_input] = g.add_constant(p.name + ".bias+add", {d.n}, std::move(bias));
  } else {
    a.bias_input = static_cast<int>(p.inputs.size());
    p.inputs.push_back(g.add_constant(p.name + ".bias+add", {d.n}, std::move(bias)));
  }
  a.bias_scale = 1.0f;
  return true;
}

// A run-time tensor of the output's shape, computed before the producer: a residual.
bool fuse_residual(Graph& g, Node& p, int producer_index, int other) {
  ops::Epilogue* e = ops::op_epilogue(p.attrs);
  const Tensor& t = g.tensors[other];
  const bool is_conv = is_convolution(p);
  if (std::holds_alternative<ops::BinaryAttrs>(p.attrs) || !epilogue_empty(*e)) return false;
  if (t.shape != g.tensors[p.output].shape || (is_conv && t.is_constant())) return false;
  if (t.producer >= producer_index) return false;  // would break topological order
  if (auto* m = std::get_if<ops::MatMulAttrs>(&p.attrs)) m->residual_scale = 1.0f;
  e->residual_input = static_cast<int>(p.inputs.size());
  p.inputs.push_back(other);
  return true;
}

// Mul / Div of a MatMul's output by a constant scalar: scale alpha.
bool fuse_scale(Graph& g, Node& p, const Node& c, int other) {
  auto* a = std::get_if<ops::MatMulAttrs>(&p.attrs);
  const Tensor& t = g.tensors[other];
  if (!a || !epilogue_empty(a->epilogue) || a->bias_input >= 0) return false;
  if (!t.is_constant() || ops::element_count(t.shape) != 1) return false;
  const auto op = std::get<ops::BinaryAttrs>(c.attrs).op;
  if (op == BinaryOp::kDiv && c.inputs[1] != other) return false;  // only x / s
  a->alpha = op == BinaryOp::kMul ? a->alpha * t.floats()[0] : a->alpha / t.floats()[0];
  return true;
}

bool fuse_activation(ops::Epilogue& e, const ops::UnaryAttrs& u) {
  if (e.has_tail()) return false;
  if (u.op == UnaryOp::kRelu || u.op == UnaryOp::kClip) {
    const float lo = u.op == UnaryOp::kRelu ? 0.0f : u.params.alpha;
    const float hi = u.op == UnaryOp::kRelu ? kernels::MinMax().max : u.params.beta;
    const float new_lo = std::max(e.clamp.min, lo), new_hi = std::min(e.clamp.max, hi);
    if (new_lo > new_hi) return false;  // disjoint clamps do not compose into one
    e.clamp = {new_lo, new_hi};
    return true;
  }
  e.activation = u.op;
  e.activation_params = u.params;
  return true;
}

// Tries to absorb the only reader of p's output; true when it did. `consumers` (per tensor,
// the nodes reading it) is kept up to date.
bool fuse_next(Graph& g, int producer_index, std::vector<std::vector<int>>& consumers) {
  Node& p = g.nodes[producer_index];
  const Tensor& out = g.tensors[p.output];
  if (out.is_graph_output) return false;
  if (consumers[p.output].size() != 1) return false;
  const int consumer_index = consumers[p.output][0];
  Node& c = g.nodes[consumer_index];
  // The consumer must not broadcast the producer's output to a larger shape.
  if (g.tensors[c.output].shape != out.shape) return false;
  // Epilogues compute in float32: integer Neg / Abs / Sign stay separate nodes.
  if (out.dtype != model::DType::kFloat32 || g.tensors[c.output].dtype != model::DType::kFloat32) return false;
  ops::Epilogue* e = ops::op_epilogue(p.attrs);
  bool fused = false;
  if (auto* u = std::get_if<ops::UnaryAttrs>(&c.attrs)) {
    fused = fuse_activation(*e, *u);
  } else if (auto* b = std::get_if<ops::BinaryAttrs>(&c.attrs); b && epilogue_empty(b->epilogue)) {
    const int other = c.inputs[0] == p.output ? c.inputs[1] : c.inputs[0];
    if (other == p.output) return false;  // x + x
    const Tensor& t = g.tensors[other];
    if (fuse_affine_tail(*e, c, t, c.inputs[0] == other)) {
      fused = true;
    } else if (t.is_constant() && is_convolution(p)) {
      fused = fuse_conv_affine(g, p, c, other) || (is_add(c) && fuse_residual(g, p, producer_index, other));
    } else if (is_add(c) && t.is_constant() && std::holds_alternative<ops::MatMulAttrs>(p.attrs)) {
      fused = fuse_matmul_bias(g, p, other) || fuse_residual(g, p, producer_index, other);
    } else if (is_add(c)) {
      fused = fuse_residual(g, p, producer_index, other);
    } else if (b->op == BinaryOp::kMul || b->op == BinaryOp::kDiv) {
      fused = fuse_scale(g, p, c, other);
    }
  }
  if (!fused) return false;
  // The consumer's other input is now read by the producer (a residual) or by nobody.
  for (int input : c.inputs) {
    if (input < 0 || input == p.output) continue;
    auto& readers = consumers[input];
    readers.erase(std::find(readers.begin(), readers.end(), consumer_index));
    if (e->residual_input >= 0 && p.inputs[e->residual_input] == input) readers.push_back(producer_index);
  }
  p.fused_nodes.push_back(c.name);
  p.output = c.output;
  g.tensors[c.output].producer = producer_index;
  c.removed = true;
  return true;
}

}  // namespace

void fuse_epilogues(Graph& g) {
  std::vector<std::vector<int>> consumers = g.consumers();
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].removed || ops::op_epilogue(g.nodes[n].attrs) == nullptr) continue;
    while (fuse_next(g, static_cast<int>(n), consumers)) {
    }
  }
}

}  // namespace tessera::graph
