// Trilu: per matrix row, the kept columns are one contiguous range, so a tile copies that
// range and zeroes the rest of its row span. Zero is all-zero bits in every dtype.
#include "core/ops/trilu.h"

#include <algorithm>
#include <cstring>

#include "core/ops/element_bits.h"
#include "core/ops/parsers.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

// The columns [first, last) of row i kept within [0, columns).
std::pair<int64_t, int64_t> kept_columns(const TriluAttrs& a, int64_t i, int64_t columns) {
  // k is clamped far beyond any matrix (dims < 2^40) so that extreme values cannot overflow.
  constexpr int64_t kFar = int64_t{1} << 42;
  const int64_t diagonal = std::clamp<int64_t>(a.k, -kFar, kFar) + i;
  if (a.upper) return {std::clamp<int64_t>(diagonal, 0, columns), columns};
  return {0, std::clamp<int64_t>(diagonal + 1, 0, columns)};
}

template <class T>
class TriluKernel final : public TileKernel {
 public:
  TriluKernel(const TriluAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int rank = region.rank;
    const int64_t columns = out_.shape[rank - 1];
    const int64_t x_step = in_.strides[rank - 1], y_step = out_.strides[rank - 1];
    // One matrix row segment [j0, j1) per position of the other dims.
    std::array<int64_t, kMaxRank> index = region.begin;
    while (true) {
      int64_t x_offset = 0, y_offset = 0;
      for (int d = 0; d + 1 < rank; ++d) {
        x_offset += index[d] * in_.strides[d];
        y_offset += index[d] * out_.strides[d];
      }
      auto [first, last] = kept_columns(attrs_, index[rank - 2], columns);
      first = std::clamp(first, region.begin[rank - 1], region.end[rank - 1]);
      last = std::clamp(last, first, region.end[rank - 1]);
      for (int64_t j = region.begin[rank - 1]; j < region.end[rank - 1]; ++j) {
        y[y_offset + j * y_step] = j >= first && j < last ? x[x_offset + j * x_step] : T{0};
      }
      int d = rank - 2;
      for (; d >= 0; --d) {
        if (++index[d] < region.end[d]) break;
        index[d] = region.begin[d];
      }
      if (d < 0) return;
    }
  }
  std::string kernel_name() const override { return std::string(element_bits_name<T>()) + "_trilu"; }

 private:
  TriluAttrs attrs_;
  TensorBinding in_, out_;
};

}  // namespace

Result<ParsedOp> parse_trilu(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 2));
  if (p.shape(0).size() < 2) return p.error("input must have rank 2 or more, got " + shape_string(p.shape(0)));
  TriluAttrs a;
  TESSERA_ASSIGN_OR_RETURN(int64_t upper, p.get_int("upper", 1));
  a.upper = upper != 0;
  if (p.has_input(1)) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> k, p.constant_ints(1, "k"));
    if (k.size() != 1) return p.error("k must be a scalar, got " + shape_string(p.shape(1)));
    a.k = k[0];
  }
  ParsedOp op{a, p.shape(0)};
  op.dtype = p.dtype(0);
  return op;
}

OpCost cost(const TriluAttrs&, const OpShapes& s, const Region& out) {
  return {0, 2.0 * static_cast<double>(out.element_count() * static_cast<int64_t>(dtype_size(s.output_dtype)))};
}

std::optional<Region> footprint(const TriluAttrs&, const OpShapes&, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // k is a constant
  return out;
}

TilingHints tiling_hints(const TriluAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const TriluAttrs&, const OpShapes& s, const LayoutQuery&) {
  // The input is read through its strides, in whatever layout it has.
  return {std::vector<std::optional<Layout>>(s.inputs.size()), Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const TriluAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  const size_t size = dtype_size(s.output_dtype);
  const auto* x = static_cast<const std::byte*>(in[0]);
  auto* y = static_cast<std::byte*>(out);
  const int rank = static_cast<int>(s.output.size());
  const int64_t rows = s.output[rank - 2], columns = s.output[rank - 1];
  const int64_t count = element_count(s.output);
  for (int64_t e = 0; e < count; ++e) {
    const int64_t i = e / columns % rows, j = e % columns;
    const bool keep = a.upper ? j - i >= a.k : j - i <= a.k;
    if (keep) {
      std::memcpy(y + e * size, x + e * size, size);
    } else {
      std::memset(y + e * size, 0, size);
    }
  }
}

Result<std::unique_ptr<TileKernel>> bind(const TriluAttrs& a, const BindArgs& args) {
  return with_element_bits(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<TriluKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
