// TopK: k (an input since opset 10, an attribute before), the per-row footprint, and the
// kernel: a partial sort of each row's indices by (value, index), so ties keep the lower
// index first as ONNX asks, and rows come out sorted whatever `sorted` says (ONNX leaves the
// order unspecified then).
#include "core/ops/top_k.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_top_k(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(2));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kFloat32, DType::kInt64, DType::kInt32}));
  const Shape& in = p.shape(0);
  TopKAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", -1));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, static_cast<int>(in.size()), "axis"));
  TESSERA_ASSIGN_OR_RETURN(int64_t largest, p.get_int("largest", 1));
  TESSERA_RETURN_IF_ERROR(p.get_int("sorted", 1).status());  // rows always come out sorted
  a.largest = largest != 0;
  if (p.has_input(1)) {
    if (p.has_attribute("k")) return p.error("k is given both as input and attribute");
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> k, p.constant_ints(1, "K"));
    if (k.size() != 1) return p.error("K must hold one value, got " + std::to_string(k.size()));
    a.k = k[0];
  } else {
    if (!p.has_attribute("k")) return p.error("needs K (input 1, or attribute \"k\" before opset 10)");
    TESSERA_ASSIGN_OR_RETURN(a.k, p.get_int("k", 1));
  }
  const int64_t n = in[a.axis];
  if (a.k < 1 || a.k > n) {
    return p.error("K = " + std::to_string(a.k) + " must be in [1, " + std::to_string(n) + "] (the size of axis " +
                   std::to_string(a.axis) + "; Tessera has no empty tensors)");
  }
  Shape out = in;
  out[a.axis] = a.k;
  TESSERA_RETURN_IF_ERROR(p.check_work(out, n));
  ParsedOp values{a, out, {}, p.dtype(0)};
  a.indices = true;
  values.more_outputs.push_back({a, out, {}, DType::kInt64});
  return values;
}

namespace {

// Orders positions i, j of a row by value (largest or smallest first), then by index.
template <class T>
struct RowOrder {
  const T* x;
  int64_t step;
  bool largest;

  bool operator()(int64_t i, int64_t j) const {
    const T a = x[i * step], b = x[j * step];
    if (largest ? rank_less(b, a) : rank_less(a, b)) return true;
    if (largest ? rank_less(a, b) : rank_less(b, a)) return false;
    return i < j;
  }
};

}  // namespace

OpCost cost(const TopKAttrs& a, const OpShapes& s, const Region& out) {
  const double rows = static_cast<double>(out.element_count() / a.k);
  const double n = static_cast<double>(s.inputs[0][a.axis]);
  return {rows * n * std::log2(n + 1), rows * (4 * n + 8.0 * static_cast<double>(a.k))};
}

std::optional<Region> footprint(const TopKAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // K is constant
  Region r = out;
  r.begin[a.axis] = 0;
  r.end[a.axis] = s.inputs[0][a.axis];
  return r;
}

TilingHints tiling_hints(const TopKAttrs& a, const OpShapes& s, const TilingQuery& q) {
  std::vector<bool> keep_whole(s.output.size(), false);
  keep_whole[a.axis] = true;  // each tile holds whole rows
  return elementwise_tiling_hints(s.output, q.output_layout, keep_whole);
}

LayoutChoice choose_layout(const TopKAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const TopKAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  visit_dtype(s.input_dtypes[0], [&](auto zero) {
    using T = decltype(zero);
    const T* x = static_cast<const T*>(in[0]);
    const Shape& shape = s.inputs[0];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < a.axis; ++d) outer *= shape[d];
    for (size_t d = a.axis + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t n = shape[a.axis];
    // Each row by a stable sort on the values alone: equal values keep their index order.
    std::vector<int64_t> order(n);
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t k = 0; k < inner; ++k) {
        const T* row = x + i * n * inner + k;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
          return a.largest ? rank_less(row[q * inner], row[p * inner]) : rank_less(row[p * inner], row[q * inner]);
        });
        for (int64_t j = 0; j < a.k; ++j) {
          const int64_t at = (i * a.k + j) * inner + k;
          if (a.indices) {
            static_cast<int64_t*>(out)[at] = order[j];
          } else {
            static_cast<T*>(out)[at] = row[order[j] * inner];
          }
        }
      }
    }
  });
}

namespace {

template <class T>
class TopKKernel final : public TileKernel {
 public:
  TopKKernel(const TopKAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    const int64_t n = in_.shape[attrs_.axis], step = in_.strides[attrs_.axis], to = out_.strides[attrs_.axis];
    auto* order = reinterpret_cast<int64_t*>(ctx.scratch);
    // One row per position of the region with the axis collapsed.
    Region rows = region;
    rows.end[attrs_.axis] = rows.begin[attrs_.axis] + 1;
    walk_region(rows, out_.layout, std::array<Strides, 2>{in_.strides, out_.strides},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& inner) {
                  for (int64_t r = 0; r < count; ++r) {
                    const T* row = x + off[0] + r * inner[0];
                    std::iota(order, order + n, 0);
                    std::partial_sort(order, order + attrs_.k, order + n, RowOrder<T>{row, step, attrs_.largest});
                    const int64_t at = off[1] + r * inner[1];
                    for (int64_t j = 0; j < attrs_.k; ++j) {
                      if (attrs_.indices) {
                        tensor_data<int64_t>(out_, ctx)[at + j * to] = order[j];
                      } else {
                        tensor_data<T>(out_, ctx)[at + j * to] = row[order[j] * step];
                      }
                    }
                  }
                });
  }
  size_t scratch_floats(const Region&) const override {
    return static_cast<size_t>(in_.shape[attrs_.axis]) * sizeof(int64_t) / sizeof(float);
  }
  std::string kernel_name() const override {
    return typed_kernel_name<T>(attrs_.indices ? "top_k_indices" : "top_k_values");
  }

 private:
  TopKAttrs attrs_;
  TensorBinding in_, out_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const TopKAttrs& a, const BindArgs& args) {
  return visit_dtype(args.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<TopKKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
