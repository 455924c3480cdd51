// Tile: repeats and output shape, the modular footprint, and the copy kernel: a region is cut
// where it crosses a period of the input, and each piece is one strided copy.
#include "core/ops/tile.h"

#include "core/base/checked_math.h"
#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_tile(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  const Shape& in = p.shape(0);
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, p.constant_ints(1, "repeats"));
  if (repeats.size() != in.size()) {
    return p.error("repeats has " + std::to_string(repeats.size()) + " values for input rank " +
                   std::to_string(in.size()));
  }
  Shape out = in;
  for (size_t d = 0; d < in.size(); ++d) {
    if (repeats[d] < 1) return p.error("repeats must be positive (Tessera has no empty tensors)");
    if (!checked_mul(in[d], repeats[d], &out[d])) return p.error("output is too large");
  }
  return ParsedOp{TileAttrs{}, out, {}, p.dtype(0)};
}

OpCost cost(const TileAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const TileAttrs&, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // the repeats are constant
  const Shape& in = s.inputs[0];
  Region r = Region::whole(in);
  for (int d = 0; d < r.rank; ++d) {
    // Within one period the indices map in order; across a period boundary, the whole dim.
    const int64_t first = out.begin[d], last = out.end[d] - 1;
    if (first / in[d] == last / in[d]) {
      r.begin[d] = first % in[d];
      r.end[d] = last % in[d] + 1;
    }
  }
  return r;
}

TilingHints tiling_hints(const TileAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const TileAttrs&, const OpShapes& s, const LayoutQuery&) {
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const TileAttrs&, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* in = static_cast<const T*>(in_data[0]);
    T* out = static_cast<T*>(out_data);
    // Element by element: output index o reads input index o mod size in every dimension.
    const Shape& xs = s.inputs[0];
    const Shape& ys = s.output;
    std::vector<int64_t> index(ys.size(), 0);
    const int64_t count = element_count(ys);
    for (int64_t e = 0; e < count; ++e) {
      int64_t offset = 0;
      for (size_t d = 0; d < xs.size(); ++d) offset = offset * xs[d] + index[d] % xs[d];
      out[e] = in[offset];
      for (int d = static_cast<int>(ys.size()) - 1; d >= 0 && ++index[d] == ys[d]; --d) index[d] = 0;
    }
  });
}

namespace {

template <class T>
class TileCopyKernel final : public TileKernel {
 public:
  explicit TileCopyKernel(const BindArgs& args) : in_(args.inputs[0]), out_(args.output) {
    // A dimension of size 1 repeats by broadcasting (stride 0): no cuts along it.
    for (int d = 0; d < static_cast<int>(in_.shape.size()); ++d) from_[d] = in_.shape[d] == 1 ? 0 : in_.strides[d];
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    // Pieces of the region that stay within one period in every dimension, as input regions;
    // `period[d]` counts whole periods before the piece (its output offset is period * size).
    const int rank = region.rank;
    Region piece = region;
    std::array<int64_t, kMaxRank> period{};
    for (int d = 0; d < rank; ++d) start_piece(region, d, &piece, &period);
    while (true) {
      int64_t shift = 0;
      for (int d = 0; d < rank; ++d) shift += period[d] * in_.shape[d] * out_.strides[d];
      copy_region(piece, out_.layout, from_, x, out_.strides, y + shift);
      int d = rank - 1;
      for (; d >= 0; --d) {
        if (next_piece(region, d, &piece, &period)) break;
        start_piece(region, d, &piece, &period);
      }
      if (d < 0) return;
    }
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("tile_copy"); }

 private:
  // The first piece of `region` along d (output coordinates [begin, ...) in input terms).
  void start_piece(const Region& region, int d, Region* piece, std::array<int64_t, kMaxRank>* period) const {
    set_piece(region, d, region.begin[d], piece, period);
  }
  // Moves the piece along d to the next period; false past the region's end.
  bool next_piece(const Region& region, int d, Region* piece, std::array<int64_t, kMaxRank>* period) const {
    const int64_t next = ((*period)[d] + 1) * period_size(d);
    if (next >= region.end[d]) return false;
    set_piece(region, d, next, piece, period);
    return true;
  }
  void set_piece(const Region& region, int d, int64_t first, Region* piece,
                 std::array<int64_t, kMaxRank>* period) const {
    const int64_t size = period_size(d);
    (*period)[d] = first / size;
    const int64_t base = (*period)[d] * size;
    piece->begin[d] = first - base;
    piece->end[d] = std::min(region.end[d], base + size) - base;
  }
  // Broadcast dimensions form one period as long as the output.
  int64_t period_size(int d) const { return from_[d] == 0 ? out_.shape[d] : in_.shape[d]; }

  TensorBinding in_, out_;
  Strides from_{};
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const TileAttrs&, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<TileCopyKernel<decltype(zero)>>(args);
  });
}

}  // namespace tessera::ops
