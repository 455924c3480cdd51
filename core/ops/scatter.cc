// ScatterND and ScatterElements: shape rules, reductions, footprints (the data region; all
// of the indices and updates for ScatterND, the updates that can land in the region for
// ScatterElements) and the kernels, which copy the data region then apply updates in order.
#include "core/ops/scatter.h"

#include <algorithm>
#include <type_traits>

#include "core/ops/element_type.h"
#include "core/ops/gather_nd.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

using Reduction = ScatterReduction;

namespace {

// The reduction attribute, and the data checks both ops share.
Result<Reduction> parse_common(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {DType::kInt64, DType::kInt32}));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(2, {p.dtype(0)}));
  if (p.shape(0).empty()) return p.error("cannot scatter into a scalar");
  TESSERA_ASSIGN_OR_RETURN(std::string name, p.get_string("reduction", "none"));
  Reduction r = Reduction::kNone;
  if (name == "add") {
    r = Reduction::kAdd;
  } else if (name == "mul") {
    r = Reduction::kMul;
  } else if (name == "max") {
    r = Reduction::kMax;
  } else if (name == "min") {
    r = Reduction::kMin;
  } else if (name != "none") {
    return p.error("attribute \"reduction\" must be none, add, mul, max or min, got \"" + name + "\"");
  }
  if (r != Reduction::kNone && p.dtype(0) == DType::kBool) {
    return p.error("reduction \"" + name + "\" does not apply to bool data");
  }
  return r;
}

// The type sums and products are computed in: integers as unsigned, so that they wrap around
// (signed overflow is undefined).
template <class T>
struct ArithmeticOf {
  using type = T;
};
template <class T>
requires std::is_integral_v<T>
struct ArithmeticOf<T> {
  using type = std::make_unsigned_t<T>;
};

template <class T>
T combine(Reduction r, T old, T update) {
  using Arithmetic = typename ArithmeticOf<T>::type;
  const auto a = static_cast<Arithmetic>(old), b = static_cast<Arithmetic>(update);
  switch (r) {
    case Reduction::kNone: return update;
    case Reduction::kAdd: return static_cast<T>(a + b);
    case Reduction::kMul: return static_cast<T>(a * b);
    case Reduction::kMax: return std::max(old, update);
    case Reduction::kMin: return std::min(old, update);
  }
  return update;
}

// dst[i * to] = combine(dst[i * to], src[i * from]) for i < count.
template <class T>
void combine_run(Reduction r, T* dst, int64_t to, const T* src, int64_t from, int64_t count) {
  if (r == Reduction::kNone) {
    for (int64_t i = 0; i < count; ++i) dst[i * to] = src[i * from];
    return;
  }
  for (int64_t i = 0; i < count; ++i) dst[i * to] = combine(r, dst[i * to], src[i * from]);
}

// Elements of data dims [k, rank): the size of one ScatterND update slice.
int64_t slice_size(const Shape& data, int k) {
  int64_t n = 1;
  for (size_t d = k; d < data.size(); ++d) n *= data[d];
  return n;
}

int tuple_length(const OpShapes& s) { return static_cast<int>(s.inputs[1].back()); }

}  // namespace

Result<ParsedOp> parse_scatter_nd(NodeParser& p) {
  TESSERA_ASSIGN_OR_RETURN(Reduction reduction, parse_common(p));
  const Shape& data = p.shape(0);
  const Shape& indices = p.shape(1);
  const int r = static_cast<int>(data.size()), q = static_cast<int>(indices.size());
  if (q == 0) return p.error("indices must have rank 1 or more");
  const int64_t k = indices[q - 1];
  if (k < 1 || k > r) {
    return p.error("index tuples have " + std::to_string(k) + " elements, expected 1 to " + std::to_string(r));
  }
  Shape expected(indices.begin(), indices.end() - 1);
  expected.insert(expected.end(), data.begin() + k, data.end());
  if (p.shape(2) != expected) {
    return p.error("updates " + shape_string(p.shape(2)) + " must have shape " + shape_string(expected));
  }
  TESSERA_RETURN_IF_ERROR(check_constant_tuples(p, 1, data, 0));
  return ParsedOp{ScatterNDAttrs{reduction}, data, {}, p.dtype(0)};
}

