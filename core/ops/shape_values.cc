// Shape, Size, Range and ConstantOfShape: shape arithmetic that never reaches a tile. Shape
// and Size return their values from the parser; Range and ConstantOfShape insist on inputs
// known at specialisation, so every instance is evaluated by the graph builder.
#include "core/ops/shape_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/checked_math.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

ParsedOp int64_value(const Shape& dims, const std::vector<int64_t>& values) {
  ParsedOp op;
  op.output = dims;
  op.dtype = DType::kInt64;
  op.value = Tensor::of("", dims, DType::kInt64, values.data());
  return op;
}

Status no_empty_output(const NodeParser& p, const std::string& why) {
  return p.error(why + ": the output would be empty, and Tessera does not support zero-size tensors");
}

// Range's output length max(ceil((limit - start) / delta), 0), computed as onnxruntime does
// for floats (the difference in T, the division in double) and exactly for integers.
template <class T>
Result<int64_t> range_length(const NodeParser& p, T start, T limit, T delta) {
  if (delta == 0) return p.error("delta is 0");
  double length = 0;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta)) {
      return p.error("start, limit and delta must be finite");
    }
    length = std::ceil(static_cast<double>(limit - start) / static_cast<double>(delta));
  } else {
    // In double the quotient of int64 values may round; the ceiling of the exact quotient
    // only matters below kMaxTensorElements, where int64 arithmetic on the difference is exact
    // whenever it does not overflow.
    int64_t difference = 0;
    if (__builtin_sub_overflow(static_cast<int64_t>(limit), static_cast<int64_t>(start), &difference)) {
      return p.error("limit - start overflows int64");
    }
    const int64_t d = static_cast<int64_t>(delta);
    int64_t quotient = difference / d;
    if (difference % d != 0 && ((difference < 0) == (d < 0))) ++quotient;  // round toward +inf
    length = static_cast<double>(quotient);
  }
  if (length <= 0) {
    return no_empty_output(
        p, "Range(" + std::to_string(start) + ", " + std::to_string(limit) + ", " + std::to_string(delta) + ")");
  }
  if (length > static_cast<double>(kMaxTensorElements)) return p.error("output would have too many elements");
  return static_cast<int64_t>(length);
}

template <class T>
Result<int64_t> typed_range_length(const NodeParser& p) {
  auto value = [&](size_t i) { return *static_cast<const T*>(p.constant_data(i)); };
  return range_length<T>(p, value(0), value(1), value(2));
}

template <class T>
void fill_range(std::span<const void* const> in, int64_t count, void* out_data) {
  T value = *static_cast<const T*>(in[0]);
  const T delta = *static_cast<const T*>(in[2]);
  T* out = static_cast<T*>(out_data);
  // Accumulating, as ONNX's function body (a Loop adding delta) and onnxruntime compute it.
  for (int64_t i = 0; i < count; ++i) {
    out[i] = value;
    value += delta;
  }
}

Status evaluated_when_specialised(const BindArgs& args) {
  return Status::error(args.path +
                       ": internal error: this op's inputs are known when the model is specialised, "
                       "so the graph builder evaluates it and no tile runs it");
}

}  // namespace

Result<ParsedOp> parse_shape(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  const Shape& x = p.shape(0);
  const auto rank = static_cast<int64_t>(x.size());
  TESSERA_ASSIGN_OR_RETURN(int64_t start, p.get_int("start", 0));
  TESSERA_ASSIGN_OR_RETURN(int64_t end, p.get_int("end", rank));
  // Negative values count from the back; both are then clamped to [0, rank] (opset 15).
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  const int64_t first = clamp(start), last = clamp(end);
  if (first >= last) {
    return no_empty_output(p, "start " + std::to_string(start) + " and end " + std::to_string(end) +
                                  " select no dimension of " + shape_string(x));
  }
  return int64_value({last - first}, std::vector<int64_t>(x.begin() + first, x.begin() + last));
}

Result<ParsedOp> parse_size(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  return int64_value({}, {element_count(p.shape(0))});
}

