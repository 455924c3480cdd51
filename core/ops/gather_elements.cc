// GatherElements: shape checks, the footprint (the region itself on the indices; the whole
// axis on the data, since any element of it may be read), and the element-wise kernel.
#include "core/ops/gather_elements.h"

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_gather_elements(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {DType::kInt64, DType::kInt32}));
  const Shape& data = p.shape(0);
  const Shape& indices = p.shape(1);
  const int rank = static_cast<int>(data.size());
  if (rank == 0) return p.error("cannot gather from a scalar");
  GatherElementsAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", 0));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, rank, "axis"));
  bool fits = indices.size() == data.size();
  for (int d = 0; fits && d < rank; ++d) fits = d == a.axis || indices[d] <= data[d];
  if (!fits) {
    return p.error("indices " + shape_string(indices) + " must have the rank of data " + shape_string(data) +
                   " and no larger size outside axis " + std::to_string(a.axis));
  }
  TESSERA_RETURN_IF_ERROR(check_constant_indices(p, 1, data[a.axis], "index"));
  return ParsedOp{a, indices, {}, p.dtype(0)};
}

OpCost cost(const GatherElementsAttrs&, const OpShapes&, const Region& out) {
  return {0, 16.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const GatherElementsAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == 1) return out;
  Region r = out;
  r.begin[a.axis] = 0;
  r.end[a.axis] = s.inputs[0][a.axis];
  return r;
}

TilingHints tiling_hints(const GatherElementsAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const GatherElementsAttrs&, const OpShapes& s, const LayoutQuery&) {
  // Data and indices are read through their strides.
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const GatherElementsAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* data = static_cast<const T*>(in[0]);
    T* out = static_cast<T*>(out_data);
    const Shape& shape = s.inputs[0];
    const Shape& indices = s.output;
    const int rank = static_cast<int>(shape.size());
    std::vector<int64_t> index(rank, 0);
    const int64_t count = element_count(indices);
    for (int64_t e = 0; e < count; ++e) {
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) {
        const int64_t i = d == a.axis ? clamp_index(load_int(in[1], s.input_dtypes[1], e), shape[d]) : index[d];
        offset = offset * shape[d] + i;
      }
      out[e] = data[offset];
      for (int d = rank - 1; d >= 0 && ++index[d] == indices[d]; --d) index[d] = 0;
    }
  });
}

namespace {

template <class T, class I>
class GatherElementsKernel final : public TileKernel {
 public:
  GatherElementsKernel(const GatherElementsAttrs& a, const BindArgs& args)
      : data_(args.inputs[0]), indices_(args.inputs[1]), out_(args.output), axis_(a.axis) {
    strides_ = {data_.strides, indices_.strides, out_.strides};
    strides_[0][axis_] = 0;  // the axis offset comes from the index
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(data_, ctx);
    const I* ids = input_data<I>(indices_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int64_t size = data_.shape[axis_], stride = data_.strides[axis_];
    walk_region(region, out_.layout, strides_,
                [&](const std::array<int64_t, 3>& off, int64_t count, const std::array<int64_t, 3>& step) {
                  for (int64_t i = 0; i < count; ++i) {
                    const int64_t index = clamp_index(ids[off[1] + i * step[1]], size);
                    y[off[2] + i * step[2]] = x[off[0] + i * step[0] + index * stride];
                  }
                });
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("gather_elements"); }

 private:
  TensorBinding data_, indices_, out_;
  int axis_;
  std::array<Strides, 3> strides_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const GatherElementsAttrs& a, const BindArgs& args) {
  return make_indexed_kernel<GatherElementsKernel>(a, args, 1);
}

}  // namespace tessera::ops
