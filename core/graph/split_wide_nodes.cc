// Splitting a MatMul or Gemm whose weights exceed a budget into column pieces joined by a
// Concat: every output element is still one dot product over the same inputs, so the values
// do not change (the pieces are cut at multiples of the GEMM kernels' column panels).
#include <algorithm>

#include "core/graph/passes.h"
#include "core/ops/concat.h"

namespace tessera::graph {

namespace {

constexpr int64_t kPieceAlignment = 64;  // columns: a multiple of every GEMM kernel's panel width

// Columns [begin, end) of a row-major rows x columns matrix.
std::vector<float> columns(const float* data, int64_t rows, int64_t cols, int64_t begin, int64_t end) {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(rows * (end - begin)));
  for (int64_t r = 0; r < rows; ++r) out.insert(out.end(), data + r * cols + begin, data + r * cols + end);
  return out;
}

// A constant viewing consecutive values of another one (rows of a matrix): no copy.
int rows_of(Graph& g, const std::string& name, const Shape& shape, const float* first) {
  Tensor t;
  t.name = name;
  t.shape = shape;
  t.constant = first;
  return g.add_tensor(std::move(t));
}

// A MatMul or Gemm with constant 2-D weights (and bias) over the budget, wide enough for two
// pieces.
bool is_wide(const Graph& g, const Node& node, int64_t max_weight_bytes) {
  const auto* a = std::get_if<ops::MatMulAttrs>(&node.attrs);
  if (!a || node.inputs.size() < 2 || node.inputs[1] < 0) return false;
  const Tensor& out = g.tensors[node.output];
  const Tensor& b = g.tensors[node.inputs[1]];
  const bool splittable = b.is_constant() && b.shape.size() == 2 && b.dtype == model::DType::kFloat32 &&
                          a->epilogue.residual_input < 0 && out.shape.size() == 2 && out.layout.is_identity() &&
                          out.alias_of < 0;
  const int64_t bias_bytes = a->bias_input >= 0 ? g.tensors[node.inputs[a->bias_input]].bytes() : 0;
  return splittable && b.bytes() + bias_bytes > max_weight_bytes && out.shape.back() >= 2 * kPieceAlignment;
}

}  // namespace

int count_wide_nodes(const Graph& g, int64_t max_weight_bytes) {
  if (max_weight_bytes <= 0) return 0;
  return static_cast<int>(
      std::count_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return is_wide(g, n, max_weight_bytes); }));
}

int split_wide_nodes(Graph& g, int64_t max_weight_bytes) {
  if (max_weight_bytes <= 0) return 0;
  int split = 0;
  std::vector<Node> nodes;
  for (Node& node : g.nodes) {
    if (!is_wide(g, node, max_weight_bytes)) {
      nodes.push_back(std::move(node));
      continue;
    }
    auto* a = std::get_if<ops::MatMulAttrs>(&node.attrs);
    // Copies, not references: adding the pieces' tensors below moves g.tensors.
    const Tensor out = g.tensors[node.output];
    const Tensor b = g.tensors[node.inputs[1]];
    const Tensor bias = a->bias_input >= 0 ? g.tensors[node.inputs[a->bias_input]] : Tensor{};
    const int64_t n = out.shape.back();
    // As many columns as fit the budget (weights and bias), in whole panels; at least one panel.
    const int64_t k = a->trans_b ? b.shape[1] : b.shape[0];
    const bool column_bias = bias.is_constant() && ops::element_count(bias.shape) == n;
    const int64_t column_bytes = (k + (column_bias ? 1 : 0)) * static_cast<int64_t>(sizeof(float));
    const int64_t width =
        std::max(kPieceAlignment, max_weight_bytes / column_bytes / kPieceAlignment * kPieceAlignment);
    Node concat;
    concat.name = node.name;
    concat.op = "Concat";
    concat.attrs = ops::ConcatAttrs{1};
    concat.output = node.output;
    for (int64_t begin = 0, part = 0; begin < n; begin += width, ++part) {
      const int64_t end = std::min(n, begin + width);
      const std::string name = node.name + "/" + std::to_string(part);
      Node piece = node;
      piece.name = name;
      piece.inputs[1] = a->trans_b
                            ? rows_of(g, name + ".weight", {end - begin, k}, b.floats() + begin * k)
                            : g.add_constant(name + ".weight", {k, end - begin}, columns(b.floats(), k, n, begin, end));
      if (column_bias) piece.inputs[a->bias_input] = rows_of(g, name + ".bias", {end - begin}, bias.floats() + begin);
      Tensor part_out = out;
      part_out.name = name;
      part_out.shape = {out.shape[0], end - begin};
      part_out.is_graph_output = false;
      piece.output = g.add_tensor(std::move(part_out));
      concat.inputs.push_back(piece.output);
      nodes.push_back(std::move(piece));
    }
    nodes.push_back(std::move(concat));
    ++split;
  }
  g.nodes = std::move(nodes);
  g.renumber_producers();
  return split;
}

}  // namespace tessera::graph
