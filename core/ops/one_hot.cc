// OneHot: depth and axis, a footprint that drops the new axis, and the kernel: each index is
// read once and its line along the new axis written. An index outside [-depth, depth) gives
// a line of off values (ONNX); negative ones count from the end; float indices are truncated.
#include "core/ops/one_hot.h"

#include "core/base/checked_math.h"
#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_one_hot(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kInt64, DType::kInt32, DType::kUInt8, DType::kFloat32}));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {DType::kInt64, DType::kInt32, DType::kFloat32}));
  const Shape& indices = p.shape(0);
  OneHotAttrs a;
  if (!p.is_constant(1)) {
    return p.error("depth (input 1 \"" + p.desc().inputs[1] +
                   "\") must be known when the model is specialised: an initializer, or computed from input shapes "
                   "and constants, not from input data");
  }
  if (element_count(p.shape(1)) != 1) return p.error("depth must hold one value");
  const double depth = p.dtype(1) == DType::kFloat32 ? static_cast<const float*>(p.constant_data(1))[0]
                                                     : static_cast<double>(load_int(p.constant_data(1), p.dtype(1), 0));
  if (!(depth >= 1 && depth <= static_cast<double>(kMaxTensorElements))) {
    return p.error("depth must be at least 1 (Tessera has no empty tensors), got " + std::to_string(depth));
  }
  a.depth = static_cast<int64_t>(depth);  // ONNX casts a float depth to int64
  if (element_count(p.shape(2)) != 2) return p.error("values must hold two values: [off, on]");
  const int rank = static_cast<int>(indices.size()) + 1;
  TESSERA_ASSIGN_OR_RETURN(int64_t axis, p.get_int("axis", -1));
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis, rank, "axis"));
  Shape out = indices;
  out.insert(out.begin() + a.axis, a.depth);
  return ParsedOp{a, out, {}, p.dtype(2)};
}

namespace {

// The position along the new axis that index value i marks, or -1 (all off).
int64_t hot_position(int64_t i, int64_t depth) {
  if (i < 0 && i >= -depth) i += depth;
  return i >= 0 && i < depth ? i : -1;
}

}  // namespace

OpCost cost(const OneHotAttrs&, const OpShapes&, const Region& out) {
  return {0, 4.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const OneHotAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input == 1) return std::nullopt;                // depth is constant
  if (input == 2) return Region::whole(s.inputs[2]);  // [off, on]
  Region r = Region::whole(s.inputs[0]);
  for (int d = 0; d < r.rank; ++d) {
    const int o = d < a.axis ? d : d + 1;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  return r;
}

TilingHints tiling_hints(const OneHotAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const OneHotAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt, std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const OneHotAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* values = static_cast<const T*>(in[2]);
    T* out = static_cast<T*>(out_data);
    const Shape& indices = s.inputs[0];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < a.axis; ++d) outer *= indices[d];
    for (size_t d = a.axis; d < indices.size(); ++d) inner *= indices[d];
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t k = 0; k < inner; ++k) {
        const int64_t hot = hot_position(load_int(in[0], s.input_dtypes[0], i * inner + k), a.depth);
        for (int64_t d = 0; d < a.depth; ++d) out[(i * a.depth + d) * inner + k] = values[d == hot ? 1 : 0];
      }
    }
  });
}

namespace {

template <class T>
class OneHotKernel final : public TileKernel {
 public:
  OneHotKernel(const OneHotAttrs& a, const BindArgs& args)
      : attrs_(a), indices_(args.inputs[0]), values_(args.inputs[2]), out_(args.output) {
    for (int d = 0; d < static_cast<int>(indices_.shape.size()); ++d)
      from_[d < a.axis ? d : d + 1] = indices_.strides[d];
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const std::byte* ids = input_data<std::byte>(indices_, ctx);
    const T* values = input_data<T>(values_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int64_t first = region.begin[attrs_.axis], extent = region.extent(attrs_.axis);
    const int64_t step = out_.strides[attrs_.axis];
    // One line along the new axis per index the region covers.
    Region lines = region;
    lines.end[attrs_.axis] = first + 1;
    walk_region(lines, out_.layout, std::array<Strides, 2>{from_, out_.strides},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& inner) {
                  for (int64_t r = 0; r < count; ++r) {
                    const int64_t hot =
                        hot_position(load_int(ids, indices_.dtype, off[0] + r * inner[0]), attrs_.depth) - first;
                    T* line = y + off[1] + r * inner[1];
                    for (int64_t d = 0; d < extent; ++d) line[d * step] = values[d == hot ? 1 : 0];
                  }
                });
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("one_hot"); }

 private:
  OneHotAttrs attrs_;
  TensorBinding indices_, values_, out_;
  Strides from_{};
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const OneHotAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<OneHotKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
