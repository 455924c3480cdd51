// Gather: index checks and output shape, the per-region index hull, and the copy kernel (one
// strided block copy per index the region uses).
#include "core/ops/gather.h"

#include <algorithm>

#include "core/ops/move_kernel.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

Result<ParsedOp> parse_gather(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  const Shape& data = p.shape(0);
  const int rank = static_cast<int>(data.size());
  if (rank == 0) return p.error("cannot gather from a scalar");
  TESSERA_ASSIGN_OR_RETURN(int64_t axis_attribute, p.get_int("axis", 0));
  GatherAttrs a;
  TESSERA_ASSIGN_OR_RETURN(a.axis, normalize_axis(p, axis_attribute, rank, "axis"));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> indices, p.constant_ints(1, "indices"));
  const int64_t size = data[a.axis];
  for (int64_t& i : indices) {
    if (i < -size || i >= size) {
      return p.error("index " + std::to_string(i) + " is out of range for axis " + std::to_string(a.axis) +
                     " of size " + std::to_string(size));
    }
    if (i < 0) i += size;
  }
  a.indices_shape = p.shape(1);
  // A scalar index into a 1-D tensor gives a scalar, which Tessera keeps as [1].
  if (rank == 1 && a.indices_shape.empty()) a.indices_shape = {1};
  a.indices = std::make_shared<const std::vector<int64_t>>(std::move(indices));
  Shape out(data.begin(), data.begin() + a.axis);
  out.insert(out.end(), a.indices_shape.begin(), a.indices_shape.end());
  out.insert(out.end(), data.begin() + a.axis + 1, data.end());
  return ParsedOp{a, out};
}

namespace {

// Calls fn(index value, output region of that index) for every index position inside
// `region`, in row-major order of the index dimensions.
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
    fn((*a.indices)[flat], sub);
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

void gather_copy(const GatherAttrs& a, const Region& region, const Layout& order, const Strides& in_strides,
                 const float* x, const Strides& out_strides, float* y) {
  const Strides from = input_strides_on_output(a, in_strides, region.rank);
  for_each_index(a, region, [&](int64_t index, const Region& sub) {
    copy_region(sub, order, from, x + index * in_strides[a.axis], out_strides, y);
  });
}

}  // namespace

OpCost cost(const GatherAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const GatherAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // the indices are constant
  const int q = static_cast<int>(a.indices_shape.size());
  Region r = Region::whole(s.inputs[0]);
  for (int d = 0; d < r.rank; ++d) {
    if (d == a.axis) continue;
    const int o = d < a.axis ? d : d + q - 1;
    r.begin[d] = out.begin[o];
    r.end[d] = out.end[o];
  }
  int64_t lo = s.inputs[0][a.axis], hi = -1;
  for_each_index(a, out, [&](int64_t index, const Region&) {
    lo = std::min(lo, index);
    hi = std::max(hi, index);
  });
  r.begin[a.axis] = lo;
  r.end[a.axis] = hi + 1;
  return r;
}

TilingHints tiling_hints(const GatherAttrs&, const OpShapes& s, const Layout& layout) {
  return elementwise_tiling_hints(s.output, layout);
}

LayoutChoice choose_layout(const GatherAttrs&, const OpShapes& s, const LayoutQuery&) {
  // The data is read through its strides in whatever layout it has.
  return {{std::nullopt, std::nullopt}, Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const GatherAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  // out[i..., j..., k...] = data[i..., indices[j...], k...], element by element.
  const Shape& data = s.inputs[0];
  const int q = static_cast<int>(a.indices_shape.size());
  int64_t outer = 1, inner = 1, count = 1;
  for (int d = 0; d < a.axis; ++d) outer *= data[d];
  for (size_t d = a.axis + 1; d < data.size(); ++d) inner *= data[d];
  for (int k = 0; k < q; ++k) count *= a.indices_shape[k];
  for (int64_t i = 0; i < outer; ++i) {
    for (int64_t j = 0; j < count; ++j) {
      for (int64_t k = 0; k < inner; ++k) {
        out[(i * count + j) * inner + k] = in[0][(i * data[a.axis] + (*a.indices)[j]) * inner + k];
      }
    }
  }
}

Result<std::unique_ptr<TileKernel>> bind(const GatherAttrs& a, const BindArgs& args) {
  return bind_move<GatherAttrs, gather_copy>(a, args, "f32_gather_copy");
}

}  // namespace tessera::ops
