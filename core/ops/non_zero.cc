// NonZero on a constant input: the parser counts the non-zero elements (the output's size),
// reference() lists their coordinates in row-major order, as numpy.nonzero does.
#include "core/ops/non_zero.h"

#include <algorithm>

#include "core/ops/element_type.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

// Calls fn(flat offset) for each non-zero element of `data` (NaN counts as non-zero).
template <class Fn>
void for_each_non_zero(const void* data, DType dtype, int64_t count, Fn&& fn) {
  visit_dtype(dtype, [&](auto zero) {
    const auto* x = static_cast<const decltype(zero)*>(data);
    for (int64_t i = 0; i < count; ++i) {
      if (x[i] != zero) fn(i);
    }
  });
}

}  // namespace

Result<ParsedOp> parse_non_zero(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  if (!p.is_constant(0)) {
    return p.error("NonZero needs its input known when the model is specialised: its output size depends on the data");
  }
  int64_t found = 0;
  for_each_non_zero(p.constant_data(0), p.dtype(0), element_count(p.shape(0)), [&](int64_t) { ++found; });
  if (found == 0)
    return p.error("the input has no non-zero element: the output would be empty (Tessera has no empty tensors)");
  // A scalar reads as a 1-D tensor of one element (as onnxruntime does): coordinates [1, count].
  const int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(p.shape(0).size()));
  return ParsedOp{NonZeroAttrs{}, Shape{rank, found}, {}, DType::kInt64};
}

OpCost cost(const NonZeroAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const NonZeroAttrs&, const OpShapes& s, const Region&, int) {
  return Region::whole(s.inputs[0]);
}

TilingHints tiling_hints(const NonZeroAttrs&, const OpShapes&, const TilingQuery&) { return {}; }

LayoutChoice choose_layout(const NonZeroAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const NonZeroAttrs&, const OpShapes& s, std::span<const void* const> in, void* out_data) {
  const Shape& shape = s.inputs[0];
  const int64_t count = s.output[1];
  auto* out = static_cast<int64_t*>(out_data);
  int64_t column = 0;
  for_each_non_zero(in[0], s.input_dtypes[0], element_count(shape), [&](int64_t flat) {
    if (shape.empty()) out[column] = 0;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      out[d * count + column] = flat % shape[d];
      flat /= shape[d];
    }
    ++column;
  });
}

Result<std::unique_ptr<TileKernel>> bind(const NonZeroAttrs&, const BindArgs& args) {
  return Status::error(args.path + ": internal error: NonZero runs only while the model is specialised");
}

}  // namespace tessera::ops
