// Activations exporters spell out as chains of elementwise ops, recognised as one op so that
// they fuse into the producer's store:
//   HardSwish: x * Clip(x + 3, 0, 6) / 6                    (PaddlePaddle, older PyTorch)
//   Gelu:      x * (Erf(x / sqrt(2)) + 1) * 0.5             (PyTorch before opset 20)
#include <cmath>

#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

class Matcher {
 public:
  explicit Matcher(Graph& g) : g_(g), consumers_(g.consumers()) {}

  // The node producing `tensor` if it is a live node that only `tensor`'s one reader uses.
  Node* private_producer(int tensor) {
    const Tensor& t = g_.tensors[tensor];
    if (t.producer < 0 || t.is_graph_output || consumers_[tensor].size() != 1) return nullptr;
    Node* n = &g_.nodes[t.producer];
    return n->removed ? nullptr : n;
  }

  // For a binary `op` node with a scalar constant operand near `value`: the other input.
  int other_than_scalar(const Node& n, BinaryOp op, float value) const {
    const auto* b = std::get_if<ops::BinaryAttrs>(&n.attrs);
    if (!b || b->op != op) return -1;
    for (int k = 0; k < 2; ++k) {
      const Tensor& c = g_.tensors[n.inputs[k]];
      // Div and Sub are not commutative: the constant must be the second operand.
      if (k == 0 && (op == BinaryOp::kDiv || op == BinaryOp::kSub)) continue;
      if (is_scalar(c, value)) return n.inputs[1 - k];
    }
    return -1;
  }

  bool is_scalar(const Tensor& c, float value) const {
    return c.is_constant() && ops::element_count(c.shape) == 1 &&
           std::fabs(c.floats()[0] - value) <= 1e-5f * std::fabs(value);
  }

  static bool is_unary(const Node& n, UnaryOp op) {
    const auto* u = std::get_if<ops::UnaryAttrs>(&n.attrs);
    return u && u->op == op;
  }

  // Turns `last` into a unary `op` of x and drops the chain that led to it.
  static void replace(Node& last, UnaryOp op, int x, std::initializer_list<Node*> chain) {
    last.attrs = ops::UnaryAttrs{op, {}};
    last.op = ops::unary_op_name(op);
    last.inputs = {x};
    for (Node* n : chain) n->removed = true;
  }

  // x * Clip(x + 3, 0, 6) / 6 ending at `div`.
  bool hard_swish(Node& div) {
    const int product = other_than_scalar(div, BinaryOp::kDiv, 6.0f);
    Node* mul = product >= 0 ? private_producer(product) : nullptr;
    const auto* b = mul ? std::get_if<ops::BinaryAttrs>(&mul->attrs) : nullptr;
    if (!b || b->op != BinaryOp::kMul) return false;
    for (int k = 0; k < 2; ++k) {
      Node* clip = private_producer(mul->inputs[k]);
      if (!clip || !is_unary(*clip, UnaryOp::kClip)) continue;
      const auto& p = std::get<ops::UnaryAttrs>(clip->attrs).params;
      if (p.alpha != 0.0f || p.beta != 6.0f) continue;
      Node* add = private_producer(clip->inputs[0]);
      const int x = add ? other_than_scalar(*add, BinaryOp::kAdd, 3.0f) : -1;
      if (x < 0 || x != mul->inputs[1 - k]) continue;
      replace(div, UnaryOp::kHardSwish, x, {mul, clip, add});
      return true;
    }
    return false;
  }

  // x * (Erf(x / sqrt(2)) + 1) * 0.5 ending at `half`.
  bool gelu(Node& half) {
    const int product = other_than_scalar(half, BinaryOp::kMul, 0.5f);
    Node* mul = product >= 0 ? private_producer(product) : nullptr;
    const auto* b = mul ? std::get_if<ops::BinaryAttrs>(&mul->attrs) : nullptr;
    if (!b || b->op != BinaryOp::kMul) return false;
    for (int k = 0; k < 2; ++k) {
      Node* add = private_producer(mul->inputs[k]);
      const int erf_out = add ? other_than_scalar(*add, BinaryOp::kAdd, 1.0f) : -1;
      Node* erf = erf_out >= 0 ? private_producer(erf_out) : nullptr;
      if (!erf || !is_unary(*erf, UnaryOp::kErf)) continue;
      Node* div = private_producer(erf->inputs[0]);
      const int x = div ? other_than_scalar(*div, BinaryOp::kDiv, std::sqrt(2.0f)) : -1;
      if (x < 0 || x != mul->inputs[1 - k]) continue;
      replace(half, UnaryOp::kGelu, x, {mul, add, erf, div});
      return true;
    }
    return false;
  }

 private:
  Graph& g_;
  std::vector<std::vector<int>> consumers_;
};

}  // namespace

void recognize_activations(Graph& g) {
  bool changed = true;
  while (changed) {  // each rewrite changes consumer counts: match again on a fresh view
    changed = false;
    Matcher m(g);
    for (Node& node : g.nodes) {
      if (node.removed || !std::holds_alternative<ops::BinaryAttrs>(node.attrs)) continue;
      if (m.hard_swish(node) || m.gelu(node)) {
        changed = true;
        break;
      }
    }
  }
}

}  // namespace tessera::graph