Result<ParsedOp> parse_scatter_elements(NodeParser& p) {
  TESSERA_ASSIGN_OR_RETURN(Reduction reduction, parse_common(p));
  const Shape& data = p.shape(0);
  const Shape& indices = p.shape(1);
  const int rank = static_cast<int>(data.size());
  ScatterElementsAttrs a;
  a.reduction = reduction;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", 0));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, rank, "axis"));
  bool fits = indices.size() == data.size();
  for (int d = 0; fits && d < rank; ++d) fits = d == a.axis || indices[d] <= data[d];
  if (!fits) {
    return p.error("indices " + shape_string(indices) + " must have the rank of data " + shape_string(data) +
                   " and no larger size outside axis " + std::to_string(a.axis));
  }
  if (p.shape(2) != indices) {
    return p.error("updates " + shape_string(p.shape(2)) + " must have the shape of indices " + shape_string(indices));
  }
  TESSERA_RETURN_IF_ERROR(check_constant_indices(p, 1, data[a.axis], "index"));
  return ParsedOp{a, data, {}, p.dtype(0)};
}

// ---- ScatterND ----

OpCost cost(const ScatterNDAttrs&, const OpShapes& s, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count()) + 4.0 * static_cast<double>(element_count(s.inputs[2]))};
}

std::optional<Region> footprint(const ScatterNDAttrs&, const OpShapes& s, const Region& out, int input) {
  if (input == 0) return out;
  return Region::whole(s.inputs[input]);  // any update may land in the region
}

TilingHints tiling_hints(const ScatterNDAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ScatterNDAttrs&, const OpShapes& s, const LayoutQuery&) {
  // Indices and updates are read by row-major position.
  return {{std::nullopt, Layout::identity(static_cast<int>(s.inputs[1].size())),
           Layout::identity(static_cast<int>(s.inputs[2].size()))},
          Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ScatterNDAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const Shape& data = s.inputs[0];
    T* out = static_cast<T*>(out_data);
    std::copy_n(static_cast<const T*>(in[0]), element_count(data), out);
    const T* updates = static_cast<const T*>(in[2]);
    const int k = tuple_length(s);
    const int64_t slice = slice_size(data, k), tuples = element_count(s.inputs[1]) / k;
    const Strides strides = logical_strides(data, Layout::identity(static_cast<int>(data.size())));
    for (int64_t u = 0; u < tuples; ++u) {  // in index order: a later duplicate wins
      const int64_t offset = tuple_offset(in[1], s.input_dtypes[1], u * k, 1, k, data, strides, 0);
      for (int64_t e = 0; e < slice; ++e)
        out[offset + e] = combine(a.reduction, out[offset + e], updates[u * slice + e]);
    }
  });
}

namespace {

template <class T>
class ScatterNDKernel final : public TileKernel {
 public:
  ScatterNDKernel(const ScatterNDAttrs& a, const BindArgs& args)
      : attrs_(a), data_(args.inputs[0]), indices_(args.inputs[1]), updates_(args.inputs[2]), out_(args.output) {
    k_ = static_cast<int>(indices_.shape.back());
    // An update slice covers data dims [k, rank), row-major like the data's trailing dims.
    int64_t stride = 1;
    for (int d = static_cast<int>(out_.shape.size()) - 1; d >= k_; --d) {
      from_[d] = stride;
      stride *= out_.shape[d];
    }
    slice_ = stride;
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    T* y = tensor_data<T>(out_, ctx);
    copy_region(region, out_.layout, data_.strides, input_data<T>(data_, ctx), out_.strides, y);
    const std::byte* ids = input_data<std::byte>(indices_, ctx);
    const T* updates = input_data<T>(updates_, ctx);
    const int64_t tuples = element_count(indices_.shape) / k_;
    for (int64_t u = 0; u < tuples; ++u) {
      // The slice's place, and whether it meets the region.
      Region sub = region;
      bool inside = true;
      for (int j = 0; j < k_ && inside; ++j) {
        const int64_t c = clamp_index(load_int(ids, indices_.dtype, u * k_ + j), out_.shape[j]);
        inside = c >= region.begin[j] && c < region.end[j];
        sub.begin[j] = c;
        sub.end[j] = c + 1;
      }
      if (!inside) continue;
      walk_region(sub, out_.layout, std::array<Strides, 2>{from_, out_.strides},
                  [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                    combine_run(attrs_.reduction, y + off[1], step[1], updates + u * slice_ + off[0], step[0], count);
                  });
    }
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("scatter_nd"); }

