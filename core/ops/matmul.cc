// MatMul and Gemm semantics: shapes with numpy batch broadcasting, row/column footprints,
// cost, and the reference loop.
#include "core/ops/matmul.h"

#include <algorithm>

#include "core/kernels/gemm/gemm.h"
#include "core/ops/binary.h"
#include "core/ops/epilogue.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

// [rows, cols] of a 2-D operand as stored, given its logical shape.
int64_t rows_of(const Shape& s) { return s.size() >= 2 ? s[s.size() - 2] : 1; }
int64_t cols_of(const Shape& s) { return s.back(); }

Shape batch_of(const Shape& s) { return s.size() > 2 ? Shape(s.begin(), s.end() - 2) : Shape{}; }

// What the output region `out` reads of A (input 0) or B (input 1).
Region operand_footprint(const MatMulAttrs& a, const MatMulDims& d, const Shape& operand, const Region& out,
                         int input) {
  Region r = Region::whole(operand);
  if (operand.size() == 1) return r;
  // Batch dimensions broadcast like elementwise ops.
  const int rank = static_cast<int>(operand.size());
  const int batch_rank = rank - 2;
  const int offset = static_cast<int>(d.batch.size()) - batch_rank;
  for (int i = 0; i < batch_rank; ++i) {
    if (operand[i] != 1) {
      r.begin[i] = out.begin[i + offset];
      r.end[i] = out.end[i + offset];
    }
  }
  // A reads its rows of the output, B its columns; K is read whole.
  const bool trans = input == 0 ? a.trans_a : a.trans_b;
  const int out_dim = input == 0 ? d.m_dim : d.n_dim;
  const int dim = input == 0 ? (trans ? rank - 1 : rank - 2) : (trans ? rank - 2 : rank - 1);
  r.begin[dim] = out.begin[out_dim];
  r.end[dim] = out.end[out_dim];
  return r;
}

}  // namespace

MatMulDims matmul_dims(const MatMulAttrs& a, const OpShapes& s) {
  const Shape& A = s.inputs[0];
  const Shape& B = s.inputs[1];
  MatMulDims d;
  d.a_is_vector = A.size() == 1;
  d.b_is_vector = B.size() == 1;
  d.m = d.a_is_vector ? 1 : (a.trans_a ? cols_of(A) : rows_of(A));
  d.k = d.a_is_vector ? A[0] : (a.trans_a ? rows_of(A) : cols_of(A));
  d.n = d.b_is_vector ? 1 : (a.trans_b ? rows_of(B) : cols_of(B));
  d.batch = Shape(s.output.begin(), s.output.end() - (d.a_is_vector ? 0 : 1) - (d.b_is_vector ? 0 : 1));
  int next = static_cast<int>(d.batch.size());
  if (!d.a_is_vector) d.m_dim = next++;
  if (!d.b_is_vector) d.n_dim = next;
  return d;
}

Result<ParsedOp> parse_matmul(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  for (size_t i = 0; i < 2; ++i) TESSERA_RETURN_IF_ERROR(p.expect_float(i));
  const Shape& A = p.shape(0);
  const Shape& B = p.shape(1);
  if (A.empty() || B.empty()) return p.error("inputs must have rank 1 or more");
  const int64_t ka = A.back();
  const int64_t kb = B.size() == 1 ? B[0] : B[B.size() - 2];
  if (ka != kb) {
    return p.error("inner dimensions differ: " + shape_string(A) + " x " + shape_string(B));
  }
  Shape batch;
  if (!broadcast_shapes(batch_of(A), batch_of(B), &batch)) {
    return p.error("cannot broadcast batch dimensions of " + shape_string(A) + " and " + shape_string(B));
  }
  if (A.size() == 1 && B.size() == 1) return p.error("vector-vector MatMul is not supported");
  Shape out = batch;
  if (A.size() > 1) out.push_back(A[A.size() - 2]);
  if (B.size() > 1) out.push_back(B.back());
  TESSERA_RETURN_IF_ERROR(p.check_work(out, ka));
  return ParsedOp{MatMulAttrs{}, out};
}