Result<ParsedOp> parse_range(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kFloat32, DType::kInt64, DType::kInt32}));
  const DType dtype = p.dtype(0);
  const char* names[] = {"start", "limit", "delta"};
  for (size_t i = 0; i < 3; ++i) {
    TESSERA_RETURN_IF_ERROR(p.expect_dtype(i, {dtype}));
    if (!p.is_constant(i)) {
      return p.error(std::string(names[i]) + " (input " + std::to_string(i) +
                     ") must be known when the model is specialised: an initializer, or computed from input "
                     "shapes and constants, not from input data");
    }
    // ONNX asks for scalars; a one-element [1] is accepted too, as onnxruntime does.
    if (p.shape(i).size() > 1 || element_count(p.shape(i)) != 1) {
      return p.error(std::string(names[i]) + " must be a scalar, got " + shape_string(p.shape(i)));
    }
  }
  Result<int64_t> length = dtype == DType::kFloat32 ? typed_range_length<float>(p)
                           : dtype == DType::kInt64 ? typed_range_length<int64_t>(p)
                                                    : typed_range_length<int32_t>(p);
  TESSERA_RETURN_IF_ERROR(length.status());
  ParsedOp op{RangeAttrs{}, Shape{*length}};
  op.dtype = dtype;
  return op;
}

Result<ParsedOp> parse_constant_of_shape(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kInt64}));
  if (p.shape(0).size() != 1) return p.error("input must be a 1-D shape, got " + shape_string(p.shape(0)));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> dims, p.constant_ints(0, "shape"));
  for (int64_t d : dims) {
    if (d == 0) return no_empty_output(p, "shape " + shape_string(dims) + " has a 0");
    if (d < 0) return p.error("shape " + shape_string(dims) + " has a negative size");
  }
  if (dims.size() > kMaxRank) return p.error("output rank exceeds 8");
  const float zero = 0.0f;
  ConstantOfShapeAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.value, p.get_tensor("value", Tensor::of("", {1}, DType::kFloat32, &zero)));
  if (a.value.element_count() != 1) {
    return p.error("value must hold one element, got " + shape_string(a.value.dims));
  }
  TESSERA_RETURN_IF_ERROR(p.check_work(dims, 1));
  ParsedOp op{a, dims};
  op.dtype = a.value.dtype;
  return op;
}

OpCost cost(const RangeAttrs&, const OpShapes&, const Region& out) {
  return {static_cast<double>(out.element_count()), 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const RangeAttrs&, const OpShapes&, const Region&, int) { return std::nullopt; }

TilingHints tiling_hints(const RangeAttrs&, const OpShapes&, const TilingQuery&) { return {}; }

LayoutChoice choose_layout(const RangeAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {std::vector<std::optional<Layout>>(s.inputs.size()), Layout::identity(1)};
}

void reference(const RangeAttrs&, const OpShapes& s, std::span<const void* const> in, void* out) {
  const int64_t count = s.output[0];
  switch (s.output_dtype) {
    case DType::kFloat32: fill_range<float>(in, count, out); break;
    case DType::kInt64: fill_range<int64_t>(in, count, out); break;
    case DType::kInt32: fill_range<int32_t>(in, count, out); break;
    default: TESSERA_CHECK(false);
  }
}

Result<std::unique_ptr<TileKernel>> bind(const RangeAttrs&, const BindArgs& args) {
  return evaluated_when_specialised(args);
}

OpCost cost(const ConstantOfShapeAttrs& a, const OpShapes&, const Region& out) {
  return {0, static_cast<double>(out.element_count() * static_cast<int64_t>(dtype_size(a.value.dtype)))};
}

std::optional<Region> footprint(const ConstantOfShapeAttrs&, const OpShapes&, const Region&, int) {
  return std::nullopt;
}

TilingHints tiling_hints(const ConstantOfShapeAttrs&, const OpShapes&, const TilingQuery&) { return {}; }

LayoutChoice choose_layout(const ConstantOfShapeAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const ConstantOfShapeAttrs& a, const OpShapes& s, std::span<const void* const>, void* out) {
  const size_t size = a.value.bytes.size();
  auto* bytes = static_cast<std::byte*>(out);
  const int64_t count = element_count(s.output);
  for (int64_t i = 0; i < count; ++i) std::memcpy(bytes + i * size, a.value.bytes.data(), size);
}

Result<std::unique_ptr<TileKernel>> bind(const ConstantOfShapeAttrs&, const BindArgs& args) {
  return evaluated_when_specialised(args);
}

}  // namespace tessera::ops
