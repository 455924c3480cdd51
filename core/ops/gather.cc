// Gather: index checks and output shape, the per-region footprint (index hull for constant
// indices, the whole axis for run-time ones), and the copy kernel (one strided block copy per
// index the region uses).
#include "core/ops/gather.h"

#include <algorithm>

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_gather(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {DType::kInt64, DType::kInt32}));
  const Shape& data = p.shape(0);
  const int rank = static_cast<int>(data.size());
  if (rank == 0) return p.error("cannot gather from a scalar");
  TESSERA_ASSIGN_OR_RETURN(int64_t axis_attribute, p.get_int("axis", 0));
  GatherAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis_attribute, rank, "axis"));
  a.indices_shape = p.shape(1);
  if (p.is_constant(1)) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> indices, p.constant_ints(1, "indices"));
    const int64_t size = data[a.axis];
    for (int64_t& i : indices) {
      if (i < -size || i >= size) {
        return p.error("index " + std::to_string(i) + " is out of range for axis " + std::to_string(a.axis) +
                       " of size " + std::to_string(size));
      }
      if (i < 0) i += size;
    }
    a.indices = std::make_shared<const std::vector<int64_t>>(std::move(indices));
  }
  Shape out(data.begin(), data.begin() + a.axis);
  out.insert(out.end(), a.indices_shape.begin(), a.indices_shape.end());
  out.insert(out.end(), data.begin() + a.axis + 1, data.end());
  return ParsedOp{a, out, {}, p.dtype(0)};
}

namespace {

// Calls fn(flat, sub) for every index position inside `region`, in row-major order of the
// index dimensions: `flat` is the position's row-major offset in the indices, `sub` the
// output region it fills.
template <class Fn>
void for_each_index(const GatherAttrs& a, const Region& region, Fn&& fn) {
  const int q = static_cast<int>(a.indices_shape.size());
  std::array<int64_t, kMaxRank> j{};
  for (int k = 0; k < q; ++k) j[k] = region.begin[a.axis + k];
  while (true) {
    int64_t flat = 0;
    Region sub = region;
    for (int k = 0; k < q; ++k) {
      flat = flat * a.indices_shape[k] + j[k];
      sub.begin[a.axis + k] = j[k];
      sub.end[a.axis + k] = j[k] + 1;
    }
    fn(flat, sub);
    int k = q - 1;
    for (; k >= 0; --k) {
      if (++j[k] < region.end[a.axis + k]) break;
      j[k] = region.begin[a.axis + k];
    }
    if (k < 0) return;
  }
}

// The input's strides seen from the output's dimensions (0 along the index dimensions).
Strides input_strides_on_output(const GatherAttrs& a, const Strides& in, int out_rank) {
  const int q = static_cast<int>(a.indices_shape.size());
  Strides s{};
  for (int o = 0; o < out_rank; ++o) {
    if (o < a.axis) s[o] = in[o];
    if (o >= a.axis + q) s[o] = in[o - q + 1];
  }
  return s;
}

// Index `flat` of the gather: constant and normalised, or read from the run-time indices
// (of `dtype`) and brought into [0, size) (see clamp_index).
int64_t index_at(const GatherAttrs& a, const void* indices, DType dtype, int64_t size, int64_t flat) {
  return a.indices ? (*a.indices)[flat] : clamp_index(load_int(indices, dtype, flat), size);
}

}  // namespace

OpCost cost(const GatherAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const GatherAttrs& a, const OpShapes& s, const Region& out, int input) {
  const int q = static_cast<int>(a.indices_shape.size());
  if (input == 1) {  // the index positions the region uses
    Region r = Region::whole(a.indices_shape);
    for (int k = 0; k < q; ++k) {
      r.begin[k] = out.begin[a.axis + k];
      r.end[k] = out.end[a.axis + k];
    }
    return r;
  }
  Region r = Region::whole(s.inputs[0]);
  for (int d = 0; d < r.rank; ++d) {
    if (d == a.axis) continue;
    const int o = d < a.axis ? d : d + q - 1;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  if (!a.indices) return r;  // run-time indices: any row of the axis
  int64_t lo = s.inputs[0][a.axis], hi = -1;
  for_each_index(a, out, [&](int64_t flat, const Region&) {
    lo = std::min(lo, (*a.indices)[flat]);
    hi = std::max(hi, (*a.indices)[flat]);
  });
  r.begin[a.axis] = lo;
  r.end[a.axis] = hi + 1;
  return r;
}

TilingHints tiling_hints(const GatherAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const GatherAttrs& a, const OpShapes& s, const LayoutQuery&) {
  // The data is read through its strides in whatever layout it has; run-time indices are
  // read by row-major position.
  return {{std::nullopt, Layout::identity(static_cast<int>(a.indices_shape.size()))},
          Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const GatherAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* data = static_cast<const T*>(in[0]);
    T* out = static_cast<T*>(out_data);
    // out[i..., j..., k...] = data[i..., indices[j...], k...], element by element.
    const Shape& shape = s.inputs[0];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < a.axis; ++d) outer *= shape[d];
    for (size_t d = a.axis + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t count = element_count(a.indices_shape), size = shape[a.axis];
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t j = 0; j < count; ++j) {
        const int64_t index = index_at(a, in[1], s.input_dtypes[1], size, j);
        for (int64_t k = 0; k < inner; ++k) out[(i * count + j) * inner + k] = data[(i * size + index) * inner + k];
      }
    }
  });
}

namespace {

template <class T>
class GatherKernel final : public TileKernel {
 public:
  GatherKernel(const GatherAttrs& a, const BindArgs& args)
      : attrs_(a),
        data_(args.inputs[0]),
        indices_(args.inputs[1]),
        out_(args.output),
        from_(input_strides_on_output(a, data_.strides, static_cast<int>(out_.shape.size()))) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(data_, ctx);
    const std::byte* ids = attrs_.indices ? nullptr : input_data<std::byte>(indices_, ctx);
    const int64_t size = data_.shape[attrs_.axis], stride = data_.strides[attrs_.axis];
    for_each_index(attrs_, region, [&](int64_t flat, const Region& sub) {
      const int64_t index = index_at(attrs_, ids, indices_.dtype, size, flat);
      copy_region(sub, out_.layout, from_, x + index * stride, out_.strides, tensor_data<T>(out_, ctx));
    });
  }
  std::string kernel_name() const override {
    return typed_kernel_name<T>(attrs_.indices ? "gather_copy" : "gather_runtime_indices");
  }

 private:
  GatherAttrs attrs_;
  TensorBinding data_, indices_, out_;
  Strides from_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const GatherAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<GatherKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