Result<ParsedOp> parse_gemm(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 3));
  MatMulAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t trans_a, p.get_int("transA", 0));
  TESSERA_ASSIGN_OR_RETURN(int64_t trans_b, p.get_int("transB", 0));
  TESSERA_ASSIGN_OR_RETURN(a.alpha, p.get_float("alpha", 1.0f));
  TESSERA_ASSIGN_OR_RETURN(float beta, p.get_float("beta", 1.0f));
  a.trans_a = trans_a != 0;
  a.trans_b = trans_b != 0;
  const Shape& A = p.shape(0);
  const Shape& B = p.shape(1);
  if (A.size() != 2 || B.size() != 2)
    return p.error("A and B must be 2-D, got " + shape_string(A) + " and " + shape_string(B));
  for (size_t i = 0; i < 3; ++i) TESSERA_RETURN_IF_ERROR(p.expect_float(i));
  const int64_t m = a.trans_a ? A[1] : A[0];
  const int64_t k = a.trans_a ? A[0] : A[1];
  const int64_t kb = a.trans_b ? B[1] : B[0];
  const int64_t n = a.trans_b ? B[0] : B[1];
  if (k != kb)
    return p.error("inner dimensions differ: A' is [" + std::to_string(m) + ", " + std::to_string(k) + "], B' is [" +
                   std::to_string(kb) + ", " + std::to_string(n) + "]");
  const Shape out{m, n};
  TESSERA_RETURN_IF_ERROR(p.check_work(out, k));
  if (p.has_input(2)) {
    const Shape& c = p.shape(2);
    Shape broadcast;
    if (!broadcast_shapes(c, out, &broadcast) || broadcast != out) {
      return p.error("C " + shape_string(c) + " does not broadcast to " + shape_string(out));
    }
    const bool per_column = element_count(c) == 1 || (c.back() == n && element_count(c) == n);
    if (p.is_constant(2) && per_column) {
      a.bias_input = 2;
      a.bias_scale = beta;
    } else if (p.is_constant(2) || (c == out && beta == 1.0f)) {
      a.epilogue.residual_input = 2;
      a.residual_scale = beta;
    } else {
      return p.error("a run-time C must have shape [M, N] and beta 1");
    }
  }
  return ParsedOp{a, out};
}

OpCost cost(const MatMulAttrs& a, const OpShapes& s, const Region& out) {
  const MatMulDims d = matmul_dims(a, s);
  const double outputs = static_cast<double>(out.element_count());
  double bytes = 4 * outputs;
  // Inputs 0 and 1 are A and B; a bias or a fused residual comes after them (the residual
  // is read where the outputs go).
  for (int i = 0; i < 2; ++i) bytes += 4.0 * operand_footprint(a, d, s.inputs[i], out, i).element_count();
  if (a.epilogue.residual_input >= 0) {
    bytes += 4.0 * broadcast_footprint(s.inputs[a.epilogue.residual_input], s.output, out).element_count();
  }
  const int64_t rows = d.m_dim >= 0 ? out.extent(d.m_dim) : 1;
  const int64_t columns = d.n_dim >= 0 ? out.extent(d.n_dim) : 1;
  return {2.0 * outputs * static_cast<double>(d.k),
          bytes,
          WorkKind::kGemm,
          {rows, columns, d.k, 1, 0, d.n, d.a_row_bytes()},
          a.epilogue.activation,
          a.epilogue.affine_passes()};
}

std::optional<Region> footprint(const MatMulAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == a.epilogue.residual_input) return broadcast_footprint(s.inputs[input], s.output, out);
  if (input == a.bias_input || input > 1) return std::nullopt;
  return operand_footprint(a, matmul_dims(a, s), s.inputs[input], out, input);
}