 private:
  ScatterNDAttrs attrs_;
  TensorBinding data_, indices_, updates_, out_;
  int k_ = 1;
  int64_t slice_ = 1;
  Strides from_{};  // update slice strides on the output's dims (0 on the indexed ones)
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ScatterNDAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<ScatterNDKernel<decltype(zero)>>(a, args);
  });
}

// ---- ScatterElements ----

namespace {

// The updates (and their indices) that can land in output region `out`: an update keeps its
// position outside the axis, so those within the region there, any along the axis.
Region updates_for(const ScatterElementsAttrs& a, const Shape& indices, const Region& out) {
  Region r = Region::whole(indices);
  for (int d = 0; d < r.rank; ++d) {
    if (d == a.axis) continue;
    r.begin[d] = std::min(out.begin[d], indices[d]);
    r.end[d] = std::min(out.end[d], indices[d]);
  }
  return r;
}

}  // namespace

OpCost cost(const ScatterElementsAttrs& a, const OpShapes& s, const Region& out) {
  const Region updates = updates_for(a, s.inputs[1], out);
  return {0, 8.0 * static_cast<double>(out.element_count()) + 12.0 * static_cast<double>(updates.element_count())};
}

std::optional<Region> footprint(const ScatterElementsAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == 0) return out;
  const Region r = updates_for(a, s.inputs[1], out);
  if (r.empty()) return std::nullopt;
  return r;
}

TilingHints tiling_hints(const ScatterElementsAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ScatterElementsAttrs&, const OpShapes& s, const LayoutQuery&) {
  // Data, indices and updates are read through their strides.
  return {{std::nullopt, std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ScatterElementsAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const Shape& data = s.inputs[0];
    const Shape& indices = s.inputs[1];
    T* out = static_cast<T*>(out_data);
    std::copy_n(static_cast<const T*>(in[0]), element_count(data), out);
    const T* updates = static_cast<const T*>(in[2]);
    const int rank = static_cast<int>(data.size());
    std::vector<int64_t> index(rank, 0);
    const int64_t count = element_count(indices);
    for (int64_t e = 0; e < count; ++e) {  // in index order: a later duplicate wins
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) {
        const int64_t i = d == a.axis ? clamp_index(load_int(in[1], s.input_dtypes[1], e), data[d]) : index[d];
        offset = offset * data[d] + i;
      }
      out[offset] = combine(a.reduction, out[offset], updates[e]);
      for (int d = rank - 1; d >= 0 && ++index[d] == indices[d]; --d) index[d] = 0;
    }
  });
}

namespace {

template <class T, class I>
class ScatterElementsKernel final : public TileKernel {
 public:
  ScatterElementsKernel(const ScatterElementsAttrs& a, const BindArgs& args)
      : attrs_(a), data_(args.inputs[0]), indices_(args.inputs[1]), updates_(args.inputs[2]), out_(args.output) {
    strides_ = {indices_.strides, updates_.strides, out_.strides};
    strides_[2][a.axis] = 0;  // the axis position comes from the index
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    T* y = tensor_data<T>(out_, ctx);
    copy_region(region, out_.layout, data_.strides, input_data<T>(data_, ctx), out_.strides, y);
    const Region updates = updates_for(attrs_, indices_.shape, region);
    if (updates.empty()) return;
    const I* ids = input_data<I>(indices_, ctx);
    const T* u = input_data<T>(updates_, ctx);
    const int axis = attrs_.axis;
    const int64_t size = out_.shape[axis], stride = out_.strides[axis];
    // Row-major order of the updates (not the output's memory order): duplicates apply in
    // index order on every tiling.
    walk_region(updates, Layout::identity(region.rank), strides_,
                [&](const std::array<int64_t, 3>& off, int64_t count, const std::array<int64_t, 3>& step) {
                  for (int64_t i = 0; i < count; ++i) {
                    const int64_t c = clamp_index(ids[off[0] + i * step[0]], size);
                    if (c < region.begin[axis] || c >= region.end[axis]) continue;
                    T& target = y[off[2] + i * step[2] + c * stride];
                    target = combine(attrs_.reduction, target, u[off[1] + i * step[1]]);
                  }
                });
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("scatter_elements"); }

 private:
  ScatterElementsAttrs attrs_;
  TensorBinding data_, indices_, updates_, out_;
  std::array<Strides, 3> strides_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const ScatterElementsAttrs& a, const BindArgs& args) {
  return make_indexed_kernel<ScatterElementsKernel>(a, args, 1);
}

}  // namespace tessera::ops
