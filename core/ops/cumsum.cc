// CumSum: a tile holds the whole scanned axis and computes it one slice at a time,
// out[a] = out[a -/+ 1] + x[...], so the inner runs are the other dims' contiguous rows and
// each element is the same left-to-right sum the reference computes. Integers wrap (two's
// complement) instead of overflowing.
#include "core/ops/cumsum.h"

#include <type_traits>

#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

template <class T>
T add(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a + b;
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  }
}

template <class T>
void scan_reference(const CumSumAttrs& a, const Shape& shape, const T* x, T* y) {
  const int64_t n = shape[a.axis];
  int64_t inner = 1;
  for (size_t d = a.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t outer = element_count(shape) / (n * inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      // y[0] = x[0] (exclusive: 0), then y[s] = y[s - 1] + x[s] (exclusive: x[s - 1]), in scan order.
      int64_t previous = -1;
      for (int64_t s = 0; s < n; ++s) {
        const int64_t e = (o * n + (a.reverse ? n - 1 - s : s)) * inner + i;
        if (previous < 0) {
          y[e] = a.exclusive ? T{0} : x[e];
        } else {
          y[e] = add(y[previous], a.exclusive ? x[previous] : x[e]);
        }
        previous = e;
      }
    }
  }
}

template <class T>
class CumSumKernel final : public TileKernel {
 public:
  CumSumKernel(const CumSumAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int axis = attrs_.axis;
    const int64_t n = out_.shape[axis];
    // Position `back` steps before slice a in scan order (a + 1 when reversed).
    const int64_t back = attrs_.reverse ? 1 : -1;
    const int64_t x_back = back * in_.strides[axis], y_back = back * out_.strides[axis];
    Region slice = region;
    for (int64_t s = 0; s < n; ++s) {
      const int64_t at = attrs_.reverse ? n - 1 - s : s;
      slice.begin[axis] = at;
      slice.end[axis] = at + 1;
      walk_region(slice, out_.layout, std::array<Strides, 2>{in_.strides, out_.strides},
                  [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                    const T* xs = x + off[0];
                    T* ys = y + off[1];
                    for (int64_t i = 0; i < count; ++i) {
                      const int64_t xi = i * step[0], yi = i * step[1];
                      if (s == 0) {
                        ys[yi] = attrs_.exclusive ? T{0} : xs[xi];
                      } else {
                        ys[yi] = add(ys[yi + y_back], attrs_.exclusive ? xs[xi + x_back] : xs[xi]);
                      }
                    }
                  });
    }
  }
  std::string kernel_name() const override {
    if constexpr (std::is_same_v<T, float>) return "f32_cumsum";
    return std::is_same_v<T, int64_t> ? "s64_cumsum" : "s32_cumsum";
  }

 private:
  CumSumAttrs attrs_;
  TensorBinding in_, out_;
};

}  // namespace

Result<ParsedOp> parse_cumsum(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kFloat32, DType::kInt64, DType::kInt32}));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> axis, p.constant_ints(1, "axis"));
  if (axis.size() != 1) return p.error("axis must be a scalar, got " + shape_string(p.shape(1)));
  CumSumAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis[0], static_cast<int>(p.shape(0).size()), "axis"));
  TESSERA_ASSIGN_OR_RETURN(int64_t exclusive, p.get_int("exclusive", 0));
  TESSERA_ASSIGN_OR_RETURN(int64_t reverse, p.get_int("reverse", 0));
  a.exclusive = exclusive != 0;
  a.reverse = reverse != 0;
  ParsedOp op{a, p.shape(0)};
  op.dtype = p.dtype(0);
  return op;
}

OpCost cost(const CumSumAttrs&, const OpShapes& s, const Region& out) {
  const auto n = static_cast<double>(out.element_count());
  return {n, 2.0 * n * static_cast<double>(dtype_size(s.output_dtype))};
}

std::optional<Region> footprint(const CumSumAttrs&, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // the axis is a constant
  return out;
}

TilingHints tiling_hints(const CumSumAttrs& a, const OpShapes& s, const TilingQuery& q) {
  std::vector<bool> keep_whole(s.output.size(), false);
  keep_whole[a.axis] = true;
  TilingHints hints = elementwise_tiling_hints(s.output, q.output_layout, keep_whole);
  // A scan down the rows of a matrix ([seq, hidden], axis 0) has only the innermost dim to
  // split: in blocks of whole cache lines, so the runs stay long.
  const int inner = q.output_layout.perm.back();
  if (hints.dims.empty() && inner != a.axis && s.output[inner] > 16) hints.dims.push_back({inner, 16});
  return hints;
}

LayoutChoice choose_layout(const CumSumAttrs&, const OpShapes& s, const LayoutQuery&) {
  // The input is read through its strides, in whatever layout it has.
  return {std::vector<std::optional<Layout>>(s.inputs.size()), Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const CumSumAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  switch (s.output_dtype) {
    case DType::kFloat32:
      scan_reference(a, s.output, static_cast<const float*>(in[0]), static_cast<float*>(out));
      break;
    case DType::kInt64:
      scan_reference(a, s.output, static_cast<const int64_t*>(in[0]), static_cast<int64_t*>(out));
      break;
    case DType::kInt32:
      scan_reference(a, s.output, static_cast<const int32_t*>(in[0]), static_cast<int32_t*>(out));
      break;
    default: TESSERA_CHECK(false);
  }
}

Result<std::unique_ptr<TileKernel>> bind(const CumSumAttrs& a, const BindArgs& args) {
  switch (args.output.dtype) {
    case DType::kFloat32: return std::unique_ptr<TileKernel>(new CumSumKernel<float>(a, args));
    case DType::kInt64: return std::unique_ptr<TileKernel>(new CumSumKernel<int64_t>(a, args));
    case DType::kInt32: return std::unique_ptr<TileKernel>(new CumSumKernel<int32_t>(a, args));
    default: return Status::error(args.path + ": internal error: CumSum of " + dtype_name(args.output.dtype));
  }
}

}  // namespace tessera::ops