TilingHints tiling_hints(const MatMulAttrs& a, const OpShapes& s, const TilingQuery& q) {
  const MatMulDims d = matmul_dims(a, s);
  const int64_t mr = kernels::best_gemm_kernel(q.isa).mr;
  const int64_t nr = kernels::gemm_panel_width(q.isa, static_cast<size_t>(d.n));
  TilingHints hints;
  for (int i = 0; i < static_cast<int>(d.batch.size()); ++i) hints.dims.push_back({i, 1});
  // Every row block re-reads its columns of B: when B outweighs A, columns come first and
  // rows only feed threads.
  const bool columns_first = d.k * d.n > d.m * d.k;
  if (columns_first && d.n_dim >= 0) hints.dims.push_back({d.n_dim, nr});
  if (d.m_dim >= 0) hints.dims.push_back({d.m_dim, mr, columns_first});
  if (!columns_first && d.n_dim >= 0) hints.dims.push_back({d.n_dim, nr});
  return hints;
}

LayoutChoice choose_layout(const MatMulAttrs&, const OpShapes& s, const LayoutQuery&) {
  LayoutChoice c;
  for (const Shape& in : s.inputs) {
    c.inputs.push_back(in.empty() ? std::nullopt
                                  : std::optional<Layout>(Layout::identity(static_cast<int>(in.size()))));
  }
  c.output = Layout::identity(static_cast<int>(s.output.size()));
  return c;
}

void reference(const MatMulAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const MatMulDims d = matmul_dims(a, s);
  const Shape& A = s.inputs[0];
  const Shape& B = s.inputs[1];
  const int64_t batches = element_count(d.batch);
  const Shape a_batch = A.size() > 2 ? batch_of(A) : Shape{};
  const Shape b_batch = B.size() > 2 ? batch_of(B) : Shape{};
  std::vector<float> residual;
  if (a.epilogue.residual_input >= 0) {
    residual = broadcast_to(in[a.epilogue.residual_input], s.inputs[a.epilogue.residual_input], s.output);
  }
  const float* bias = a.bias_input >= 0 ? in[a.bias_input] : nullptr;
  const bool bias_scalar = bias && element_count(s.inputs[a.bias_input]) == 1;
  std::vector<int64_t> index(d.batch.size());
  for (int64_t b = 0; b < batches; ++b) {
    // Unravel the output batch index and map it onto each operand (size-1 dims repeat).
    int64_t rest = b;
    for (int i = static_cast<int>(d.batch.size()) - 1; i >= 0; --i) {
      index[i] = rest % d.batch[i];
      rest /= d.batch[i];
    }
    auto operand_batch = [&](const Shape& ob) {
      int64_t flat = 0;
      const size_t offset = d.batch.size() - ob.size();
      for (size_t i = 0; i < ob.size(); ++i) flat = flat * ob[i] + (ob[i] == 1 ? 0 : index[i + offset]);
      return flat;
    };
    const float* pa = in[0] + operand_batch(a_batch) * d.m * d.k;
    const float* pb = in[1] + operand_batch(b_batch) * d.k * d.n;
    for (int64_t m = 0; m < d.m; ++m) {
      for (int64_t n = 0; n < d.n; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < d.k; ++k) {
          const float va = a.trans_a ? pa[k * d.m + m] : pa[m * d.k + k];
          const float vb = a.trans_b ? pb[n * d.k + k] : pb[k * d.n + n];
          acc += static_cast<double>(va) * vb;
        }
        float y = static_cast<float>(a.alpha * acc);
        if (bias) y += a.bias_scale * (bias_scalar ? bias[0] : bias[n]);
        const int64_t o = (b * d.m + m) * d.n + n;
        if (!residual.empty()) y += a.residual_scale * residual[o];
        out[o] = reference_epilogue_activation(a.epilogue, y);
      }
    }
  }
}

}  // namespace tessera::ops
