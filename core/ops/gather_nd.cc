// GatherND: shape rules, the footprint (whole indexed dimensions of the data, the region's
// tuples of the indices) and the kernel: one strided copy per index tuple in the region.
#include "core/ops/gather_nd.h"

#include <algorithm>

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Status check_constant_tuples(const NodeParser& p, size_t input, const Shape& data, int first) {
  if (!p.is_constant(input)) return Status();
  const int64_t count = element_count(p.shape(input));
  const int k = static_cast<int>(p.shape(input).back());
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = load_int(p.constant_data(input), p.dtype(input), i), size = data[first + i % k];
    if (v < -size || v >= size) {
      return p.error("index " + std::to_string(v) + " is out of range for data dimension " +
                     std::to_string(first + i % k) + " of size " + std::to_string(size));
    }
  }
  return Status();
}

int64_t tuple_offset(const void* indices, DType dtype, int64_t tuple, int64_t step, int k, const Shape& data,
                     const Strides& data_strides, int first) {
  int64_t offset = 0;
  for (int j = 0; j < k; ++j) {
    offset += clamp_index(load_int(indices, dtype, tuple + j * step), data[first + j]) * data_strides[first + j];
  }
  return offset;
}

namespace {

struct TupleDims {
  int b, q, k;  // batch dims, indices rank, tuple length
};

TupleDims dims_of(const GatherNDAttrs& a, const OpShapes& s) {
  const int q = static_cast<int>(s.inputs[1].size());
  return {a.batch_dims, q, static_cast<int>(s.inputs[1][q - 1])};
}

}  // namespace

Result<ParsedOp> parse_gather_nd(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {DType::kInt64, DType::kInt32}));
  const Shape& data = p.shape(0);
  const Shape& indices = p.shape(1);
  const int r = static_cast<int>(data.size()), q = static_cast<int>(indices.size());
  if (r == 0 || q == 0) return p.error("data and indices must have rank 1 or more");
  GatherNDAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t b, p.get_int("batch_dims", 0));
  if (b < 0 || b >= std::min(q, r)) {
    return p.error("batch_dims " + std::to_string(b) + " must be below the ranks of data and indices");
  }
  a.batch_dims = static_cast<int>(b);
  for (int d = 0; d < a.batch_dims; ++d) {
    if (data[d] != indices[d]) return p.error("data and indices differ in batch dimension " + std::to_string(d));
  }
  const int64_t k = indices[q - 1];
  if (k < 1 || k > r - b) {
    return p.error("index tuples have " + std::to_string(k) + " elements, expected 1 to " + std::to_string(r - b));
  }
  TESSERA_RETURN_IF_ERROR(check_constant_tuples(p, 1, data, a.batch_dims));
  Shape out(indices.begin(), indices.end() - 1);
  out.insert(out.end(), data.begin() + b + k, data.end());
  return ParsedOp{a, out, {}, p.dtype(0)};
}

OpCost cost(const GatherNDAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const GatherNDAttrs& a, const OpShapes& s, const Region& out, int input) {
  const auto [b, q, k] = dims_of(a, s);
  if (input == 1) {  // the region's tuples, whole
    Region r = Region::whole(s.inputs[1]);
    for (int o = 0; o < q - 1; ++o) {
      r.begin[o] = out.begin[o];
      r.end[o] = out.end[o];
    }
    return r;
  }
  Region r = Region::whole(s.inputs[0]);  // the indexed dimensions whole
  for (int d = 0; d < r.rank; ++d) {
    if (d >= b && d < b + k) continue;
    const int o = d < b ? d : d - b - k + q - 1;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  return r;
}

TilingHints tiling_hints(const GatherNDAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const GatherNDAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const GatherNDAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* data = static_cast<const T*>(in[0]);
    T* out = static_cast<T*>(out_data);
    const auto [b, q, k] = dims_of(a, s);
    const Shape& shape = s.inputs[0];
    const Shape& indices = s.inputs[1];
    int64_t batches = 1, tuples = 1, slice = 1;
    for (int d = 0; d < b; ++d) batches *= indices[d];
    for (int d = b; d < q - 1; ++d) tuples *= indices[d];
    for (int d = b + k; d < static_cast<int>(shape.size()); ++d) slice *= shape[d];
    const Strides strides = logical_strides(shape, Layout::identity(static_cast<int>(shape.size())));
    const int64_t batch_size = element_count(shape) / batches;
    // Tuple u = (batch, t) copies `slice` elements from its place in its batch's data.
    for (int64_t batch = 0; batch < batches; ++batch) {
      for (int64_t t = 0; t < tuples; ++t) {
        const int64_t u = batch * tuples + t;
        const T* src =
            data + batch * batch_size + tuple_offset(in[1], s.input_dtypes[1], u * k, 1, k, shape, strides, b);
        std::copy(src, src + slice, out + u * slice);
      }
    }
  });
}

namespace {

template <class T>
class GatherNDKernel final : public TileKernel {
 public:
  GatherNDKernel(const GatherNDAttrs& a, const BindArgs& args)
      : data_(args.inputs[0]), indices_(args.inputs[1]), out_(args.output), dims_(dims_of(a, args.shapes)) {
    const auto [b, q, k] = dims_;
    for (int o = 0; o < static_cast<int>(out_.shape.size()); ++o) {
      if (o < b) from_[o] = data_.strides[o];
      if (o >= q - 1) from_[o] = data_.strides[o - (q - 1) + b + k];
    }
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(data_, ctx);
    const std::byte* ids = input_data<std::byte>(indices_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const auto [b, q, k] = dims_;
    // One copy per tuple position (output dims [0, q - 1)) in the region.
    std::array<int64_t, kMaxRank> at{};
    for (int o = 0; o < q - 1; ++o) at[o] = region.begin[o];
    while (true) {
      Region sub = region;
      int64_t tuple = 0;
      for (int o = 0; o < q - 1; ++o) {
        sub.begin[o] = at[o];
        sub.end[o] = at[o] + 1;
        tuple += at[o] * indices_.strides[o];
      }
      const int64_t offset =
          tuple_offset(ids, indices_.dtype, tuple, indices_.strides[q - 1], k, data_.shape, data_.strides, b);
      copy_region(sub, out_.layout, from_, x + offset, out_.strides, y);
      int o = q - 2;
      for (; o >= 0; --o) {
        if (++at[o] < region.end[o]) break;
        at[o] = region.begin[o];
      }
      if (o < 0) return;
    }
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("gather_nd_copy"); }

 private:
  TensorBinding data_, indices_, out_;
  TupleDims dims_;
  Strides from_{};
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const GatherNDAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<GatherNDKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
